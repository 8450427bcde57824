package pricing

import (
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// ReservationOnDemand is one unit's on-demand price an hour for a reservation of src: EC2's
// rate for a Capacity Block, SageMaker's for a training plan (a comparison is only honest
// against the same service), per UltraServer-hour for an UltraServer type, as the report
// counts its hours. ok is false when the catalog has no price for it.
func (c *Catalog) ReservationOnDemand(src model.Source, instanceType, region string) (model.Money, bool) {
	row, ok := c.OnDemandFor(src, instanceType, region)
	if !ok || !row.HasPrice() {
		return model.Money{}, false
	}
	return row.Hourly, true
}

// PriceReport fills each reservation's on-demand price from the catalog, for report.Build
// to set its used hours against.
func PriceReport(c *Catalog, in *report.Input) {
	for i := range in.Reservations {
		r := &in.Reservations[i]
		r.OnDemandHourly, r.OnDemandKnown = c.ReservationOnDemand(r.Source, r.InstanceType, r.Region)
	}
}
