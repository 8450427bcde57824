package capacityblocks

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// everyDuration is the whole market (every region × type the catalog sells) for every
// duration from 1 day to 26 weeks, in a window each of them fits.
func everyDuration() model.Query {
	q := wholeMarket()
	q.End = q.Start.Add(model.MaxLeadTime + 182*24*time.Hour)
	return q
}

func callsPerRegion(calls []searchCall) map[string]int {
	per := map[string]int{}
	for _, c := range calls {
		per[c.region]++
	}
	return per
}

// A whole-market search asks for the types a region sells in one call per duration:
// at most 40% of the calls of one type per call, and at most 30% in the busiest region.
func TestPlanAsksSeveralTypesInOneCall(t *testing.T) {
	q := everyDuration()
	_, perType, _ := planSearch(q, 1)
	_, calls, _ := planSearch(q, maxTypesPerCall)
	if len(perType) != 1558 {
		t.Fatalf("the per-type plan makes %d calls, want the 1,558 of 41 region × type pairs × 38 durations", len(perType))
	}
	if 100*len(calls) > 40*len(perType) {
		t.Fatalf("%d calls, more than 40%% of the per-type plan's %d", len(calls), len(perType))
	}
	before, after := callsPerRegion(perType), callsPerRegion(calls)
	if before["us-east-1"] != 380 {
		t.Fatalf("per type, us-east-1 has %d calls, want 380 (10 types × 38 durations)", before["us-east-1"])
	}
	for r, n := range after {
		if 100*n > 30*before[r] && r == "us-east-1" {
			t.Fatalf("%s: %d calls, more than 30%% of its %d per type", r, n, before[r])
		}
		if n > before[r] {
			t.Fatalf("%s: %d calls, more than its %d per type", r, n, before[r])
		}
	}
	t.Logf("%d calls (per type %d); us-east-1 %d (per type %d)", len(calls), len(perType), after["us-east-1"], before["us-east-1"])

	// Against the emulator (its cap per type), the calls made are the calls planned, or
	// hardly more: only an answer of exactly six is asked again type by type.
	_, made, _ := searchCountedPerRegion(t, q, false, false)
	total := 0
	for _, n := range made {
		total += n
	}
	if 100*total > 40*len(perType) || 100*made["us-east-1"] > 30*before["us-east-1"] {
		t.Fatalf("made %d calls (us-east-1 %d), more than 40%% of %d (us-east-1 30%% of %d)", total, made["us-east-1"], len(perType), before["us-east-1"])
	}
	t.Logf("made %d calls; us-east-1 %d", total, made["us-east-1"])

	// Every region × type × duration the per-type plan asks is still asked, once; a type
	// a region does not sell is not asked at all; an UltraServer type goes alone.
	type cell struct {
		region, typ string
		days        int
	}
	seen := map[cell]int{}
	for _, c := range calls {
		for _, tn := range c.types {
			typ, _ := model.LookupType(tn)
			if !typ.Sells(c.region) {
				t.Fatalf("%s asked in %s, which does not sell it", tn, c.region)
			}
			if typ.UltraServer && len(c.types) != 1 {
				t.Fatalf("UltraServer %s asked with %v", tn, c.types)
			}
			seen[cell{c.region, tn, c.days}]++
		}
		if len(c.types) > maxTypesPerCall {
			t.Fatalf("%d types in one call", len(c.types))
		}
	}
	for _, c := range perType {
		if seen[cell{c.region, c.types[0], c.days}] != 1 {
			t.Fatalf("%s %s %dd asked %d times", c.region, c.types[0], c.days, seen[cell{c.region, c.types[0], c.days}])
		}
	}
	if len(seen) != len(perType) {
		t.Fatalf("%d cells asked, the per-type plan asks %d", len(seen), len(perType))
	}
}

