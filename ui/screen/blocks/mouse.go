package blocks

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/screen"
)

// inside is the point x, y relative to a pane's top left corner at left, top, and whether
// it falls in the pane's r.
func inside(x, y, left, top int, r screen.Rect) (int, int, bool) {
	x, y = x-left, y-top
	return x, y, r.W > 0 && r.H > 0 && x >= 0 && y >= 0 && x < r.W && y < r.H
}

// mouse: the wheel scrolls the table or the detail under the pointer, a click selects a
// row or sorts by a column's title.
func (m Model) mouse(msg tea.MouseMsg) Model {
	p := msg.Mouse()
	r := m.layout()
	if x, y, ok := inside(p.X, p.Y, 0, m.area.Top, r.table); ok {
		if m.table.Len() == 0 || m.connectErr != nil || !m.loaded {
			return m
		}
		// The table is drawn after the status line and the regions' problems, in the
		// height TableView gives it.
		w, h := r.table.W-2, r.table.H-2
		before := 1 + len(m.aboveLines(w))
		m.table, _ = m.table.Mouse(msg, x-1, y-1-before, w, tableRows(h, before))
		return m
	}
	if _, _, ok := inside(p.X, p.Y, 0, m.area.Top+r.table.H, r.detail); ok {
		wheel, isWheel := msg.(tea.MouseWheelMsg)
		if !isWheel {
			return m
		}
		if pg, ok := m.DetailPage(r.detail.W-2, r.detail.H-2); ok {
			m.scroll = m.scroll.Wheel(table.WheelDelta(wheel), pg)
		}
	}
	return m
}
