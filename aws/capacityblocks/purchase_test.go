package capacityblocks

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// firstOffering searches us-east-1 and returns its cheapest offering.
func firstOffering(t *testing.T, c *Client) model.Offering {
	t.Helper()
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatal("no offering to buy")
	}
	best := offs[0]
	for _, o := range offs[1:] {
		if o.Fee.Cmp(best.Fee) < 0 {
			best = o
		}
	}
	return best
}

func isPurchase(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlock" && !r.DryRun }

// checkJournal asserts an intent and an outcome line for the request, and no secret.
func checkJournal(t *testing.T, c *Client, requestID string, outcome source.Outcome) source.JournalEntry {
	t.Helper()
	entries := apitest.Journal(t, c.api)
	var intent, result *source.JournalEntry
	for i := range entries {
		e := &entries[i]
		if e.RequestID != requestID {
			continue
		}
		switch e.Phase {
		case "intent":
			intent = e
		case "outcome":
			if intent == nil {
				t.Error("outcome line before the intent line")
			}
			result = e
		}
	}
	if intent == nil || result == nil {
		t.Fatalf("journal lacks the intent or the outcome of %s:\n%+v", requestID, entries)
	}
	if (intent.Fee == "" && intent.Action != "RunInstances") || intent.Region == "" || intent.Account != ec2sim.DemoAccount {
		t.Errorf("intent line incomplete: %+v", *intent)
	}
	if result.Outcome != string(outcome) {
		t.Errorf("journal outcome %q, want %q", result.Outcome, outcome)
	}
	return *result
}

func TestPurchaseBuysOnceAndJournals(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	res, err := c.Purchase(context.Background(), o, "", map[string]string{"team": "ml"})
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || res.Recovered || !res.Permission.Allowed || res.Permission.Action != "ec2:PurchaseCapacityBlock" {
		t.Fatalf("result %+v", res)
	}
	b := res.Block
	if !strings.HasPrefix(b.ReservationID, "cr-") || !strings.HasPrefix(b.BlockID, "cb-") || b.AvailabilityZone != o.AvailabilityZone ||
		b.TotalCount != o.Count || !b.Start.Equal(o.Start) || b.Tags[awsapi.RequestIDTag] != res.RequestID || b.Tags["team"] != "ml" {
		t.Errorf("bought block %+v does not match the offering %+v", b, o)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls, want 1", n)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlock" && r.DryRun }); n != 1 {
		t.Errorf("%d dry runs, want 1", n)
	}
	out := checkJournal(t, c, res.RequestID, source.Bought)
	if out.Result != b.ReservationID {
		t.Errorf("journal result %q, want %q", out.Result, b.ReservationID)
	}

	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].ReservationID != b.ReservationID || blocks[0].State != model.StatePaymentPending || blocks[0].TotalCount != o.Count {
		t.Fatalf("blocks after the purchase: %+v", blocks)
	}
}

