package pricing

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// The charts are drawn by hand on a grid of single-width runes, so that they fit their pane
// exactly and stay readable without colour: every series has its own glyph, named in the
// legend. The UI may colour glyphs; nothing here emits ANSI.

const (
	glyphBlock    = '='
	glyphOnDemand = '*'
	glyphCross    = 'X'
	glyphSP1y     = '-'
	glyphSP3y     = '~'
)

type series struct {
	glyph rune
	f     func(x float64) (y float64, ok bool)
}

type marker struct {
	x, y  float64
	glyph rune
	label string
}

type plotSpec struct {
	x0, x1, ymax float64
	xLabel       func(float64) string
	yLabel       func(float64) string
	xTicks       []float64
	tickLabels   map[float64]string // a tick's own label, where xLabel's rounding would differ from the text's
	series       []series
	markers      []marker
	legend       []string // entries, packed into as few lines as fit
	reading      string   // wrapped under the legend, at most two lines
}

const (
	minPlotWidth  = 10
	minPlotHeight = 3
)

// render draws spec into exactly at most height lines of at most width runes.
func render(spec plotSpec, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	legend := pack(spec.legend, width)
	reading := wrap(spec.reading, width, 2)
	yLabels := []float64{spec.ymax, spec.ymax / 2, 0}
	lw := 0
	for _, v := range yLabels {
		lw = max(lw, utf8.RuneCountInString(spec.yLabel(v)))
	}
	left := lw + 1
	plotW := width - left
	plotH := height - 2 - len(legend) - len(reading)
	// give up the reading, then the legend, before giving up the chart
	for plotH < minPlotHeight && len(reading) > 0 {
		reading = reading[:len(reading)-1]
		plotH++
	}
	for plotH < minPlotHeight && len(legend) > 0 {
		legend = legend[:len(legend)-1]
		plotH++
	}
	if plotW < minPlotWidth || plotH < minPlotHeight || spec.x1 <= spec.x0 || !(spec.ymax > 0) {
		return tooSmall(width, height)
	}
	cv := newCanvas(width, plotH+2)
	col := func(x float64) int {
		return left + int(math.Round((x-spec.x0)/(spec.x1-spec.x0)*float64(plotW-1)))
	}
	row := func(y float64) int {
		return plotH - 1 - int(math.Round(y/spec.ymax*float64(plotH-1)))
	}
	// y axis with three labelled ticks
	for r := 0; r < plotH; r++ {
		cv.set(lw, r, '│')
	}
	for _, v := range yLabels {
		r := row(v)
		cv.set(lw, r, '┤')
		s := spec.yLabel(v)
		cv.text(lw-utf8.RuneCountInString(s), r, s)
	}
	// x axis and its labels; later labels give way to earlier ones that they would overlap
	cv.set(lw, plotH, '└')
	for c := left; c < width; c++ {
		cv.set(c, plotH, '─')
	}
	taken := make([]bool, width+1)
	for i, x := range spec.xTicks {
		c := col(x)
		s, own := spec.tickLabels[x]
		if !own {
			s = spec.xLabel(x)
		}
		n := utf8.RuneCountInString(s)
		start := c - n/2
		if i == 0 {
			start = c
		}
		start = min(max(start, left), width-n)
		if start < 0 || overlaps(taken, start-1, start+n+1) {
			continue
		}
		cv.set(c, plotH, '┬')
		cv.text(start, plotH+1, s)
		for j := max(start, 0); j < min(start+n, width); j++ {
			taken[j] = true
		}
	}
	for _, s := range spec.series {
		prev := -1
		for c := left; c < width; c++ {
			x := spec.x0 + float64(c-left)/float64(plotW-1)*(spec.x1-spec.x0)
			y, ok := s.f(x)
			if !ok || math.IsNaN(y) || y < 0 || y > spec.ymax*1.0001 {
				prev = -1
				continue
			}
			r := row(y)
			cv.set(c, r, s.glyph)
			if prev >= 0 { // join steep steps so the line reads as one
				for rr := min(prev, r) + 1; rr < max(prev, r); rr++ {
					cv.set(c, rr, s.glyph)
				}
			}
			prev = r
		}
	}
	for _, m := range spec.markers {
		if m.x < spec.x0 || m.x > spec.x1 || m.y < 0 || m.y > spec.ymax*1.0001 {
			continue
		}
		c, r := col(m.x), row(m.y)
		cv.set(c, r, m.glyph)
		if m.label == "" {
			continue
		}
		lr := r - 1 // the label goes above the marker, or below it at the top
		if lr < 0 {
			lr = r + 1
		}
		n := utf8.RuneCountInString(m.label)
		start := c + 2
		if start+n > width {
			start = c - 1 - n
		}
		if start >= left && lr < plotH {
			cv.text(start, lr, m.label)
		}
	}
	out := cv.lines()
	out = append(out, legend...)
	out = append(out, reading...)
	return strings.Join(out, "\n")
}

