package capacityblocks

import (
	"context"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// A per-family quota of 0 (CapacityBlockDescribeLimitExceeded) is no throttle: the call
// is made once, never retried or shown as throttled, and the region's failure names the
// quota and where to raise it.
func TestQuotaErrorIsNotRetriedAndNamesTheQuota(t *testing.T) {
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("quota=trn2", &f); err != nil {
		t.Fatal(err)
	}
	_, rec, url := simtest.NewRecordedSim(t, 7, f)
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.InstanceTypes, q.Regions = []string{"trn2.48xlarge", "p5.48xlarge"}, []string{"us-east-2"}
	_, final, evs := collect(t, c.Search(context.Background(), q))
	trn2 := rec.Count(func(r simtest.Recorded) bool {
		return r.Action == "DescribeCapacityBlockOfferings" && r.Form.Get("InstanceType") == "trn2.48xlarge"
	})
	if trn2 != 1 {
		t.Errorf("the trn2 search was sent %d times; a quota error must not be retried", trn2)
	}
	if p5 := rec.Count(func(r simtest.Recorded) bool { return r.Form.Get("InstanceType") == "p5.48xlarge" }); p5 != 1 {
		t.Errorf("the p5 search was sent %d times, want once", p5)
	}
	for _, ev := range evs {
		if ev.Status != nil && ev.Status.State == model.RegionThrottled {
			t.Errorf("the region was shown throttled: %+v", *ev.Status)
		}
	}
	st := final["us-east-2"]
	if st.State != model.RegionError || st.Err == nil {
		t.Fatalf("us-east-2: %+v; want the quota failure", st)
	}
	ex := awsapi.ExplainError(st.Err)
	if ex.Code != "CapacityBlockDescribeLimitExceeded" || ex.Retryable || awsapi.IsThrottle(st.Err) {
		t.Errorf("explanation %+v: want the quota code, not retryable, not a throttle", ex)
	}
	if !strings.Contains(st.Message, `"Concurrent TRN2 Capacity Blocks per account"`) || !strings.Contains(ex.Summary, "not a rate") {
		t.Errorf("the failure does not name the quota: %q", st.Message)
	}
	if !strings.Contains(ex.Hint, "Service Quotas console") || !strings.Contains(ex.Hint, "aws service-quotas request-service-quota-increase --service-code ec2") {
		t.Errorf("the hint does not say where to raise it: %q", ex.Hint)
	}
}

// Without the instance type, the explanation still says it is a quota, with the TRN2 name
// as the example.
func TestQuotaExplanationWithoutType(t *testing.T) {
	err := apiErrorFor(t, 400, "CapacityBlockDescribeLimitExceeded", "You've reached the limit for this account.")
	ex := awsapi.ExplainError(err)
	if ex.Retryable || !strings.Contains(ex.Summary, "per-family Capacity Blocks quota") || !strings.Contains(ex.Hint, "service-quotas") {
		t.Errorf("%+v", ex)
	}
}