// An answer of several types that is exactly AWS's cap may have left some out: each type
// it holds fewer than the cap of is asked again alone; an answer under the cap is whole,
// and one over it shows a cap per type, so each type's part is whole too.
func TestPossiblyCut(t *testing.T) {
	call := searchCall{region: "us-east-1", types: []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge"}, days: 1}
	offs := func(n int) []model.Offering { return make([]model.Offering, n) }
	if got := possiblyCut(call, 5, map[string][]model.Offering{"p5.48xlarge": offs(5)}); got != nil {
		t.Fatalf("under the cap: %v", got)
	}
	got := possiblyCut(call, 6, map[string][]model.Offering{"p5.48xlarge": offs(6)})
	if len(got) != 2 || got[0] != "p5en.48xlarge" || got[1] != "p4d.24xlarge" {
		t.Fatalf("six of p5: %v, want p5en and p4d asked again", got)
	}
	got = possiblyCut(call, 6, map[string][]model.Offering{"p5.48xlarge": offs(3), "p5en.48xlarge": offs(3)})
	if len(got) != 3 {
		t.Fatalf("three and three: %v, want all three asked again", got)
	}
	if got := possiblyCut(call, 9, map[string][]model.Offering{"p5.48xlarge": offs(6), "p5en.48xlarge": offs(3)}); got != nil {
		t.Fatalf("over the cap, six of p5 and three of p5en: %v, want nothing asked again", got)
	}
	one := searchCall{region: "us-east-1", types: []string{"p5.48xlarge"}, days: 1}
	if got := possiblyCut(one, 6, map[string][]model.Offering{"p5.48xlarge": offs(6)}); got != nil {
		t.Fatalf("a call of one type is asked again: %v", got)
	}
}

// searchCounted runs q against a fresh emulator and returns the offerings' ids, sorted,
// and the DescribeCapacityBlockOfferings calls made, with and without several types each.
func searchCounted(t *testing.T, q model.Query, oneTypePerCall, capAcrossTypes bool) (ids []string, calls, multi int) {
	t.Helper()
	ids, perRegion, multi := searchCountedPerRegion(t, q, oneTypePerCall, capAcrossTypes)
	for _, n := range perRegion {
		calls += n
	}
	return ids, calls, multi
}

// searchCountedPerRegion is searchCounted with the calls counted per region (the region
// the request was signed for).
func searchCountedPerRegion(t *testing.T, q model.Query, oneTypePerCall, capAcrossTypes bool) (ids []string, calls map[string]int, multi int) {
	t.Helper()
	sim := simtest.NewSim(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, CapAcrossTypes: capAcrossTypes})
	var mu sync.Mutex
	calls = map[string]int{}
	var m atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		if form.Get("Action") == opDescribeOfferings {
			// Credential=KEY/DATE/REGION/ec2/aws4_request
			scope := strings.Split(r.Header.Get("Authorization"), "/")
			mu.Lock()
			if len(scope) > 2 {
				calls[scope[2]]++
			}
			mu.Unlock()
			if form.Has("InstanceTypePreference.2.InstanceType") {
				m.Add(1)
			}
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, nil)
	c.oneTypePerCall = oneTypePerCall
	offs, st, _ := collect(t, c.Search(context.Background(), q))
	for r, s := range st {
		if s.State == model.RegionError {
			t.Fatalf("%s: %v", r, s.Err)
		}
	}
	for _, o := range offs {
		ids = append(ids, o.Region+"/"+o.InstanceType+"/"+o.ID)
	}
	slices.Sort(ids)
	mu.Lock()
	defer mu.Unlock()
	return ids, maps.Clone(calls), int(m.Load())
}

