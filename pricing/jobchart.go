package pricing

import (
	"fmt"
	"math"

	"github.com/gpublock/gpublock/model"
)

// JobChartTitle is the title of the pane that shows JobCostChart.
const JobChartTitle = "Cost of the job vs utilization"

// JobLine is one way of paying for a job, as its total against utilization u (0–1):
// Fixed + Variable × u. A reservation is all Fixed; on-demand is all Variable.
type JobLine struct {
	Glyph           rune
	Label           string
	Fixed, Variable model.Money
}

// JobCrossing is a utilization at which two lines cost the same.
type JobCrossing struct {
	Utilization Ratio
	Cost        model.Money
}

// JobCostChart draws each line's total for the job against utilization 0–100 %, with the
// crossings marked X and labelled with their utilization; then a legend and the reading.
// Size rules as CostChart.
func JobCostChart(lines []JobLine, crossings []JobCrossing, reading string, width, height int) string {
	if len(lines) == 0 {
		return tooSmallText("no option with a known cost to draw", width, height)
	}
	spec := plotSpec{x0: 0, x1: 100, xLabel: axisPercent, yLabel: axisMoney, xTicks: []float64{0, 100}, reading: reading}
	top := 0.0
	for _, l := range lines {
		fixed, variable := dollars(l.Fixed), dollars(l.Variable)
		top = math.Max(top, fixed+variable)
		spec.series = append(spec.series, series{glyph: l.Glyph, f: func(x float64) (float64, bool) { return fixed + variable*x/100, true }})
		spec.legend = append(spec.legend, fmt.Sprintf("%c %s", l.Glyph, l.Label))
	}
	spec.ymax = top * 1.08
	for _, c := range crossings {
		p := c.Utilization.Float64() * 100
		spec.markers = append(spec.markers, marker{x: p, y: dollars(c.Cost), glyph: glyphCross, label: c.Utilization.Percent()})
		spec.xTicks = append(spec.xTicks, p)
		if spec.tickLabels == nil {
			spec.tickLabels = map[float64]string{}
		}
		spec.tickLabels[p] = c.Utilization.Percent()
	}
	if len(crossings) > 0 {
		spec.legend = append(spec.legend, fmt.Sprintf("%c costs meet", glyphCross))
	}
	return render(spec, width, height)
}
