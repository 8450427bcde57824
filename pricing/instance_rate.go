package pricing

import "github.com/gpublock/gpublock/model"

// InstanceOnDemandHourly is the on-demand rate per instance-hour, beside
// model.Offering.InstanceHourlyRate: for an UltraServer (priced per UltraServer-hour) its
// rate spread over the member instances, so that the two columns read together.
func (c Comparison) InstanceOnDemandHourly(o model.Offering) model.Money {
	if t, ok := model.LookupType(o.InstanceType); ok && t.UltraServer && t.Instances > 0 {
		return c.OnDemandHourly.MulRat(1, int64(t.Instances))
	}
	return c.OnDemandHourly
}