func TestPurchaseLostReplyIsFoundByItsTag(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(context.Background(), o, "Linux/UNIX", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || !res.Recovered || res.Block.Tags[awsapi.RequestIDTag] != res.RequestID {
		t.Fatalf("result %+v, want bought and recovered", res)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls after a lost reply, want exactly 1", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].ReservationID != res.Block.ReservationID {
		t.Fatalf("want exactly one reservation, have %+v", blocks)
	}
	if e := checkJournal(t, c, res.RequestID, source.Bought); !e.Recovered {
		t.Error("journal does not say the purchase was recovered by its tag")
	}
}

func TestPurchaseSoldBetweenSearchAndPurchase(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	sim.SetFaults(ec2sim.Faults{Sold: 1})
	res, err := c.Purchase(context.Background(), o, "", nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Outcome != source.NotBought || res.Outcome != source.NotBought {
		t.Fatalf("err %v, result %+v: want not bought", err, res)
	}
	if pe.Explanation.Code != "InvalidCapacityBlockOfferingIdExpired" || !strings.Contains(pe.Error(), "no longer available") ||
		!strings.Contains(pe.Error(), "Search again") {
		t.Errorf("explanation %+v", pe.Explanation)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls, want 1", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil || len(blocks) != 0 {
		t.Fatalf("blocks %+v, %v: want none", blocks, err)
	}
	checkJournal(t, c, res.RequestID, source.NotBought)
}

func TestPurchaseServerErrorWithoutCommitIsNotBought(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		if isPurchase(r) {
			simtest.WriteEC2Error(w, http.StatusInternalServerError, "InternalError", "An internal error has occurred.")
			return true
		}
		return false
	})
	res, err := c.Purchase(context.Background(), o, "", nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Outcome != source.NotBought {
		t.Fatalf("err %v, result %+v: want not bought", err, res)
	}
	if !strings.Contains(pe.Explanation.Hint, "safe") {
		t.Errorf("hint %q should say it is safe to try again", pe.Explanation.Hint)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls: a 5xx purchase must never be retried", n)
	}
	// The look-up uses documented filters only (no tag: filter is documented for
	// DescribeCapacityReservations) and matches the tag in the reply.
	if n := rc.Count(func(r simtest.Recorded) bool {
		return r.Action == "DescribeCapacityReservations" && r.Form.Get("Filter.1.Name") == "instance-type" &&
			r.Form.Get("Filter.1.Value.1") == o.InstanceType && r.Form.Get("Filter.2.Name") == "availability-zone" &&
			r.Form.Get("Filter.2.Value.1") == o.AvailabilityZone
	}); n != c.api.ConfirmTries() {
		t.Errorf("%d look-ups by documented filters, want %d", n, c.api.ConfirmTries())
	}
	if n := rc.Count(func(r simtest.Recorded) bool {
		for k, v := range r.Form {
			if strings.HasPrefix(k, "Filter.") && strings.HasSuffix(k, ".Name") && strings.HasPrefix(v[0], "tag:") {
				return true
			}
		}
		return false
	}); n != 0 {
		t.Errorf("%d calls with an undocumented tag: filter", n)
	}
	checkJournal(t, c, res.RequestID, source.NotBought)
}

func TestPurchaseWhoseLookupFailsIsUnknownAndNotRepeated(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		switch {
		case isPurchase(r):
			simtest.WriteEC2Error(w, http.StatusBadGateway, "InternalError", "bad gateway")
			return true
		case r.Action == "DescribeCapacityReservations":
			simtest.WriteEC2Error(w, http.StatusServiceUnavailable, "Unavailable", "The service is unavailable.")
			return true
		}
		return false
	})
	res, err := c.Purchase(context.Background(), o, "", nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Outcome != source.Unknown || res.Outcome != source.Unknown {
		t.Fatalf("err %v, result %+v: want unknown", err, res)
	}
	if !strings.Contains(pe.Explanation.Hint, "Do not buy again") || !strings.Contains(pe.Explanation.Hint, res.RequestID) {
		t.Errorf("hint %q", pe.Explanation.Hint)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls, want 1", n)
	}
	checkJournal(t, c, res.RequestID, source.Unknown)
}