func overlaps(taken []bool, from, to int) bool {
	for i := max(from, 0); i < min(to, len(taken)); i++ {
		if taken[i] {
			return true
		}
	}
	return false
}

// tooSmall is what a chart says when its pane cannot hold it.
func tooSmall(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	return strings.Join(wrap("chart needs more room", width, height), "\n")
}

// pack joins legend entries with two spaces into as few lines as fit the width; an entry
// longer than the width is cut.
func pack(entries []string, width int) []string {
	var lines []string
	cur := ""
	for _, e := range entries {
		e = cut(e, width)
		switch {
		case cur == "":
			cur = e
		case utf8.RuneCountInString(cur)+2+utf8.RuneCountInString(e) <= width:
			cur += "  " + e
		default:
			lines = append(lines, cur)
			cur = e
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// wrap breaks text at spaces into at most maxLines lines of at most width runes; what does
// not fit ends in "…".
func wrap(text string, width, maxLines int) []string {
	if text == "" || width <= 0 || maxLines <= 0 {
		return nil
	}
	var lines []string
	cur := ""
	words := strings.Fields(text)
	for i, w := range words {
		cand := w
		if cur != "" {
			cand = cur + " " + w
		}
		if utf8.RuneCountInString(cand) <= width {
			cur = cand
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		cur = w
		if len(lines) == maxLines {
			lines[maxLines-1] += " " + strings.Join(words[i:], " ")
			cur = ""
			break
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		rest := strings.Join(lines[maxLines-1:], " ")
		lines = append(lines[:maxLines-1], cut(rest, width))
	}
	for i := range lines {
		lines[i] = cut(lines[i], width)
	}
	return lines
}

// cut shortens s to width runes, ending in "…" when it had to cut.
func cut(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}

type canvas struct {
	w     int
	cells [][]rune
}

func newCanvas(w, h int) *canvas {
	cv := &canvas{w: w, cells: make([][]rune, h)}
	for i := range cv.cells {
		cv.cells[i] = []rune(strings.Repeat(" ", w))
	}
	return cv
}

func (cv *canvas) set(x, y int, r rune) {
	if y >= 0 && y < len(cv.cells) && x >= 0 && x < cv.w {
		cv.cells[y][x] = r
	}
}

func (cv *canvas) text(x, y int, s string) {
	for _, r := range s {
		cv.set(x, y, r)
		x++
	}
}

func (cv *canvas) lines() []string {
	out := make([]string, len(cv.cells))
	for i, l := range cv.cells {
		out[i] = strings.TrimRight(string(l), " ")
	}
	return out
}

// axisMoney labels a y-axis value compactly: "$5.97", "$55", "$2.6k", "$1.2M".
func axisMoney(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 10:
		return fmt.Sprintf("$%.2f", v)
	case v < 1000:
		return fmt.Sprintf("$%.0f", v)
	case v < 1e6:
		return fmt.Sprintf("$%.1fk", v/1e3)
	}
	return fmt.Sprintf("$%.1fM", v/1e6)
}
