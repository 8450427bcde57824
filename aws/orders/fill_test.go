package orders

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/aws/store"
	"github.com/gpublock/gpublock/model"
)

// world is an emulator and the state directory its watchers share (one machine).
type world struct {
	sim      *ec2sim.Server
	rc       *simtest.Recorder
	url, dir string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/credentials")
	for _, k := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EC2", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE", "XDG_CACHE_HOME"} {
		t.Setenv(k, "")
	}
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	return &world{sim: sim, rc: rc, url: url, dir: t.TempDir()}
}

// watcher is one gpublock filling orders: its own client on the shared state directory,
// and a claim clock the test moves.
type watcher struct {
	*Filler
	api   *awsapi.Client
	clock time.Time
	said  []string
	mu    sync.Mutex
}

func (w *world) watcher(t *testing.T, owner string, tweak func(*awsapi.Config)) *watcher {
	t.Helper()
	api := apitest.Client(t, w.url, func(cfg *awsapi.Config) {
		cfg.JournalDir = w.dir
		if tweak != nil {
			tweak(cfg)
		}
	})
	book, err := Open(context.Background(), api)
	if err != nil {
		t.Fatal(err)
	}
	src := capacityblocks.New(api)
	wt := &watcher{api: api, clock: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	wt.Filler = &Filler{Client: api, Sources: []source.Source{src}, Spend: spend.New(api, src), Book: book, Owner: owner,
		Clock: func() time.Time { wt.mu.Lock(); defer wt.mu.Unlock(); return wt.clock },
		Say:   func(s string) { wt.mu.Lock(); wt.said = append(wt.said, s); wt.mu.Unlock() }}
	return wt
}

// later moves the watcher's claim clock past any lease.
func (wt *watcher) later() { wt.mu.Lock(); wt.clock = wt.clock.Add(2 * DefaultLease); wt.mu.Unlock() }

// doneQuery is the order: p5.48xlarge or p5en.48xlarge × 2 for 2–4 days.
func doneQuery() model.Query {
	return model.Query{InstanceTypes: []string{"p5.48xlarge", "p5en.48xlarge"}, Count: 2,
		Durations: model.DurationRange{MinDays: 2, MaxDays: 4}, Start: simtest.Start, End: simtest.Start.Add(21 * 24 * time.Hour),
		Regions: []string{"us-east-1", "us-east-2", "us-west-2"}}
}

// market is what the order's search finds now, and what the rule names under a ceiling
// the best offering meets with a cent to spare (and some others do not).
func market(t *testing.T, wt *watcher) (model.Ceiling, model.Offering, []model.Offering) {
	t.Helper()
	offs, err := wt.search(context.Background(), model.Order{Query: doneQuery()}, simtest.Start)
	if err != nil || len(offs) < 2 {
		t.Fatalf("the market offers %d offerings (%v); the test needs a few", len(offs), err)
	}
	best := offs[0]
	for _, o := range offs[1:] {
		if model.CompareForOrder(o, best) < 0 {
			best = o
		}
	}
	c := model.Ceiling{Kind: model.PerAcceleratorHour, Amount: model.MoneyFromCents(best.UsableAcceleratorHourlyRate().Cents() + 1)}
	p := model.PickForOrder(offs, c, nil)
	if !p.Within || p.Buy.ID != best.ID {
		t.Fatalf("the rule names %+v under %s, want %s", p, c, best.ID)
	}
	return c, best, offs
}

func place(t *testing.T, wt *watcher, c model.Ceiling, edit func(*model.Order)) model.Order {
	t.Helper()
	o := model.Order{Query: doneQuery(), Ceiling: c, Expires: simtest.Start.Add(72 * time.Hour)}
	if edit != nil {
		edit(&o)
	}
	o, err := wt.Book.Place(o, simtest.Start)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func purchases(w *world) int {
	return w.rc.Sent("PurchaseCapacityBlock")
}

// checkFilledOnce asserts the order bought want once, within its ceiling, and that AWS
// holds one reservation tagged with the order.
func checkFilledOnce(t *testing.T, w *world, wt *watcher, id string, want model.Offering, c model.Ceiling) model.Order {
	t.Helper()
	o, err := wt.Book.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if o.State != model.OrderFilled || o.Filled == nil || o.Claim != nil {
		t.Fatalf("order %s is %s (%s), claim %+v: want filled", id, o.State, o.Why, o.Claim)
	}
	if o.Filled.Offering.ID != want.ID || o.Filled.Offering.Fee.Cmp(want.Fee) != 0 {
		t.Errorf("filled with %s at %s, want the rule's %s at %s", o.Filled.Offering.ID, o.Filled.Offering.Fee, want.ID, want.Fee)
	}
	if !c.Allows(want) {
		t.Errorf("bought over the ceiling")
	}
	if n := purchases(w); n != 1 {
		t.Errorf("%d purchase calls, want exactly 1", n)
	}
	if len(o.Filled.Reservations) == 0 {
		t.Fatalf("no reservation recorded: %+v", o.Filled)
	}
	src := capacityblocks.New(wt.api)
	tagged := 0
	for _, r := range []string{"us-east-1", "us-east-2", "us-west-2"} {
		l, err := src.List(context.Background(), []string{r})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range l.Blocks {
			if b.Tags[OrderTag] == id {
				tagged++
			}
		}
	}
	if tagged != len(o.Filled.Reservations) {
		t.Errorf("%d reservations tagged %s=%s, want %d", tagged, OrderTag, id, len(o.Filled.Reservations))
	}
	return o
}

func TestOrderFillsOnceWithTheRulesOffering(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	c, best, _ := market(t, a)
	o := place(t, a, c, nil)
	if _, err := a.Fill(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	checkFilledOnce(t, w, a, o.ID, best, c)
	// Later rounds, by it or another watcher, buy nothing more.
	b := w.watcher(t, "b", nil)
	b.later()
	for _, f := range []*watcher{a, b} {
		if err := f.FillAll(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := purchases(w); n != 1 {
		t.Errorf("%d purchase calls after more rounds, want 1", n)
	}
}

func TestTwoWatchersAtOnceBuyOnce(t *testing.T) {
	w := newWorld(t)
	a, b := w.watcher(t, "a", nil), w.watcher(t, "b", nil)
	c, best, _ := market(t, a)
	o := place(t, a, c, nil)
	var wg sync.WaitGroup
	for _, f := range []*watcher{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				if err := f.FillAll(context.Background()); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	checkFilledOnce(t, w, a, o.ID, best, c)
}

// A watcher killed at each step of a fill: the next one (another watcher, once the
// claim's lease is over) buys the order once, or finds what the killed one bought.
func TestKilledAtEachStepBuysOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		at      Step
		lost    bool // the purchase's outcome line is lost with the process
		boughtA int  // purchase calls the killed watcher made
	}{
		{"search", StepSearch, false, 0},
		{"approval", StepApproval, false, 0},
		{"purchase call", StepPurchase, false, 0},
		{"after the reply", StepReplied, false, 1},
		{"after the reply, outcome unwritten", StepReplied, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			a, b := w.watcher(t, "a", nil), w.watcher(t, "b", nil)
			c, best, _ := market(t, a)
			o := place(t, a, c, func(o *model.Order) { o.ApproveCmd = "exit 0" })
			a.Stop = func(_ string, s Step) bool { return s == tc.at }
			if _, err := a.Fill(context.Background(), o.ID); err != ErrStopped {
				t.Fatalf("fill: %v, want stopped at %s", err, tc.at)
			}
			if n := purchases(w); n != tc.boughtA {
				t.Fatalf("%d purchase calls by the killed watcher, want %d", n, tc.boughtA)
			}
			if tc.lost {
				cur, _ := a.Book.Get(o.ID)
				dropOutcome(t, a.api, cur.Claim.RequestID)
			}
			// Within the lease the other watcher leaves the order alone.
			if cur, _ := b.Fill(context.Background(), o.ID); cur.State == model.OrderFilling && purchases(w) != tc.boughtA {
				t.Fatalf("the other watcher bought within the lease")
			}
			b.later()
			if _, err := b.Fill(context.Background(), o.ID); err != nil {
				t.Fatal(err)
			}
			got := checkFilledOnce(t, w, b, o.ID, best, c)
			if tc.boughtA == 1 && !got.Filled.Recovered {
				t.Errorf("the killed watcher's purchase was not recovered by its tag: %+v", got.Filled)
			}
		})
	}
}

func TestLostReplyIsFoundByItsTag(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	c, best, _ := market(t, a)
	o := place(t, a, c, nil)
	w.sim.SetFaults(ec2sim.Faults{LostReply: 1})
	got, err := a.Fill(context.Background(), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	w.sim.SetFaults(ec2sim.Faults{})
	if o := checkFilledOnce(t, w, a, got.ID, best, c); !o.Filled.Recovered {
		t.Errorf("fill %+v: want recovered by the request tag", o.Filled)
	}
}

// dropOutcome removes requestID's outcome lines from the journal, as a process killed
// between the call and its outcome line leaves it.
func dropOutcome(t *testing.T, api *awsapi.Client, requestID string) {
	t.Helper()
	if apitest.DropOutcomes(t, api, requestID) == 0 {
		t.Fatalf("no outcome line of %s", requestID)
	}
}

func TestNothingIsBoughtOverTheCeilingTheCapOrReadOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tweak func(*awsapi.Config)
		edit  func(o *model.Order, best model.Offering)
		why   string
	}{
		{"ceiling", nil, func(o *model.Order, best model.Offering) {
			o.Ceiling.Amount = best.UsableAcceleratorHourlyRate().Sub(model.MoneyFromCents(1))
		}, "above the ceiling"},
		{"order's max-spend", nil, nil, "max-spend"},
		{"spending cap", func(c *awsapi.Config) { m := model.MoneyFromCents(100); c.MaxSpend = &m }, nil, "spending cap"},
		{"read-only", func(c *awsapi.Config) { c.ReadOnly = true }, nil, "read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			a := w.watcher(t, "a", tc.tweak)
			c, best, offs := market(t, a)
			o := place(t, a, c, func(o *model.Order) {
				if tc.edit != nil {
					tc.edit(o, best)
				}
				if tc.why == "max-spend" {
					// A cent under the cheapest fee: nothing within the ceiling is within the cap.
					m := offs[0].Fee
					for _, x := range offs {
						if x.Fee.Cmp(m) < 0 {
							m = x.Fee
						}
					}
					m = m.Sub(model.MoneyFromCents(1))
					o.MaxSpend = &m
				}
			})
			got, err := a.Fill(context.Background(), o.ID)
			if err != nil {
				t.Fatal(err)
			}
			if n := purchases(w); n != 0 {
				t.Fatalf("%d purchase calls, want none", n)
			}
			if got.State != model.OrderOpen || got.Claim != nil || !strings.Contains(got.Why, tc.why) {
				t.Errorf("order %s, claim %+v, why %q: want open, unclaimed, saying %q", got.State, got.Claim, got.Why, tc.why)
			}
			if got.Best == nil || got.Best.ID != best.ID || got.LastSearch.IsZero() {
				t.Errorf("last search %v, best %+v: want the rule's best %s", got.LastSearch, got.Best, best.ID)
			}
		})
	}
}

func TestRefusedApprovalBuysNothing(t *testing.T) {
	for _, closeIt := range []bool{false, true} {
		w := newWorld(t)
		a := w.watcher(t, "a", nil)
		c, _, _ := market(t, a)
		o := place(t, a, c, func(o *model.Order) { o.ApproveCmd, o.CloseOnRefusal = "echo no >&2; exit 3", closeIt })
		got, err := a.Fill(context.Background(), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := model.OrderOpen
		if closeIt {
			want = model.OrderRefused
		}
		if purchases(w) != 0 || got.State != want || !strings.Contains(got.Why, "approval command refused") {
			t.Errorf("close=%t: %d purchases, order %s (%q): want none, %s, saying the approval refused", closeIt, purchases(w), got.State, got.Why, want)
		}
		if w.rc.Of("PurchaseCapacityBlock") != 0 {
			t.Errorf("a refused order reached the purchase (even its dry run)")
		}
	}
}

func TestExpiredOrderBuysNothing(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	c, _, _ := market(t, a)
	o := place(t, a, c, func(o *model.Order) { o.Expires = simtest.Start.Add(time.Hour) })
	w.sim.Advance(2 * time.Hour)
	searches := func() int {
		return w.rc.Of("DescribeCapacityBlockOfferings")
	}
	before := searches()
	got, err := a.Fill(context.Background(), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != model.OrderExpired || purchases(w) != 0 {
		t.Fatalf("order %s after its expiry, %d purchases: want expired, none", got.State, purchases(w))
	}
	if n := searches() - before; n != 0 {
		t.Errorf("an expired order still searched (%d calls)", n)
	}
}

func TestCancel(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	c := model.Ceiling{Kind: model.PerAcceleratorHour, Amount: model.MustMoney("100")}
	o := place(t, a, c, nil)
	got, err := a.Book.Cancel(o.ID, simtest.Start)
	if err != nil || got.State != model.OrderCancelled {
		t.Fatalf("cancel: %v, %s", err, got.State)
	}
	if _, err := a.Fill(context.Background(), o.ID); err != nil || purchases(w) != 0 {
		t.Fatalf("a cancelled order: %v, %d purchases", err, purchases(w))
	}
	if _, err := a.Book.Cancel(o.ID, simtest.Start); err == nil {
		t.Error("cancelled twice")
	}
}

// A claim of a process of this machine that is gone is settled at once, not after its lease.
func TestClaimOfADeadProcessIsSettledAtOnce(t *testing.T) {
	w := newWorld(t)
	a, b := w.watcher(t, "a", nil), w.watcher(t, "b", nil)
	c, best, _ := market(t, a)
	o := place(t, a, c, nil)
	host, _ := os.Hostname()
	a.Owner = host + "/999999999" // no such process
	a.Stop = func(_ string, s Step) bool { return s == StepReplied }
	if _, err := a.Fill(context.Background(), o.ID); err != ErrStopped {
		t.Fatal(err)
	}
	// b's clock has not moved: the lease holds, but its owner is gone.
	if _, err := b.Fill(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	checkFilledOnce(t, w, b, o.ID, best, c)
}

// On the emulator's clock moved six hours a round, an order whose ceiling the market does
// not meet at first is filled once it does, by whichever of two watchers searches then,
// with the offering the rule names at that moment; a watcher that comes after a search
// within SearchEvery does not search again.
func TestOrderFillsWhenTheMarketComesWithinTheCeiling(t *testing.T) {
	w := newWorld(t)
	a, b := w.watcher(t, "a", nil), w.watcher(t, "b", nil)
	a.SearchEvery, b.SearchEvery = time.Hour, time.Hour
	_, first, _ := market(t, a)
	// A cent under the best offering now: nothing is bought until the market moves.
	c := model.Ceiling{Kind: model.PerAcceleratorHour, Amount: first.UsableAcceleratorHourlyRate().Sub(model.MoneyFromCents(1))}
	o := place(t, a, c, func(o *model.Order) { o.Expires = simtest.Start.Add(10 * 24 * time.Hour) })
	searches := func() int {
		return w.rc.Of("DescribeCapacityBlockOfferings")
	}
	for round := 0; round < 20; round++ {
		offs, err := a.search(context.Background(), model.Order{Query: doneQuery()}, w.sim.Now())
		if err != nil {
			t.Fatal(err)
		}
		want := model.PickForOrder(offs, c, nil)
		got, err := a.Fill(context.Background(), o.ID)
		if err != nil {
			t.Fatal(err)
		}
		before := searches()
		if again, err := b.Fill(context.Background(), o.ID); err != nil || searches() != before || again.State != got.State {
			t.Fatalf("round %d: the second watcher searched again (%d calls) or saw another state (%s, %v)", round, searches()-before, again.State, err)
		}
		switch {
		case got.State == model.OrderFilled:
			if !want.Within || got.Filled.Offering.ID != want.Buy.ID {
				t.Fatalf("round %d: filled with %s, want the rule's %+v", round, got.Filled.Offering.ID, want.Buy.ID)
			}
			if round == 0 {
				t.Fatal("filled at once under a ceiling below the market")
			}
			if n := purchases(w); n != 1 {
				t.Fatalf("%d purchases, want 1", n)
			}
			return
		case want.Within:
			t.Fatalf("round %d: %s is within the ceiling, and the order is %s (%s)", round, want.Buy.ID, got.State, got.Why)
		case got.Best == nil || !strings.Contains(got.Why, "above the ceiling"):
			t.Fatalf("round %d: the order says %q, best %+v", round, got.Why, got.Best)
		}
		w.sim.Advance(6 * time.Hour)
	}
	t.Fatal("the market never came within the ceiling in 5 days of the emulator's clock")
}

// Once bought, the order's Then is done once: a launch attached to the block's start and
// the hand-off file written; the fill is notified once.
func TestThenAttachesALaunchAndWritesTheHandoff(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	a.Then = ThenOf(a.api)
	var events []string
	a.Notify = func(e notify.Event) { events = append(events, e.Kind) }
	c, _, _ := market(t, a)
	path := filepath.Join(t.TempDir(), "karpenter.yaml")
	o := place(t, a, c, func(o *model.Order) {
		o.Then = model.OrderThen{Launch: true, ImageID: "ami-0123456789abcdef0", LaunchCount: 1, Handoff: true, HandoffTool: "karpenter", HandoffPath: path, Notify: true}
	})
	got, err := a.Fill(context.Background(), o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != model.OrderFilled || !got.Filled.ThenDone || got.Filled.ThenErr != "" {
		t.Fatalf("order %s, fill %+v", got.State, got.Filled)
	}
	ls, err := atstart.List(a.api)
	if err != nil || len(ls) != 1 || ls[0].ReservationID != got.Filled.Reservations[0] || ls[0].Spec.ImageID != "ami-0123456789abcdef0" || ls[0].State != atstart.Pending {
		t.Fatalf("attached launches %+v, %v", ls, err)
	}
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), got.Filled.Reservations[0]) {
		t.Fatalf("hand-off file: %v\n%s", err, b)
	}
	// Another round does nothing more.
	if _, err := a.Fill(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	if ls, _ := atstart.List(a.api); len(ls) != 1 {
		t.Errorf("%d launches attached after another round", len(ls))
	}
	if strings.Join(events, ",") != KindFilled {
		t.Errorf("notified %v, want one %s", events, KindFilled)
	}
}

// An order whose window can no longer hold its shortest block is closed, not searched for.
func TestOrderWhoseWindowHasPassedExpires(t *testing.T) {
	w := newWorld(t)
	a := w.watcher(t, "a", nil)
	o := place(t, a, model.Ceiling{Kind: model.PerAcceleratorHour, Amount: model.MustMoney("100")}, func(o *model.Order) {
		o.Query.End = simtest.Start.Add(3 * 24 * time.Hour)
		o.Expires = simtest.Start.Add(10 * 24 * time.Hour)
	})
	w.sim.Advance(25 * time.Hour) // 47 hours of the window left: no 2-day block fits
	got, err := a.Fill(context.Background(), o.ID)
	if err != nil || got.State != model.OrderExpired || !strings.Contains(got.Why, "can no longer hold") || purchases(w) != 0 {
		t.Fatalf("order %s (%q), %v, %d purchases", got.State, got.Why, err, purchases(w))
	}
}

// A watcher stopped (its context cancelled) while its purchase call is in flight, after EC2
// carried it out: the spend path looks the purchase up by its tag all the same, and
// whatever it learnt, the order ends filled once, by it or by the next watcher settling
// its claim.
func TestCancelledDuringThePurchaseCallIsSettledByItsTag(t *testing.T) {
	w := newWorld(t)
	a, b := w.watcher(t, "a", nil), w.watcher(t, "b", nil)
	c, best, _ := market(t, a)
	o := place(t, a, c, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.rc.SetIntercept(func(rw http.ResponseWriter, r simtest.Recorded, req *http.Request) bool {
		if r.Action != "PurchaseCapacityBlock" || r.DryRun {
			return false
		}
		w.sim.ServeHTTP(httptest.NewRecorder(), req) // carried out; the reply never comes
		cancel()
		return true
	})
	got, _ := a.Fill(ctx, o.ID)
	w.rc.SetIntercept(nil)
	if got.State != model.OrderFilled && (got.State != model.OrderFilling || got.Claim == nil) {
		t.Fatalf("after the cancelled call the order is %s (%q), claim %+v: want filled, or filling under its claim", got.State, got.Why, got.Claim)
	}
	b.later()
	if _, err := b.Fill(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	if o := checkFilledOnce(t, w, b, o.ID, best, c); !o.Filled.Recovered {
		t.Errorf("fill %+v: want recovered by the tag", o.Filled)
	}
}

// Two machines sharing an S3 prefix (no local state in common): two watchers at once buy
// the order once, and one killed after the reply is settled by the other once its lease is
// over.
func TestTwoMachinesOnS3BuyOnce(t *testing.T) {
	for _, killed := range []bool{false, true} {
		w := newWorld(t)
		apitest.S3Bucket(t, w.url, "team")
		onS3 := func(c *awsapi.Config) {
			c.State, c.JournalDir = store.Location{Bucket: "team", Prefix: "gpublock"}, t.TempDir()
		}
		a, b := w.watcher(t, "host-a/1", onS3), w.watcher(t, "host-b/1", onS3)
		c, best, _ := market(t, a)
		o := place(t, a, c, nil)
		if killed {
			a.Stop = func(_ string, s Step) bool { return s == StepReplied }
			if _, err := a.Fill(context.Background(), o.ID); err != ErrStopped {
				t.Fatal(err)
			}
			b.later()
		}
		var wg sync.WaitGroup
		for _, f := range []*watcher{a, b} {
			wg.Go(func() {
				if err := f.FillAll(context.Background()); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if !killed {
			checkFilledOnce(t, w, a, o.ID, best, c)
			continue
		}
		// The killed machine's claim is settled by the other (a's own next round may do it too).
		if got := checkFilledOnce(t, w, b, o.ID, best, c); !got.Filled.Recovered {
			t.Errorf("killed: fill %+v, want recovered by the tag", got.Filled)
		}
	}
}
