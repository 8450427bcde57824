package advisor

// Figures the catalog does not hold because they are not per-type prices: the published
// ceilings of Savings Plans discounts and a dated Spot snapshot. Each is a discount against
// on-demand in whole percent, with its source, exactly as shared/reference/ec2-capacity-blocks.md
// §8 (gathered 2026-11-29) gives it. Nothing here is derived from another type or region.

// Range is a discount against on-demand, from Low to High percent.
type Range struct {
	LowPercent, HighPercent int64
	Source, Date, Note      string
}

// savingsPlanCeilings are the deepest published Savings Plans discounts. AWS publishes no
// GPU-specific rate in gpublock's sources, so only "up to" is known.
var savingsPlanCeilings = []struct {
	Plan string
	Range
}{
	{"Compute Savings Plans", Range{0, 66, "aws.amazon.com/savingsplans/faqs", "2026-11-29", "\"up to 66%\"; GPU-specific rates unconfirmed"}},
	{"EC2 Instance Savings Plans", Range{0, 72, "aws.amazon.com/savingsplans/faqs", "2026-11-29", "\"up to 72%\"; GPU-specific rates unconfirmed"}},
}

// deepestSavingsPlan is the plan with the deepest published ceiling.
func deepestSavingsPlan() (string, Range) {
	best := savingsPlanCeilings[0]
	for _, p := range savingsPlanCeilings[1:] {
		if p.HighPercent > best.HighPercent {
			best = p
		}
	}
	return best.Plan, best.Range
}

// spotSnapshot is the one Spot snapshot in the references. A Spot price is a price, not
// availability, and comes with a 2-minute interruption notice.
var spotSnapshot = map[[2]string]Range{
	// "p5 about 66–69% under on-demand in 4 AZs, at on-demand in 2": anywhere from 0% to 69%.
	{"p5.48xlarge", "us-east-1"}:      {0, 69, "skypilot-catalog v9 SpotPrice", "2026-11-29", "66–69% under in 4 AZs, at on-demand in 2"},
	{"p6-b200.48xlarge", "us-east-1"}: {79, 79, "skypilot-catalog v9 SpotPrice", "2026-11-29", "about 79% under"},
}

// SpotDiscount returns the known Spot discount range for a type in a region.
func SpotDiscount(instanceType, region string) (Range, bool) {
	r, ok := spotSnapshot[[2]string{instanceType, region}]
	return r, ok
}