// Under both readings of AWS's cap (six across the types asked, or six per type), a search
// of several types per call finds every offering the per-type plan finds: where the cap is
// across types, an answer of six is asked again per type for the types it may have cut;
// where it is per type, an answer over six is whole and nothing is asked again.
func TestSearchOfSeveralTypesFindsWhatPerTypeFinds(t *testing.T) {
	for _, tc := range []struct {
		name         string
		count        int
		acrossTypes  bool
		askedAgain   bool // some answer must have been asked again type by type
		fewerCalls   bool // fewer calls than the per-type plan
		exactlyPlans bool // exactly the planned calls
	}{
		{"rich market, cap across types", 1, true, true, false, false},
		{"rich market, cap per type", 1, false, false, true, true},
		{"thin market, cap across types", 64, true, false, true, false},
		{"thin market, cap per type", 64, false, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := baseQuery()
			q.Regions = []string{"us-east-1", "us-west-2"}
			q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge", "p6-b200.48xlarge", "u-p6e-gb200x36"}
			q.Count = tc.count
			if tc.count > 4 {
				q.InstanceTypes = q.InstanceTypes[:4] // an UltraServer search takes at most 4
				q.End = q.Start.Add(3 * 24 * time.Hour)
			}
			q.Durations = model.DurationRange{MinDays: 1, MaxDays: 3}
			want, perType, _ := searchCounted(t, q, true, tc.acrossTypes)
			got, calls, multi := searchCounted(t, q, false, tc.acrossTypes)
			if len(want) == 0 {
				t.Fatal("the per-type plan found nothing")
			}
			if !slices.Equal(got, want) {
				t.Fatalf("several types per call found %d offerings:\n%v\nper type %d:\n%v", len(got), got, len(want), want)
			}
			_, planned, _ := planSearch(q, maxTypesPerCall)
			if multi == 0 || calls < len(planned) {
				t.Fatalf("%d calls (%d of several types), the plan has %d", calls, multi, len(planned))
			}
			t.Logf("%d offerings: %d calls (planned %d, %d of several types), per type %d", len(got), calls, len(planned), multi, perType)
			if tc.askedAgain && calls == len(planned) {
				t.Fatalf("no answer was asked again, yet the emulator's rich market fills six across types")
			}
			if tc.exactlyPlans && calls != len(planned) {
				t.Fatalf("%d calls, the plan's %d: an answer over six was asked again", calls, len(planned))
			}
			if tc.fewerCalls && calls >= perType {
				t.Fatalf("%d calls, the per-type plan's %d", calls, perType)
			}
		})
	}
}

// Many small searches, each within a full bucket, add up to a wait: CostOfAll counts their
// calls together, where their own costs would each say nothing.
func TestCostOfAllAddsTheSearchesUp(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	tab := apilimit.EC2()
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.RateLimits = &tab; cfg.Headroom = -1 })
	var qs []model.Query
	for range 12 {
		q := baseQuery()
		q.Regions = []string{"us-east-1"}
		if c.CostOf(q).Wait != 0 {
			t.Fatalf("one search of one call waits %s", c.CostOf(q).Wait)
		}
		qs = append(qs, q)
	}
	limit := tab.For(opDescribeOfferings, true)
	got, want := c.CostOfAll(qs), limit.Bound(12, 0)
	if got.Calls != 12 || got.Region != "us-east-1" || got.Wait != want || want == 0 {
		t.Fatalf("cost %+v, want 12 calls and %s in us-east-1", got, want)
	}
	if none := c.CostOfAll(nil); none.Calls != 0 || none.Wait != 0 {
		t.Fatalf("no search costs %+v", none)
	}
}

// fastLimits is EC2's table with the offerings' bucket refilled 33 times faster, so that
// a test sweep (14 calls a region) outruns its burst within two seconds. The burst is
// AWS's.
func fastLimits() apilimit.Table {
	t := apilimit.EC2()
	t.Actions["DescribeCapacityBlockOfferings"] = apilimit.Limit{Burst: 10, Rate: 5}
	return t
}

func newLimitedSim(t *testing.T, tab apilimit.Table) string {
	t.Helper()
	_, u := simtest.ServeWith(t, ec2sim.Options{Seed: 7, Start: simtest.Start, Speed: 1e-9, RateLimits: &ec2sim.RateLimits{EC2: tab}})
	return u
}

