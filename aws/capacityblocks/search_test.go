package capacityblocks

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// sweepQuery makes many calls: 2 types × 7 durations × 3 regions = 42.
func sweepQuery() model.Query {
	q := baseQuery()
	q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge"}
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 7}
	return q
}

func TestSearchFindsOfferingsInEveryRegion(t *testing.T) {
	_, c := servedClient(t)
	offs, final, evs := collect(t, c.Search(context.Background(), baseQuery()))
	if len(offs) == 0 {
		t.Fatal("no offerings at all")
	}
	for _, r := range baseQuery().Regions {
		st := final[r]
		if st.State != model.RegionOK || st.Offerings == 0 {
			t.Errorf("%s: final status %v, want ok with offerings", r, st)
		}
	}
	for _, o := range offs {
		if o.ID == "" || o.Region == "" || o.InstanceType != "p5.48xlarge" || o.Count != 1 || o.Fee.IsZero() || o.Start.IsZero() {
			t.Errorf("incomplete offering %+v", o)
		}
		if o.Start.Before(baseQuery().Start) || o.End.After(baseQuery().End) {
			t.Errorf("offering %s outside the window: %s – %s", o.ID, o.Start, o.End)
		}
	}
	last := evs[len(evs)-1]
	if last.CallsDone != 3 || last.CallsTotal != 3 {
		t.Errorf("last event counts %d/%d calls, want 3/3", last.CallsDone, last.CallsTotal)
	}
	// Every region starts as "searching" before anything else is said about it.
	for _, r := range baseQuery().Regions {
		for _, ev := range evs {
			if ev.Status != nil && ev.Status.Region == r {
				if ev.Status.State != model.RegionSearching {
					t.Errorf("%s: first status %v, want searching", r, ev.Status.State)
				}
				break
			}
		}
	}
}

func TestSearchFollowsEveryPage(t *testing.T) {
	_, rc, c := recordedClient(t)
	whole, _, _ := collect(t, c.Search(context.Background(), baseQuery()))
	c.pageSize = 2
	before := rc.Total()
	paged, _, evs := collect(t, c.Search(context.Background(), baseQuery()))
	if got, want := offeringIDs(paged), offeringIDs(whole); !slices.Equal(got, want) {
		t.Fatalf("paged search found %d offerings, whole pages %d:\n%v\n%v", len(got), len(want), got, want)
	}
	calls := rc.Total() - before
	if calls <= 3 {
		t.Errorf("paged search made %d calls; with pages of 2 it must make more than one per region", calls)
	}
	pages := 0
	for _, ev := range evs {
		if len(ev.Offerings) > 0 {
			pages++
			if len(ev.Offerings) > 2 {
				t.Errorf("an event carried %d offerings; pages are of 2", len(ev.Offerings))
			}
		}
	}
	if pages < 2*3 {
		t.Errorf("%d pages delivered; each page must be delivered on its own", pages)
	}
}

func TestSearchUnderThrottlingGivesTheSameRows(t *testing.T) {
	_, url := simtest.Serve(t, 7, ec2sim.Faults{})
	clean := newTestClient(t, url, nil)
	want, _, _ := collect(t, clean.Search(context.Background(), sweepQuery()))
	if len(want) == 0 {
		t.Fatal("no offerings without faults")
	}

	_, rc, turl := simtest.NewRecordedSim(t, 7, ec2sim.Faults{Throttle: 0.3})
	throttled := newTestClient(t, turl, func(*awsapi.Config) {
		// 0.3^12: a call fails for good about once in two million; the SDK's default of 3
		// attempts would lose one call in 37.
		t.Setenv("AWS_MAX_ATTEMPTS", "12")
	})
	got, final, evs := collect(t, throttled.Search(context.Background(), sweepQuery()))
	if !slices.Equal(offeringIDs(got), offeringIDs(want)) {
		t.Fatalf("with 30%% throttling: %d offerings, without: %d", len(got), len(want))
	}
	for r, st := range final {
		if st.State != model.RegionOK {
			t.Errorf("%s ended %v", r, st)
		}
	}
	sawThrottled := false
	for _, ev := range evs {
		if ev.Status != nil && ev.Status.State == model.RegionThrottled {
			sawThrottled = true
			if ev.Status.String() != "throttled (retrying)" {
				t.Errorf("throttled status reads %q", ev.Status)
			}
		}
	}
	if !sawThrottled {
		t.Error("no region was ever reported as throttled")
	}
	_, planned, _ := planSearch(sweepQuery(), maxTypesPerCall)
	if calls := rc.Of("DescribeCapacityBlockOfferings"); calls <= len(planned) {
		t.Errorf("%d calls for %d searches under 30%% throttling: the retries did not happen", calls, len(planned))
	}
}

