package pricing

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// Titles for the panes that show the charts (the charts themselves carry none, so all of
// the given height goes to the chart).
const (
	CostChartTitle        = "Cumulative cost vs hours used"
	UtilizationChartTitle = "Cost per used hour vs utilization"
	CompareChartTitle     = "Cost per used accelerator-hour vs utilization"
)

// CostChart draws the cumulative cost of the block against hours used: the block flat (it is
// paid up front), on-demand rising, the crossing marked X and labelled, and Savings Plans
// lines where their rates are known; then a legend and the one-line reading. The result has
// at most height lines of at most width runes; too small a size gives a short notice.
func CostChart(c Comparison, width, height int) string {
	hours := float64(c.BlockMinutes) / 60
	fee := dollars(c.Fee)
	units := float64(c.Units)
	od := dollars(c.OnDemandHourly) * units
	spec := plotSpec{x0: 0, x1: hours, xLabel: axisHours, yLabel: axisMoney, reading: c.Reading()}
	ymax := fee
	if !c.NoOnDemand {
		ymax = math.Max(ymax, od*hours)
	}
	for i, p := range c.SavingsPlans {
		rate := dollars(p.Hourly) * units
		ymax = math.Max(ymax, rate*hours)
		spec.series = append(spec.series, series{glyph: spGlyph(p, i), f: func(x float64) (float64, bool) { return rate * x, true }})
	}
	spec.ymax = ymax * 1.08
	spec.series = append(spec.series, series{glyph: glyphBlock, f: func(float64) (float64, bool) { return fee, true }})
	spec.legend = append(spec.legend, fmt.Sprintf("%c block %s upfront", glyphBlock, c.Fee.Dollars()))
	spec.xTicks = []float64{0, hours}
	if !c.NoOnDemand {
		spec.series = append(spec.series, series{glyph: glyphOnDemand, f: func(x float64) (float64, bool) { return od * x, true }})
		spec.legend = append(spec.legend, fmt.Sprintf("%c on-demand %s/h%s", glyphOnDemand, c.OnDemandHourly.Rate(), times(c)))
		if h := c.BreakEvenHours.Float64(); c.BreakEvenHours.Valid() && h <= hours {
			label := "break-even " + c.BreakEvenHoursText() + "h"
			spec.markers = append(spec.markers, marker{x: h, y: fee, glyph: glyphCross, label: label})
			spec.xTicks = []float64{0, hours, h}
			spec.legend = append(spec.legend, fmt.Sprintf("%c break-even", glyphCross))
		}
	}
	spec.legend = append(spec.legend, savingsPlanLegend(c)...)
	return render(spec, width, height)
}

// UtilizationChart draws what each used hour costs against the share of the block used,
// 0–100 %: the block falling as use grows, on-demand flat, the break-even point marked X, and
// Savings Plans lines where known; then a legend and the reading. Size rules as CostChart.
func UtilizationChart(c Comparison, width, height int) string {
	spec := plotSpec{x0: 0, x1: 100, xLabel: axisPercent, yLabel: axisMoney, reading: c.Reading()}
	eff := dollars(c.UsableHourly)
	top := eff
	if !c.NoOnDemand {
		top = math.Max(top, dollars(c.OnDemandHourly))
	}
	for i, p := range c.SavingsPlans {
		rate := dollars(p.Hourly)
		top = math.Max(top, rate)
		spec.series = append(spec.series, series{glyph: spGlyph(p, i), f: func(float64) (float64, bool) { return rate, true }})
	}
	spec.ymax = 3 * top
	spec.xTicks = []float64{0, 100}
	spec.series = append(spec.series, series{glyph: glyphBlock, f: func(x float64) (float64, bool) {
		return c.BlockCostPerUsedHour(x / 100)
	}})
	spec.legend = append(spec.legend, fmt.Sprintf("%c block, per used %s-hour (%s at 100%% of the usable hours)", glyphBlock, c.Unit, c.UsableHourly.Rate()))
	if !c.NoOnDemand {
		rate := dollars(c.OnDemandHourly)
		spec.series = append(spec.series, series{glyph: glyphOnDemand, f: func(float64) (float64, bool) { return rate, true }})
		spec.legend = append(spec.legend, fmt.Sprintf("%c on-demand %s/h", glyphOnDemand, c.OnDemandHourly.Rate()))
		if u := c.BreakEvenUtilization.Float64() * 100; c.BreakEvenUtilization.Valid() && u <= 100 {
			label := "break-even " + c.BreakEvenPercentText()
			spec.markers = append(spec.markers, marker{x: u, y: rate, glyph: glyphCross, label: label})
			spec.xTicks = []float64{0, 100, u}
			spec.legend = append(spec.legend, fmt.Sprintf("%c break-even", glyphCross))
		}
	}
	spec.legend = append(spec.legend, savingsPlanLegend(c)...)
	return render(spec, width, height)
}

