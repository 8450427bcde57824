package detail

import (
	"fmt"

	"github.com/gpublock/gpublock/pricing"
)

// pricingFields writes the on-demand line (the rate, its source and date, and what the block
// costs against it) and the break-even reading; without an on-demand price, the first says
// why in a sentence and the second is empty, so that no number is guessed.
func pricingFields(c pricing.Comparison) (onDemand, breakEven string) {
	switch {
	case c.NoOnDemand && c.OnDemand.Status == pricing.StatusNone:
		return "— " + c.NoOnDemandReason, ""
	case c.NoOnDemand:
		// One line at 80 columns: the detail is long enough for a short pane as it is.
		return "— none known in " + c.Offering.Region + " · try gpublock prices --refresh", ""
	}
	per := "/h"
	if c.Unit != "instance" {
		per = "/" + c.Unit + "-h"
	}
	onDemand = fmt.Sprintf("%s%s (%s, %s)", c.OnDemandHourly.Rate(), per, c.Source, c.AsOf)
	if c.BreakEvenUtilization.Valid() {
		onDemand += fmt.Sprintf(" · %s for the usable hours: %s", c.OnDemandUsableCost.Dollars(), vsWords(c))
	}
	return onDemand, c.Reading() + " · v shows the charts"
}

// vsWords says how the fee compares with the usable hours on-demand (the break-even's
// definition: instances stop 30 minutes before the end).
func vsWords(c pricing.Comparison) string {
	s := c.SavingsPercent.Float64()
	switch {
	case s >= 0.5:
		return fmt.Sprintf("the block costs %.0f%% less", s)
	case s <= -0.5:
		return fmt.Sprintf("the block costs %.0f%% more", -s)
	}
	return "the block costs the same"
}
