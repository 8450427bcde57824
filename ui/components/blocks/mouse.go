package blocks

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/table"
)

// Mouse handles a wheel or a click at x, y in the table drawn by View(width, height), as
// the offerings table does: the wheel moves the cursor, a click selects a row, a click on a
// column's title sorts by it. It reports whether the message did anything.
func (m Model) Mouse(msg tea.MouseMsg, x, y, width, height int) (Model, bool) {
	header := 0
	if m.filter.Value() != "" {
		header = 1
	}
	h := table.MouseHit(msg, x, y, header, height, m.cursor, m.offset, len(m.view), m.filtering)
	switch h.Kind {
	case table.HitWheel:
		m.cursor += h.Delta
	case table.HitRow:
		m.cursor = h.Row
	case table.HitHeader:
		return m.clickHeader(h.X, width)
	default:
		return m, false
	}
	m.scroll()
	return m, true
}

func (m Model) clickHeader(x, width int) (Model, bool) {
	cols := fitColumns(width)
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = columns[c].width
	}
	i := table.ColumnAt(x, widths)
	if i < 0 {
		return m, false
	}
	m.SortBy(cols[i])
	return m, true
}