func throttledAttempts(t *testing.T, log string) int {
	n := 0
	for _, l := range parseCallLog(t, log) {
		if l["code"] == "RequestLimitExceeded" {
			n++
		}
	}
	return n
}

// A client that paces itself by the emulator's buckets is never refused; one that
// believes in a bigger bucket is, backs off, and still finds the same offerings.
func TestSearchPacedByTheRegionsBucketsIsNotThrottled(t *testing.T) {
	_, url := simtest.Serve(t, 7, ec2sim.Faults{})
	want, _, _ := collect(t, newTestClient(t, url, nil).Search(context.Background(), sweepQuery()))
	if len(want) == 0 {
		t.Fatal("no offerings without buckets")
	}

	limited := newLimitedSim(t, fastLimits())
	var paced bytes.Buffer
	// The headroom is what absorbs delays between the client's clock and the emulator's
	// (a request held up, then arriving with later ones): 2 tokens of the 10 are half a
	// second at this rate, enough for a loaded machine under the race detector; at AWS's
	// own rate the default 5% is 6⅔ s.
	c := newTestClient(t, limited, func(cfg *awsapi.Config) { cfg.CallLog, cfg.Headroom = awsapi.NewCallLog(&paced), 0.2 })
	got, final, _ := collect(t, c.Search(context.Background(), sweepQuery()))
	if !slices.Equal(offeringIDs(got), offeringIDs(want)) {
		t.Fatalf("paced: %d offerings, without buckets %d", len(got), len(want))
	}
	for r, st := range final {
		if st.State != model.RegionOK {
			t.Errorf("paced: %s ended %v", r, st)
		}
	}
	if n := throttledAttempts(t, paced.String()); n != 0 {
		t.Errorf("paced by the emulator's own buckets, %d attempts were throttled", n)
	}

	greedy := fastLimits()
	greedy.Actions["DescribeCapacityBlockOfferings"] = apilimit.Limit{Burst: 20, Rate: 10}
	var eager bytes.Buffer
	c2 := newTestClient(t, newLimitedSim(t, fastLimits()), func(cfg *awsapi.Config) {
		cfg.CallLog, cfg.RateLimits, cfg.Headroom = awsapi.NewCallLog(&eager), &greedy, -1
	})
	c2.oneTypePerCall = true // 14 calls a region, more than the emulator's burst of 10
	got2, final2, _ := collect(t, c2.Search(context.Background(), sweepQuery()))
	if n := throttledAttempts(t, eager.String()); n == 0 {
		t.Error("a client pacing by a bucket twice too big was never throttled")
	}
	if !slices.Equal(offeringIDs(got2), offeringIDs(want)) {
		t.Errorf("throttled and backing off: %d offerings, want %d", len(got2), len(want))
	}
	for r, st := range final2 {
		if st.State != model.RegionOK {
			t.Errorf("backing off: %s ended %v", r, st)
		}
	}
}

// scripted answers the DescribeCapacityBlockOfferings attempts of a test with the codes
// given, in order, then lets them through.
func scripted(rc *simtest.Recorder, codes ...string) {
	var mu sync.Mutex
	rc.Intercept = func(w http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		mu.Lock()
		defer mu.Unlock()
		if r.Action != "DescribeCapacityBlockOfferings" || len(codes) == 0 {
			return false
		}
		code := codes[0]
		codes = codes[1:]
		switch code {
		case "RequestLimitExceeded":
			simtest.WriteEC2Error(w, http.StatusServiceUnavailable, code, "Request limit exceeded.")
		default:
			simtest.WriteEC2Error(w, http.StatusInternalServerError, code, "We encountered an internal error. Please try again.")
		}
		return true
	}
}

