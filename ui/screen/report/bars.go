package report

import (
	"math"
	"strings"
)

// eighths are the partial cells of a bar, from one eighth to seven.
var eighths = []rune{'▏', '▎', '▍', '▌', '▋', '▊', '▉'}

// bar is share (0–1) of width cells in full blocks and an eighth-cell end, so that bars
// of close amounts still differ; a share above zero shows at least an eighth. It is
// exactly the cells it fills: the caller pads.
func bar(share float64, width int) string {
	if width <= 0 || !(share > 0) {
		return ""
	}
	e := int(math.Round(math.Min(1, share) * float64(width*8)))
	e = max(1, e)
	s := strings.Repeat("█", e/8)
	if e%8 > 0 {
		s += string(eighths[e%8-1])
	}
	return s
}

// Glyphs of the use bars, named in the legend: what was used, what stood idle, and a
// reservation whose use no one publishes, drawn apart so that it never reads as idle.
const (
	usedGlyph    = "█"
	idleGlyph    = "░"
	unknownGlyph = "┄"
)

// useBar is a reservation's use in width cells: used then idle, whole cells, so that the
// two parts always fill the bar.
func useBar(share float64, width int) (used, idle string) {
	if width <= 0 {
		return "", ""
	}
	n := int(math.Round(math.Max(0, math.Min(1, share)) * float64(width)))
	if share > 0 && n == 0 {
		n = 1 // some use shows
	}
	if share < 1 && n == width && width > 1 {
		n = width - 1 // some idle shows
	}
	return strings.Repeat(usedGlyph, n), strings.Repeat(idleGlyph, width-n)
}
