package advisor

import (
	"fmt"

	"github.com/gpublock/gpublock/pricing"
)

// glyphs of the options in the chart, one per kind, readable without colour.
var glyphs = map[Kind]rune{OnDemand: '*', CapacityBlock: '=', TrainingPlan: '#', SavingsPlan1y: '-', SavingsPlan3y: '~', Spot: 's'}

// Glyph is the option's mark in the chart.
func (k Kind) Glyph() rune { return glyphs[k] }

// Chart draws the leading options' cost for the job against utilization, with their
// crossings.
func (a Advice) Chart(width, height int) string {
	var lines []pricing.JobLine
	for _, o := range a.Leading(4) {
		label := o.Kind.Title() + " " + o.Total.Dollars()
		if !o.variable.IsZero() {
			label = fmt.Sprintf("%s %s at 100%%", o.Kind.Title(), o.variable.Add(o.fixed).Dollars())
		}
		lines = append(lines, pricing.JobLine{Glyph: o.Kind.Glyph(), Label: label, Fixed: o.fixed, Variable: o.variable})
	}
	var cs []pricing.JobCrossing
	reading := ""
	for _, c := range a.Crossings {
		cs = append(cs, pricing.JobCrossing{Utilization: c.Utilization, Cost: c.Cost})
		if reading != "" {
			reading += "; "
		}
		reading += fmt.Sprintf("%s and %s cost the same at %s utilization (%s)", c.A.Title(), c.B.Title(), c.Utilization.Percent(), c.Cost.Dollars())
	}
	if reading == "" && len(lines) > 1 {
		reading = "the leading options do not cross between 0 and 100% utilization"
	}
	return pricing.JobCostChart(lines, cs, reading, width, height)
}