// CompareChart draws several offerings on one chart: what a used accelerator-hour costs
// against the share of each block used, offering A, B, C… in capitals and each one's
// on-demand rate in the same letter in lower case, with a legend and a reading naming the
// best, on-demand lines under the curves. Per accelerator-hour, so that different types and sizes compare. Size rules as CostChart.
func CompareChart(cs []Comparison, width, height int) string {
	if len(cs) == 0 {
		return tooSmallText("no offerings marked to compare", width, height)
	}
	if len(cs) > 26 {
		cs = cs[:26]
	}
	spec := plotSpec{x0: 0, x1: 100, xLabel: axisPercent, yLabel: axisMoney, xTicks: []float64{0, 50, 100}}
	top := 0.0
	bestRate, bestUse := -1, -1
	for i, c := range cs {
		acc := float64(c.Offering.Accelerators())
		if acc == 0 || c.UsableMinutes <= 0 {
			continue
		}
		letter := rune('A' + i)
		// x is the share of the usable hours, as the break-even is
		fee, hours := dollars(c.Fee), float64(c.UsableMinutes)/60
		spec.series = append(spec.series, series{glyph: letter, f: func(x float64) (float64, bool) {
			if x <= 0 {
				return 0, false
			}
			return fee / (acc * x / 100 * hours), true
		}})
		top = math.Max(top, fee/(acc*hours))
		// The zone and start tell apart offerings that differ only there, as search results do.
		where := c.Offering.AvailabilityZone
		if where == "" {
			where = c.Offering.Region
		}
		entry := fmt.Sprintf("%c %s %s %s %sh×%d: %s", letter, c.Offering.InstanceType, where, c.Offering.Start.UTC().Format(model.LayoutDay),
			formatHours(big.NewRat(c.BlockMinutes, 60)), c.Units, c.AcceleratorHourly.Rate())
		if bestRate < 0 || c.AcceleratorHourly.Cmp(cs[bestRate].AcceleratorHourly) < 0 {
			bestRate = i
		}
		if c.NoOnDemand {
			spec.legend = append(spec.legend, entry+", no on-demand")
			continue
		}
		odAcc := dollars(c.OnDemandHourly) * float64(c.Units) / acc
		top = math.Max(top, odAcc)
		// on-demand lines go under every block curve
		spec.series = append([]series{{glyph: letter + ('a' - 'A'), f: func(float64) (float64, bool) { return odAcc, true }}}, spec.series...)
		spec.legend = append(spec.legend, fmt.Sprintf("%s vs %c %s, b/e %s", entry, letter+('a'-'A'),
			axisRate(odAcc), c.BreakEvenPercentText()))
		if bestUse < 0 || c.BreakEvenUtilization.Cmp(cs[bestUse].BreakEvenUtilization) < 0 {
			bestUse = i
		}
	}
	if bestRate < 0 {
		return tooSmallText("nothing to compare: the offerings have no accelerators or no length", width, height)
	}
	spec.ymax = 3 * top
	spec.reading = fmt.Sprintf("cheapest per accelerator-hour: %c (%s)", rune('A'+bestRate), cs[bestRate].AcceleratorHourly.Rate())
	if bestUse >= 0 {
		if b := cs[bestUse]; b.CanWin {
			spec.reading += fmt.Sprintf("; least use to beat on-demand: %c (%s of its usable hours)", rune('A'+bestUse), b.BreakEvenPercentText())
		} else if slices.ContainsFunc(cs, func(c Comparison) bool { return c.NoOnDemand }) {
			spec.reading += "; none of those with an on-demand price beats it within its usable hours"
		} else {
			spec.reading += "; none beats on-demand within its usable hours"
		}
	}
	return render(spec, width, height)
}

func tooSmallText(s string, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := wrap(s, width, height)
	out := ""
	for i, l := range lines {
		if i > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}

func times(c Comparison) string {
	if c.Units == 1 {
		return ""
	}
	return fmt.Sprintf(" × %d", c.Units)
}

func spGlyph(p Row, i int) rune {
	if p.Kind == KindSavingsPlan3y {
		return glyphSP3y
	}
	if p.Kind == KindSavingsPlan1y {
		return glyphSP1y
	}
	return []rune{glyphSP1y, glyphSP3y}[i%2]
}

func savingsPlanLegend(c Comparison) []string {
	var out []string
	for i, p := range c.SavingsPlans {
		term := "1y"
		if p.Kind == KindSavingsPlan3y {
			term = "3y"
		}
		out = append(out, fmt.Sprintf("%c Savings Plan %s %s/h (%s, %s)", spGlyph(p, i), term, p.Hourly.Rate(), p.Source, p.Date))
	}
	return out
}

// axisHours labels the hours axis to the tenth, rounded up as BreakEvenHoursText rounds
// (the break-even's tick and its marker say the same hours); the slack absorbs the float.
func axisHours(h float64) string {
	v := math.Ceil(h*10-1e-6) / 10
	if v <= 0 {
		v = 0 // and never "-0h"
	}
	return strconv.FormatFloat(v, 'f', -1, 64) + "h"
}

func axisPercent(p float64) string { return fmt.Sprintf("%.0f%%", math.Max(0, math.Ceil(p-1e-9))) }

func axisRate(v float64) string { return fmt.Sprintf("$%.3f", v) }

// BreakEvenBar is a small inline bar of the break-even utilization for a table cell, exactly
// width runes: filled to the rounded-up percent ("█████░░░"), ending in "!" when the block
// never wins even at 100 %, and blank when there is no on-demand price to compare with.
func BreakEvenBar(c Comparison, width int) string {
	if width <= 0 {
		return ""
	}
	if !c.BreakEvenUtilization.Valid() {
		return strings.Repeat(" ", width)
	}
	if c.BreakEvenUtilization.CmpInt(1) > 0 {
		return strings.Repeat("█", width-1) + "!"
	}
	filled := int((c.BreakEvenPercent()*int64(width) + 99) / 100)
	return strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
}
