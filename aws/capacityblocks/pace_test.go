package capacityblocks

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
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
	sim, err := ec2sim.New(ec2sim.Options{Seed: 7, Start: simtest.Start, Speed: 1e-9, RateLimits: &ec2sim.RateLimits{EC2: tab}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	return srv.URL
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
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
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
