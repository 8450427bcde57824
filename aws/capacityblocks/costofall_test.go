package capacityblocks

import (
	"testing"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

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
