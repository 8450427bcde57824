package pricing

import "github.com/gpublock/gpublock/model"

// BreakEven is what a confirmation says of the comparison (model's facts cannot import
// pricing, so they take this).
func (c Comparison) BreakEven() model.BreakEven {
	return model.BreakEven{NoOnDemand: c.NoOnDemand, Reason: c.NoOnDemandReason, Percent: c.BreakEvenPercent(), CanWin: c.CanWin,
		Reading: c.Reading(), OnDemandHourly: c.OnDemandHourly, Source: c.Source, AsOf: c.AsOf}
}
