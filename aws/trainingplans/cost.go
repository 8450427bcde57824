package trainingplans

import (
	"maps"
	"slices"
	"time"

	"github.com/gpublock/gpublock/model"
)

// CostOfAll is what the plan searches qs, run one after another from now, will cost: their
// calls (one per region, type and length) added up per region, through each region's
// SageMaker bucket as it is now; wait is the busiest region's, region names it (""
// when no call is paced).
func (c *Client) CostOfAll(qs []model.Query) (calls int, wait time.Duration, region string) {
	const op = "SearchTrainingPlanOfferings"
	per := map[string]int{}
	for _, q := range qs {
		regions := slices.Compact(slices.Sorted(slices.Values(q.Regions)))
		if len(regions) == 0 {
			regions = []string{c.base.Region()}
		}
		n := len(q.InstanceTypes) * len(QueryFrom(q).Days)
		for _, r := range regions {
			per[r] += n
			calls += n
		}
	}
	read := c.pacer.Bucket(op)
	for _, r := range slices.Sorted(maps.Keys(per)) {
		l, ok := c.pacer.Limit(r, op)
		if !ok {
			continue
		}
		if tokens, _, ok := read(r); ok {
			l.Burst = tokens
		}
		if w := l.Bound(per[r], 0); w > wait || region == "" {
			wait, region = w, r
		}
	}
	return calls, wait, region
}