func TestPurchaseAboveTheCapIsRefusedBeforeAnyCall(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	var cap model.Money
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MaxSpend = &cap })
	o := firstOffering(t, c)
	cap = o.Fee.Sub(model.MoneyFromCents(1))
	before := rc.Total()
	_, err := c.Purchase(context.Background(), o, "", nil)
	if !errors.Is(err, source.ErrOverSpendCap) || !strings.Contains(err.Error(), o.Fee.Dollars()) {
		t.Fatalf("err %v, want the spending cap", err)
	}
	if rc.Total() != before {
		t.Errorf("%d calls made for a purchase above the cap", rc.Total()-before)
	}
	if p, _ := c.api.JournalPath(); fileExists(p) {
		t.Error("a refused purchase was journaled as an intent")
	}
	cap = o.Fee // at the cap is allowed
	if res, err := c.Purchase(context.Background(), o, "", nil); err != nil || res.Outcome != source.Bought {
		t.Fatalf("purchase at the cap: %v", err)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func TestPurchaseNotAllowedNamesTheAction(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{Deny: []string{"PurchaseCapacityBlock"}})
	c := newTestClient(t, url, nil)
	o := firstOffering(t, c)
	perm, err := c.CheckPurchase(context.Background(), o, "")
	if err != nil || perm.Allowed || perm.Action != "ec2:PurchaseCapacityBlock" || !strings.Contains(perm.Message, "ec2:PurchaseCapacityBlock") {
		t.Fatalf("permission %+v, %v", perm, err)
	}
	res, err := c.Purchase(context.Background(), o, "", nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Explanation.Action != "ec2:PurchaseCapacityBlock" || res.Permission.Allowed {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if n := rc.Count(isPurchase); n != 0 {
		t.Errorf("%d purchase calls without permission", n)
	}
}

func TestPurchaseBadInputNeverCalls(t *testing.T) {
	_, rc, c := recordedClient(t)
	good := model.Offering{ID: "cbr-0123456789abcdef0", Region: "us-east-1", Fee: model.MustMoney("10.00")}
	cases := []struct {
		name     string
		o        model.Offering
		platform string
		tags     map[string]string
	}{
		{"no id", model.Offering{Region: "us-east-1"}, "", nil},
		{"no region", model.Offering{ID: "cbr-0123456789abcdef0"}, "", nil},
		{"bad platform", good, "TempleOS", nil},
		{"aws tag", good, "", map[string]string{"aws:cloudformation:stack-name": "x"}},
		{"own tag", good, "", map[string]string{awsapi.RequestIDTag: "mine"}},
		{"empty tag key", good, "", map[string]string{"": "x"}},
	}
	// Whose records these are (STS, which needs no permission) is asked once per run,
	// before any input is read: not counted.
	if _, err := c.api.StateStore(context.Background()); err != nil {
		t.Fatal(err)
	}
	before := rc.Total()
	for _, tc := range cases {
		res, err := c.Purchase(context.Background(), tc.o, tc.platform, tc.tags)
		var pe *source.ActionError
		if !errors.As(err, &pe) || res.Outcome != source.NotBought || pe.Explanation.Summary == "" {
			t.Errorf("%s: err %v, result %+v", tc.name, err, res)
		}
	}
	if n := rc.Total() - before; n != 0 {
		t.Errorf("bad input made %d calls", n)
	}
	if p, _ := c.api.JournalPath(); fileExists(p) {
		t.Error("bad input reached the journal")
	}
}

func TestPurchaseRefusedWhenTheJournalCannotBeWritten(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.JournalDir = filepath.Join(blocker, "sub") })
	o := firstOffering(t, c)
	_, err := c.Purchase(context.Background(), o, "", nil)
	if err == nil || !strings.Contains(err.Error(), "journal") {
		t.Fatalf("err %v, want a journal refusal", err)
	}
	if n := rc.Count(isPurchase); n != 0 {
		t.Errorf("%d purchases without a journal", n)
	}
}

// A purchase that AWS commits but whose caller gives up waiting (a timeout, a Ctrl-C)
// must still be found and reported as bought.
func TestPurchaseCancelledAfterCommitIsReportedBought(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o := firstOffering(t, c)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, req *http.Request) bool {
		if !isPurchase(r) {
			return false
		}
		sim.ServeHTTP(httptest.NewRecorder(), req) // AWS commits...
		cancel()                                   // ...and the caller stops waiting
		<-req.Context().Done()
		return true
	})
	res, err := c.Purchase(ctx, o, "", nil)
	if err != nil || res.Outcome != source.Bought || !res.Recovered {
		t.Fatalf("result %+v, %v: want bought, recovered", res, err)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls", n)
	}
	checkJournal(t, c, res.RequestID, source.Bought)
}

func TestReadOnlyRefusesEverySpendingPath(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.ReadOnly = true })
	o := firstOffering(t, c)
	before := rc.Total()
	if _, err := c.Purchase(context.Background(), o, "", nil); !errors.Is(err, source.ErrReadOnly) {
		t.Errorf("purchase: %v", err)
	}
	b := model.Block{ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a", State: model.StateActive, AvailableCount: 1}
	if _, err := c.Extend(context.Background(), b, model.ExtensionOffering{ID: "cbe-0123456789abcdef0"}); !errors.Is(err, source.ErrReadOnly) {
		t.Errorf("extend: %v", err)
	}
	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); !errors.Is(err, source.ErrReadOnly) {
		t.Errorf("launch: %v", err)
	}
	if rc.Total() != before || !c.api.ReadOnly() {
		t.Errorf("read-only mode made %d calls", rc.Total()-before)
	}
}

