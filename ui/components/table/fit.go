// Package table holds what the program's tables share: fitting columns to a width and
// padding cells, so that the offerings and the blocks tables drop columns and cut values the
// same way.
package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
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
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	if right {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}