// Throttles between failures do not count against the failures' tries.
func TestRetryBudgetCountsOnlyFailuresOtherThanThrottling(t *testing.T) {
	const thr, ie = "RequestLimitExceeded", "InternalError"
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	scripted(rc, thr, ie, thr, thr, ie, thr, thr)
	c := newTestClient(t, url, nil)
	if err := describeOnce(c, "us-east-1"); err != nil {
		t.Fatalf("2 failures among 5 throttles: %v", err)
	}
	if n := rc.Total(); n != 8 {
		t.Errorf("%d attempts, want the 7 refused and 1 served", n)
	}

	_, rc2, url2 := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	scripted(rc2, ie, thr, ie, thr, thr, ie)
	c2 := newTestClient(t, url2, nil)
	err := describeOnce(c2, "us-east-1")
	if ex := awsapi.ExplainError(err); err == nil || ex.Code != ie {
		t.Fatalf("a third failure: %v (%+v), want InternalError", err, ex)
	}
	if n := rc2.Total(); n != 6 {
		t.Errorf("%d attempts, want 6: the third failure ends the call", n)
	}

	// A region that has just answered is up: its failures get awsapi.AnsweredAttempts tries.
	_, rc3, url3 := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c3 := newTestClient(t, url3, nil)
	if err := describeOnce(c3, "us-east-1"); err != nil {
		t.Fatal(err)
	}
	scripted(rc3, ie, thr, ie, ie, ie, ie, thr, ie)
	if err := describeOnce(c3, "us-east-1"); err != nil {
		t.Fatalf("6 failures in a region that answered: %v", err)
	}
	scripted(rc3, ie, ie, ie, ie, ie, ie, ie, ie, ie)
	if err := describeOnce(c3, "us-east-1"); err == nil {
		t.Fatalf("%d failures in a row, and still tried", awsapi.AnsweredAttempts)
	}
	if n := rc3.Total(); n != 1+9+awsapi.AnsweredAttempts {
		t.Errorf("%d attempts, want %d", n, 1+9+awsapi.AnsweredAttempts)
	}
}

// Under heavy throttling and frequent errors, a region fails only when one of its calls
// fails three times; with throttling alone, none does.
func TestSearchThrottlingAloneFailsNoRegion(t *testing.T) {
	_, url := simtest.Serve(t, 7, ec2sim.Faults{Throttle: 0.5})
	c := newTestClient(t, url, nil)
	_, final, _ := collect(t, c.Search(context.Background(), sweepQuery()))
	for r, st := range final {
		if st.State != model.RegionOK {
			t.Errorf("%s ended %v under 50%% throttling", r, st)
		}
	}
}

// A 1d–26w sweep in a four-week window asks only for the durations that can fit; the
// ones left out find nothing when asked all the same.
func TestPlanDropsDurationsTheWindowCannotHold(t *testing.T) {
	q := baseQuery()
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 182}
	q.End = q.Start.Add(28 * 24 * time.Hour)
	q.Regions = []string{"us-east-1"}
	_, calls, _ := planSearch(q, maxTypesPerCall)
	var days []int
	for _, c := range calls {
		days = append(days, c.days)
	}
	want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 21, 28}
	if !slices.Equal(days, want) {
		t.Fatalf("planned %v, want %v", days, want)
	}
	_, c := servedClient(t)
	dropped := model.DurationRange{MinDays: 35, MaxDays: 182}
	for _, d := range dropped.Days() {
		out, err := c.api.EC2("us-east-1").DescribeCapacityBlockOfferings(context.Background(), &ec2.DescribeCapacityBlockOfferingsInput{
			InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(int32(d * 24)),
			StartDateRange: aws.Time(q.Start), EndDateRange: aws.Time(q.End),
		})
		if err != nil || len(out.CapacityBlockOfferings) != 0 {
			t.Errorf("%dd, left out of the plan: %v, %d offerings", d, err, len(out.CapacityBlockOfferings))
		}
	}

	short := baseQuery()
	short.End = short.Start.Add(24 * time.Hour) // 2d blocks asked in a day
	regions, none, why := planSearch(short, maxTypesPerCall)
	if len(none) != 0 || len(why) != len(regions) {
		t.Fatalf("%d calls for a 2d block in a one-day window; reasons %v", len(none), why)
	}
}