// A purchase that commits and answers 200 with a body the SDK cannot read is bought.
func TestPurchaseUnreadableSuccessIsFoundByItsTag(t *testing.T) {
	for name, body := range map[string]string{"not xml": "<<<", "json": `{"ok":true}`} {
		t.Run(name, func(t *testing.T) {
			sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
			c := newTestClient(t, url, nil)
			o := firstOffering(t, c)
			rc.SetIntercept(func(w http.ResponseWriter, r simtest.Recorded, req *http.Request) bool {
				if !isPurchase(r) {
					return false
				}
				sim.ServeHTTP(httptest.NewRecorder(), req)
				w.WriteHeader(http.StatusOK)
				fmt.Fprint(w, body)
				return true
			})
			res, err := c.Purchase(context.Background(), o, "", nil)
			if err != nil || res.Outcome != source.Bought || !res.Recovered || res.Block.ReservationID == "" {
				t.Fatalf("result %+v, %v: want bought, recovered", res, err)
			}
		})
	}
}

// segmentedOffering searches us-east-1 for a count no single zone holds, which the
// emulator answers with offerings made of segments, and returns the first such one.
func segmentedOffering(t *testing.T, c *Client) model.Offering {
	t.Helper()
	q := baseQuery()
	q.Regions, q.Count = []string{"us-east-1"}, 60
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	for _, o := range offs {
		if o.Segmented() {
			return o
		}
	}
	t.Skipf("the emulator offered no segmented offering among %d for 60 p5.48xlarge (it serves none yet)", len(offs))
	return model.Offering{}
}

func TestSegmentedOfferingIsConverted(t *testing.T) {
	_, c := servedClient(t)
	o := segmentedOffering(t, c)
	if len(o.Parts) < 2 {
		t.Fatalf("%d segments, want at least 2", len(o.Parts))
	}
	count := 0
	for i, p := range o.Parts {
		count += p.Count
		if p.AvailabilityZone == "" || p.AvailabilityZoneID == "" || p.InstanceType != "p5.48xlarge" || p.Fee.IsZero() ||
			p.Start.IsZero() || !p.End.After(p.Start) || p.Hours == 0 || p.Currency != "USD" {
			t.Errorf("segment %d incomplete: %+v", i+1, p)
		}
	}
	if count != o.Count {
		t.Errorf("segments hold %d instances, the offering %d", count, o.Count)
	}
	if o.SegmentsFee().Cmp(o.Fee) != 0 || o.SegmentsProblem() != "" {
		t.Errorf("fee %s, segments' sum %s, problem %q", o.Fee, o.SegmentsFee(), o.SegmentsProblem())
	}
	if got, want := o.InstanceMinutes(), int64(o.Count)*o.Minutes(); got != want {
		t.Errorf("instance-minutes %d over the segments, want %d", got, want)
	}
}

// checkGroup asserts that bs are one reservation per segment of o, each tagged with the
// purchase's request id, in the segments' zones.
func checkGroup(t *testing.T, o model.Offering, requestID string, bs []model.Block) {
	t.Helper()
	if len(bs) != len(o.Parts) {
		t.Fatalf("%d reservations for %d segments: %+v", len(bs), len(o.Parts), bs)
	}
	var want, got []string
	for _, p := range o.Parts {
		want = append(want, p.AvailabilityZone)
	}
	seen := map[string]bool{}
	for _, b := range bs {
		got = append(got, b.AvailabilityZone)
		if !strings.HasPrefix(b.ReservationID, "cr-") || seen[b.ReservationID] || b.Tags[awsapi.RequestIDTag] != requestID {
			t.Errorf("reservation %+v: want a new cr- id tagged %s", b, requestID)
		}
		seen[b.ReservationID] = true
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Errorf("reservations in %v, segments in %v", got, want)
	}
}

