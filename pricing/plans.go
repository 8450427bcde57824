package pricing

import (
	"fmt"

	"github.com/gpublock/gpublock/model"
)

// NoSageMakerPrice is the reason a training plan is not compared with on-demand: the
// catalog holds EC2's on-demand rates only, and SageMaker's ml.* rates differ from them,
// so EC2's would give a wrong break-even.
func NoSageMakerPrice(instanceType, region string) string {
	return fmt.Sprintf("no SageMaker on-demand price for %s in %s: the catalog has EC2's rates only, which are not SageMaker's",
		model.SageMakerType(instanceType), region)
}

// comparePlan prices a training plan offering: its rates from its own instance-hours (the
// sum over its parts), and no on-demand comparison until the catalog has SageMaker rates.
func comparePlan(o model.Offering) Comparison {
	c := Comparison{Offering: o, Unit: "instance", Units: int64(o.Count), Fee: o.Fee}
	c.BlockMinutes = o.Minutes()
	// Where a plan's instances stop before its end is not documented; no minutes are
	// taken off, which makes no rate look better than it is (the fee is spread over all).
	c.UsableMinutes = c.BlockMinutes
	c.EffectiveHourly = o.HourlyRate()
	c.AcceleratorHourly = o.AcceleratorHourlyRate()
	c.UsableHourly = c.EffectiveHourly
	c.NoOnDemand = true
	c.NoOnDemandReason = NoSageMakerPrice(o.InstanceType, o.Region)
	return c
}