func TestSearchRegionDownOthersComplete(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{Down: []string{"us-east-2"}})
	c := newTestClient(t, url, nil)
	offs, final, _ := collect(t, c.Search(context.Background(), baseQuery()))
	for _, r := range []string{"us-east-1", "us-west-2"} {
		if final[r].State != model.RegionOK || final[r].Offerings == 0 {
			t.Errorf("%s: %v, want ok with offerings", r, final[r])
		}
	}
	down := final["us-east-2"]
	if down.State != model.RegionError || down.Err == nil || down.Message == "" {
		t.Fatalf("us-east-2: %+v, want an error with a message", down)
	}
	if ex := awsapi.ExplainError(down.Err); ex.Code != "Unavailable" || !ex.Retryable {
		t.Errorf("explanation %+v", ex)
	}
	for _, o := range offs {
		if o.Region == "us-east-2" {
			t.Errorf("offering from the down region: %+v", o)
		}
	}
	// A down region is not throttling: it gets the SDK's usual 3 tries, not 8.
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Region == "us-east-2" }); n != awsapi.OtherAttempts {
		t.Errorf("us-east-2 was tried %d times, want %d", n, awsapi.OtherAttempts)
	}
}

func TestSearchNeverDeliversAnOfferingTwice(t *testing.T) {
	_, url := simtest.Serve(t, 3, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	q := sweepQuery()
	q.Regions = append(q.Regions, q.Regions...) // the same regions twice
	q.InstanceTypes = append(q.InstanceTypes, "p5.48xlarge")
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatal("no offerings")
	}
	seen := map[string]bool{}
	for _, o := range offs {
		if seen[o.Region+o.ID] {
			t.Errorf("offering %s delivered twice", o.ID)
		}
		seen[o.Region+o.ID] = true
	}

	// And a page that repeats offerings (as a retried page could) adds nothing.
	out := make(chan source.SearchEvent, 4)
	f := awsapi.NewFanout(out, []string{"us-east-1"}, []string{"us-east-1", "us-east-1"}, offeringKey, func(error) string { return "" })
	page := []model.Offering{{ID: "cbr-1", Region: "us-east-1"}, {ID: "cbr-2", Region: "us-east-1"}}
	f.Deliver(context.Background(), "us-east-1", page)
	f.Deliver(context.Background(), "us-east-1", page)
	close(out)
	n := 0
	for ev := range out {
		n += len(ev.Offerings)
	}
	if n != 2 {
		t.Errorf("a repeated page delivered %d offerings in all, want 2", n)
	}
}

func TestSearchUltraServerSendsUltraserverFields(t *testing.T) {
	_, rc, c := recordedClient(t)
	q := baseQuery()
	q.InstanceTypes = []string{"u-p6e-gb200x72"}
	q.Regions = []string{"us-east-1"}
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 14}
	offs, final, _ := collect(t, c.Search(context.Background(), q))
	if final["us-east-1"].State == model.RegionError {
		t.Fatalf("UltraServer search failed: %v", final["us-east-1"])
	}
	for _, o := range offs {
		if o.UltraServerType != "u-p6e-gb200x72" || o.UltraServerCount != 1 || o.InstanceType != "u-p6e-gb200x72" || o.Count != 1 || o.Accelerators() != 72 {
			t.Errorf("UltraServer offering %+v", o)
		}
	}
	if len(offs) == 0 {
		t.Error("no UltraServer offering in two weeks")
	}
	n := rc.Count(func(r simtest.Recorded) bool {
		return r.Action == "DescribeCapacityBlockOfferings" && r.Form.Get("UltraserverType") == "u-p6e-gb200x72" &&
			r.Form.Get("UltraserverCount") == "1" && r.Form.Get("InstanceType") == "" && r.Form.Get("InstanceCount") == ""
	})
	if n != 14 {
		t.Errorf("%d of the 14 calls sent UltraserverType/UltraserverCount without InstanceType/InstanceCount", n)
	}
}

func TestSearchCancelStopsEveryCall(t *testing.T) {
	// Every call hangs for ten minutes unless cancelled.
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{Latency: 10 * time.Minute})
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.PerRegion, cfg.Overall = 2, 4 })
	ctx, cancel := context.WithCancel(context.Background())
	q := sweepQuery()
	q.InstanceTypes = q.InstanceTypes[:1] // one type: no call waits for another's answer
	q.Durations.MaxDays = 14
	ch := c.Search(ctx, q) // 42 calls, at most 4 at a time

	// Wait until the first wave is at the emulator, then cancel.
	for ev := range ch {
		if ev.Status != nil && ev.Status.Region == "us-west-2" {
			break
		}
	}
	// A deadline only bounds a hang: the first wave reaches the emulator in milliseconds.
	for deadline := time.Now().Add(time.Minute); rc.Total() < 4; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls reached the emulator in a minute; want the first wave of 4", rc.Total())
		}
	}
	cancel()
	closed := make(chan int)
	go func() {
		n := 0
		for range ch {
			n++
		}
		closed <- n
	}()
	select {
	case n := <-closed:
		if n != 0 {
			t.Errorf("%d events after the cancel", n)
		}
	case <-time.After(time.Minute): // a safety net, far beyond any honest run
		t.Fatal("the channel was not closed after cancel")
	}
	// The channel closes only when every goroutine has returned, so no call can start
	// after this point; and none beyond the first wave ever started.
	if got := rc.Total(); got != 4 {
		t.Errorf("%d calls reached the emulator, want exactly the first wave of 4", got)
	}
}

