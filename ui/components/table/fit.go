// Package table is the program's one table, Model[R]: rows of any type read through a
// Schema (cells, order, filter text, id), kept in sort order as they arrive, filtered,
// marked, fitted to the width and drawn a frame at a time, with the keys and the mouse of
// every table. The offerings and the blocks tables are its columns and rows; the pieces
// (Fit, Cell, Move, Scroll, MouseHit) also serve the panes that scroll like a table.
package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/components/text"
)

// Column is what fitting needs of a column: its width in cells and how much it is wanted
// (narrow tables drop the columns of lowest Keep first).
type Column struct {
	Width int
	Keep  int
}

// Fit returns the indexes of the columns that fit width, one cell between columns, in their
// order. Columns are dropped by Keep, lowest first; any dropped column that fits again is put
// back, most wanted first.
func Fit(cols []Column, width int) []int {
	shown := make([]bool, len(cols))
	total := -1
	for i, c := range cols {
		shown[i] = true
		total += c.Width + 1
	}
	for total > width {
		drop, keep := -1, 1<<30
		for i, c := range cols {
			if shown[i] && c.Keep < keep {
				drop, keep = i, c.Keep
			}
		}
		if drop < 0 {
			break
		}
		shown[drop] = false
		total -= cols[drop].Width + 1
		if total <= 0 {
			break
		}
	}
	for {
		best := -1
		for i, c := range cols {
			if !shown[i] && total+c.Width+1 <= width && (best < 0 || c.Keep > cols[best].Keep) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		shown[best] = true
		total += cols[best].Width + 1
	}
	var out []int
	for i := range cols {
		if shown[i] {
			out = append(out, i)
		}
	}
	return out
}

// Cell pads or cuts s to exactly w cells, on the right or the left.
func Cell(s string, w int, right bool) string {
	n := text.Width(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	if right {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}

// FitWidths is Fit that keeps the core columns, those whose mins is above 0: when Fit drops
// one, the core columns are narrowed to their min (what their title and values need), dropped
// by Keep only if even that does not fit, widened again toward their Width most wanted first,
// and the other columns are put back at their Width where they fit. It returns the columns
// shown, in their order, and the width of each.
func FitWidths(cols []Column, mins []int, width int) (shown, widths []int) {
	shown = Fit(cols, width)
	if keepsCore(mins, shown) {
		widths = make([]int, len(shown))
		for i, c := range shown {
			widths[i] = cols[c].Width
		}
		return shown, widths
	}
	var core []Column
	var index []int
	for i, c := range cols {
		if mins[i] > 0 {
			core = append(core, Column{Width: min(c.Width, mins[i]), Keep: c.Keep})
			index = append(index, i)
		}
	}
	w := make([]int, len(cols)) // 0: not shown
	total := -1
	for _, i := range Fit(core, width) {
		w[index[i]] = core[i].Width
		total += core[i].Width + 1
	}
	for total < width {
		grow := -1
		for i, c := range cols {
			if w[i] > 0 && w[i] < c.Width && (grow < 0 || c.Keep > cols[grow].Keep) {
				grow = i
			}
		}
		if grow < 0 {
			break
		}
		d := min(cols[grow].Width-w[grow], width-total)
		w[grow] += d
		total += d
	}
	for {
		best := -1
		for i, c := range cols {
			if w[i] == 0 && mins[i] == 0 && total+c.Width+1 <= width && (best < 0 || c.Keep > cols[best].Keep) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		w[best] = cols[best].Width
		total += cols[best].Width + 1
	}
	shown, widths = nil, nil
	for i := range cols {
		if w[i] > 0 {
			shown = append(shown, i)
			widths = append(widths, w[i])
		}
	}
	return shown, widths
}

func keepsCore(mins []int, shown []int) bool {
	n := 0
	for _, c := range shown {
		if mins[c] > 0 {
			n++
		}
	}
	for _, m := range mins {
		if m > 0 {
			n--
		}
	}
	return n == 0
}
