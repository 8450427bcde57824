package trainingplans

import (
	"testing"

	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// Plan searches run one after another add their calls up in the bucket they share: one
// call per region, type and length.
func TestCostOfAllPlanSearches(t *testing.T) {
	url, _ := limitedSim(t) // SearchTrainingPlanOfferings: limitedBucket
	c := New(newClient(t, url, nil).Base())
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Durations: model.DurationRange{MinDays: 2, MaxDays: 3},
		Start: simtest.Start, End: simtest.Start.Add(model.MaxLeadTime), Regions: []string{"us-east-1"}, Sources: []model.Source{model.SourceTrainingPlan}}
	qs := []model.Query{q, q, q, q, q, q, q, q} // 16 calls, more than the bucket holds at once
	calls, wait, region := c.CostOfAll(qs)
	l, ok := c.pacer.Limit("us-east-1", "SearchTrainingPlanOfferings") // the emulator's bucket, less the pacer's headroom
	if !ok || l.Burst <= 0 || l.Rate <= 0 {
		t.Fatalf("limit %+v (%v)", l, ok)
	}
	want := l.Bound(16, 0)
	if calls != 16 || region != "us-east-1" || wait != want || wait == 0 {
		t.Fatalf("%d calls, %s in %q; want 16 calls, %s (more than none) in us-east-1", calls, wait, region, want)
	}
	if calls, wait, _ := c.CostOfAll(nil); calls != 0 || wait != 0 {
		t.Fatalf("no search: %d calls, %s", calls, wait)
	}
}
