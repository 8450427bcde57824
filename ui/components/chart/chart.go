// Package chart draws the pricing charts of offerings in a pane: for one offering its
// cumulative cost and its cost per used hour against on-demand, each with the one-line
// reading under it; for several, their lines on one chart. The charts come from package
// pricing as plain text whose glyphs are named in a legend, so they read without colour;
// with colour the theme tints the block, on-demand and break-even glyphs.
package chart

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// Sizes under which a chart is not worth drawing beside or above another.
const (
	minChartW = 44 // a chart and its legend, side by side
	minChartH = 9  // a title, a plot of three rows, its axis, labels, a legend and the reading
)

// View draws one offering's charts in width×height cells: side by side when the pane is
// wide, stacked when it is tall, else the cost chart alone.
func View(th theme.Theme, c pricing.Comparison, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if th.Accessible {
		return fit(strings.Join(text.Wrap(Describe(c), width), "\n"), width, height)
	}
	cost := func(w, h int) string { return titled(th, pricing.CostChartTitle, pricing.CostChart(c, w, h-1), w) }
	util := func(w, h int) string {
		return titled(th, pricing.UtilizationChartTitle, pricing.UtilizationChart(c, w, h-1), w)
	}
	switch {
	case height < 2:
		return fit(th.Value.Render(c.Reading()), width, height)
	case width >= 2*minChartW+2 && height >= minChartH:
		lw := (width - 2) / 2
		return fit(sideBySide(cost(lw, height), util(width-2-lw, height), lw, height), width, height)
	case height >= 2*minChartH+1:
		top := height / 2
		return fit(cost(width, top)+"\n\n"+util(width, height-top-1), width, height)
	}
	return fit(cost(width, height), width, height)
}

// CompareView draws the marked offerings on one chart, with its title.
func CompareView(th theme.Theme, cs []pricing.Comparison, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if th.Accessible {
		var lines []string
		for i, c := range cs {
			lines = append(lines, text.Wrap(fmt.Sprintf("%c: %s %s, %s", 'A'+i, c.Offering.InstanceType, c.Offering.AvailabilityZone, Describe(c)), width)...)
		}
		return fit(strings.Join(lines, "\n"), width, height)
	}
	if height < 2 {
		return fit(pricing.CompareChart(cs, width, height), width, height)
	}
	// Letters name the offerings here, so no glyph is tinted.
	return fit(th.Focused.Render(ansi.Truncate(pricing.CompareChartTitle, width, "…"))+"\n"+pricing.CompareChart(cs, width, height-1), width, height)
}

// Describe says the break-even chart in a sentence, for the accessible mode: the fee, the
// same hours on-demand, and where the lines cross.
func Describe(c pricing.Comparison) string {
	s := fmt.Sprintf("Break-even chart: the block's upfront fee is %s", c.Fee.Dollars())
	if !c.NoOnDemand && !c.OnDemandUsableCost.IsZero() {
		s += fmt.Sprintf("; its usable hours on-demand would cost %s", c.OnDemandUsableCost.Dollars())
		if c.BreakEvenUtilization.Valid() && c.CanWin {
			s += fmt.Sprintf("; it breaks even at %d%% use", c.BreakEvenPercent())
		}
	}
	return s + "; " + c.Reading() + "."
}

func titled(th theme.Theme, title, chart string, width int) string {
	return th.Focused.Render(ansi.Truncate(title, width, "…")) + "\n" + tint(th, chart)
}

// sideBySide puts two blocks of lines next to each other, the left padded to lw cells.
func sideBySide(left, right string, lw, height int) string {
	l, r := strings.Split(left, "\n"), strings.Split(right, "\n")
	out := make([]string, 0, height)
	for i := 0; i < max(len(l), len(r)) && i < height; i++ {
		a, b := "", ""
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			b = r[i]
		}
		out = append(out, a+strings.Repeat(" ", max(0, lw-ansi.StringWidth(a)))+"  "+b)
	}
	return strings.Join(out, "\n")
}

// fit cuts to at most height lines of at most width cells; the charts fit already, this
// keeps a title or a joined line from ever spilling out of the pane.
func fit(s string, width, height int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return strings.Join(lines, "\n")
}

// tint colours the glyphs of the block (=), on-demand (*) and the break-even point (X); the
// same glyphs in the legend are coloured too, which ties it to the lines. Without colour the
// text is returned as it is.
func tint(th theme.Theme, s string) string {
	if !th.Color {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '=':
			b.WriteString(th.OK.Render("="))
		case '*':
			b.WriteString(th.Warning.Render("*"))
		case 'X':
			b.WriteString(th.Accent.Render("X"))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
