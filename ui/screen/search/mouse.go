package search

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/table"
)

// inside is the point x, y relative to a pane's top left corner at left, top, and whether
// it falls in the pane's r.
func inside(x, y, left, top int, r rect) (int, int, bool) {
	x, y = x-left, y-top
	return x, y, r.w > 0 && r.h > 0 && x >= 0 && y >= 0 && x < r.w && y < r.h
}

// mouse routes a mouse message to the pane under the pointer: the wheel scrolls the table or
// the detail, a click selects a row or sorts by a column, and focuses its pane in the wide
// layout. The root hands none while a dialog is open or the mouse is off.
func (m Model) mouse(msg tea.MouseMsg) Model {
	if m.area.Width == 0 {
		return m
	}
	l := m.layout()
	p := msg.Mouse()
	top, left := l.top, 0
	var resTop int
	switch {
	case l.wide:
		left, resTop = m.pc.Width-l.results.w, top
	case l.formCollapsed:
		resTop = top + 1
	default:
		resTop = top + l.form.h
	}
	if x, y, ok := inside(p.X, p.Y, left, resTop, l.results); ok {
		if l.wide {
			m.focus = PaneResults
		}
		if m.table.Len() == 0 || m.connectErr != nil {
			return m
		}
		// The table is drawn after the progress line, the compact region line of narrow
		// layouts and the probe summary (resultsView).
		w, h := l.results.w-2, l.results.h-2
		before := 1 + len(m.probeSummary(w))
		if !l.wide {
			before++
		}
		m.table, _ = m.table.Mouse(msg, x-1, y-1-before, w, h-before)
		return m
	}
	detTop := top
	if l.wide {
		detTop = top + l.results.h
	}
	if _, _, ok := inside(p.X, p.Y, left, detTop, l.detail); ok {
		if l.wide {
			m.focus = PaneDetail
		}
		wheel, isWheel := msg.(tea.MouseWheelMsg)
		if !isWheel || m.detailTab != TabDetail {
			return m
		}
		if pg, ok := m.detailPage(l.detail.w-2, l.detail.h-2); ok {
			m.detailScroll = m.detailScroll.Wheel(table.WheelDelta(wheel), pg)
		}
	}
	return m
}
