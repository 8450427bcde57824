package search

import "github.com/gpublock/gpublock/ui/screen"

type rect struct{ w, h int }

func (r rect) screen() screen.Rect { return screen.Rect{W: r.w, H: r.h} }

// layout is where each pane goes in the screen's area. It is computed from the model, not
// stored, so that View and the paging in Update agree.
type layout struct {
	wide          bool
	top           int  // the terminal row the body starts on
	form          rect // zero when not shown
	formCollapsed bool // narrow terminals show the form as one summary line
	status        rect // per-region status pane (wide only)
	results       rect
	detail        rect
	tableRows     int
}

func (m Model) layout() layout {
	l := layout{top: m.area.Top}
	width, body := m.area.Width, m.area.Height
	l.wide = m.pc.Width >= screen.WideWidth && m.pc.Height >= screen.WideHeight
	if l.wide {
		// The table needs 118 cells for every column; the form gets the rest, 40 to 60.
		formW := max(40, min(60, width-120))
		right := width - formW
		statusH := 0
		if m.search.has {
			statusH = min(len(m.regionStatusLines(formW-2))+3, body/3)
		}
		l.form = rect{formW, body - statusH}
		l.status = rect{formW, statusH}
		resultsH := max(10, body*55/100)
		l.results = rect{right, resultsH}
		l.detail = rect{right, body - resultsH}
	} else {
		switch m.focus {
		case PaneForm:
			resH := min(9, body/3)
			l.form = rect{width, body - resH}
			l.results = rect{width, resH}
		case PaneResults:
			l.formCollapsed = true
			l.form = rect{width, 1}
			l.results = rect{width, body - 1}
		case PaneDetail:
			l.detail = rect{width, body}
		}
	}
	// Inside the results pane: the border (2), the progress line, the compact region
	// line of narrow layouts, the table header and the position line.
	used := 2 + 1 + 1 + 1
	if !l.wide {
		used++
	}
	if m.table.Filtering() || m.table.FilterText() != "" {
		used++
	}
	l.tableRows = max(1, l.results.h-used)
	return l
}