func TestPurchaseOfSegmentsMakesOneReservationEachAndJournalsAll(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := segmentedOffering(t, c)
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || res.Recovered {
		t.Fatalf("result %+v", res)
	}
	checkGroup(t, o, res.RequestID, res.Blocks)
	if res.Block.ReservationID != res.Blocks[0].ReservationID {
		t.Errorf("Block %s is not the first of Blocks", res.Block.ReservationID)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls, want 1", n)
	}
	out := checkJournal(t, c, res.RequestID, source.Bought)
	if out.Result != model.GroupIDs(res.Blocks) || len(out.ResultIDs()) != len(o.Parts) {
		t.Errorf("journal result %q, want every reservation %q", out.Result, model.GroupIDs(res.Blocks))
	}
	entries := apitest.Journal(t, c.api)
	for _, e := range entries {
		if e.RequestID == res.RequestID && e.Phase == "intent" && len(e.Segments) != len(o.Parts) {
			t.Errorf("intent records %d segments, want %d", len(e.Segments), len(o.Parts))
		}
	}
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if g := model.Group(blocks, blocks[0]); len(g) != len(o.Parts) || model.GroupMark(blocks, blocks[0]) == "" {
		t.Errorf("blocks group %d of %d listed reservations, want %d", len(g), len(blocks), len(o.Parts))
	}
	// The fee paid is each reservation's own segment's, and the group's is the fee once.
	fees := c.FeesPaid(blocks)
	var sum model.Money
	for _, f := range fees {
		sum = sum.Add(f)
	}
	if len(fees) != len(o.Parts) || sum.Cmp(o.Fee) != 0 {
		t.Errorf("fees paid %v add up to %s, want one per reservation adding up to %s", fees, sum, o.Fee)
	}
}

func TestPurchaseOfSegmentsWithLostReplyFindsThemAll(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o := segmentedOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	if res.Outcome != source.Bought || !res.Recovered {
		t.Fatalf("result %+v, want bought and recovered", res)
	}
	checkGroup(t, o, res.RequestID, res.Blocks)
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchase calls after a lost reply, want exactly 1", n)
	}
	if out := checkJournal(t, c, res.RequestID, source.Bought); len(out.ResultIDs()) != len(o.Parts) {
		t.Errorf("journal result %q names %d reservations, want %d", out.Result, len(out.ResultIDs()), len(o.Parts))
	}
}

func TestPurchaseOfSegmentsInterruptedIsSettledWhole(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := segmentedOffering(t, c)
	first, res, err := rebuyAfterCrash(t, c, o)
	if len(res.Settled) != 1 || res.Settled[0].Outcome != source.Bought {
		t.Fatalf("settled %+v", res.Settled)
	}
	checkGroup(t, o, first.RequestID, res.Settled[0].Blocks)
	for _, b := range first.Blocks {
		if !strings.Contains(err.Error(), b.ReservationID) || !strings.Contains(res.Settled[0].Sentence(), b.ReservationID) {
			t.Errorf("the refusal %q or the sentence %q does not name %s", err, res.Settled[0].Sentence(), b.ReservationID)
		}
	}
	outs := outcomesOf(t, c, first.RequestID)
	if len(outs) != 1 || !outs[0].SettledLater || len(outs[0].ResultIDs()) != len(o.Parts) {
		t.Errorf("outcome lines %+v", outs)
	}
	if n := rc.Count(isPurchase); n != 1 {
		t.Errorf("%d purchases, want 1", n)
	}
}

// A segmented offering whose fees disagree is never bought: no call leaves.
func TestSegmentsWhoseFeesDisagreeAreNotBought(t *testing.T) {
	_, rc, c := recordedClient(t)
	o := segmentedOffering(t, c)
	o.Fee = o.Fee.Add(model.MoneyFromMicros(1))
	_, err := c.Purchase(context.Background(), o, "", nil)
	var ae *source.ActionError
	if !errors.As(err, &ae) || ae.Outcome != source.NotBought || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("purchase: %v, want not bought, fees disagree", err)
	}
	if n := rc.Of("PurchaseCapacityBlock"); n != 0 {
		t.Errorf("%d purchase calls (dry runs included), want none", n)
	}
}