func TestSearchBadQueryReportsEveryRegion(t *testing.T) {
	_, rc, c := recordedClient(t)
	q := baseQuery()
	q.Count = 0
	_, final, _ := collect(t, c.Search(context.Background(), q))
	for _, r := range q.Regions {
		if final[r].State != model.RegionError {
			t.Errorf("%s: %v, want error", r, final[r])
		}
	}
	if rc.Total() != 0 {
		t.Errorf("a bad query made %d calls", rc.Total())
	}
}

func TestSearchRegionThatSellsNoneOfTheTypes(t *testing.T) {
	_, rc, c := recordedClient(t)
	q := baseQuery()
	q.InstanceTypes = []string{"p5e.48xlarge"} // us-east-2 and us-west-2 only
	_, final, _ := collect(t, c.Search(context.Background(), q))
	if st := final["us-east-1"]; st.State != model.RegionEmpty || st.Message == "" {
		t.Errorf("us-east-1: %+v, want empty with a note", st)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Region == "us-east-1" }); n != 0 {
		t.Errorf("%d calls to a region that does not sell the type", n)
	}
}

func TestSearchWithoutRegionsUsesTheHomeRegion(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.Region = "us-west-2" })
	q := baseQuery()
	q.Regions = nil
	offs, final, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 || len(final) != 1 || final["us-west-2"].State != model.RegionOK {
		t.Fatalf("%d offerings, statuses %v", len(offs), final)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Region != "us-west-2" }); n != 0 {
		t.Errorf("%d calls outside the home region", n)
	}
}

// inflight counts the calls the emulator is serving at once, per region and overall.
type inflight struct {
	next                http.Handler
	mu                  sync.Mutex
	now, maxAll         int
	region, maxByRegion map[string]int
}

func (f *inflight) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	region := ""
	if auth := r.Header.Get("Authorization"); strings.Contains(auth, "Credential=") {
		if parts := strings.Split(strings.SplitN(strings.SplitN(auth, "Credential=", 2)[1], ",", 2)[0], "/"); len(parts) == 5 {
			region = parts[2]
		}
	}
	f.mu.Lock()
	f.now++
	f.region[region]++
	f.maxAll = max(f.maxAll, f.now)
	f.maxByRegion[region] = max(f.maxByRegion[region], f.region[region])
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.now--
		f.region[region]--
		f.mu.Unlock()
	}()
	f.next.ServeHTTP(w, r)
}

func TestSearchConcurrencyIsBounded(t *testing.T) {
	sim := simtest.NewSim(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Faults: ec2sim.Faults{Latency: 5 * time.Millisecond}})
	f := &inflight{next: sim, region: map[string]int{}, maxByRegion: map[string]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	c := newTestClient(t, srv.URL, func(cfg *awsapi.Config) { cfg.PerRegion, cfg.Overall = 2, 5 })
	offs, final, _ := collect(t, c.Search(context.Background(), sweepQuery()))
	if len(offs) == 0 || len(final) != 3 {
		t.Fatalf("%d offerings, %d regions", len(offs), len(final))
	}
	if f.maxAll > 5 {
		t.Errorf("%d calls at once, the bound is 5", f.maxAll)
	}
	for r, n := range f.maxByRegion {
		if n > 2 {
			t.Errorf("%s: %d calls at once, the bound is 2", r, n)
		}
	}
}

// A search asks for the zones the account has not opted in to (AllAvailabilityZones)
// only when the query says so, and its offerings carry their zone type: p5 blocks in
// the Atlanta Local Zone are found then, and only then.
func TestSearchAllZones(t *testing.T) {
	_, rc, c := recordedClient(t)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	local := func(all bool) (found bool) {
		t.Helper()
		q.AllZones = all
		for d := 0; d < 40 && !found; d++ {
			q.Start = simtest.Start.Add(time.Duration(d) * 24 * time.Hour)
			q.End = q.Start.Add(7 * 24 * time.Hour)
			offs, _, _ := collect(t, c.Search(context.Background(), q))
			for _, o := range offs {
				switch {
				case o.ZoneType == "local-zone":
					found = true
				case o.ZoneType != "availability-zone":
					t.Fatalf("offering %s has zone type %q", o.ID, o.ZoneType)
				}
			}
		}
		return found
	}
	if local(false) {
		t.Error("a Local Zone offering without AllZones")
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Form.Has("AllAvailabilityZones") }); n != 0 {
		t.Errorf("%d calls sent AllAvailabilityZones without AllZones", n)
	}
	if !local(true) {
		t.Error("no Local Zone offering with AllZones in 40 days")
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Form.Get("AllAvailabilityZones") == "true" }); n == 0 {
		t.Error("AllZones sent no AllAvailabilityZones=true")
	}
}
