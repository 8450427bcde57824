package ui

import uiscreen "github.com/gpublock/gpublock/ui/screen"

// The smallest terminal the UI draws in; below it a message asks for a larger one.
const (
	minWidth  = 60
	minHeight = 16
	// wideWidth is where the form and the results sit side by side.
	wideWidth  = uiscreen.WideWidth
	wideHeight = uiscreen.WideHeight
)

type rect struct{ w, h int }

// layout is where each pane goes at the current size. It is computed from the model, not
// stored, so that View and the paging in Update agree.
type layout struct {
	tooSmall      bool
	wide          bool
	headerH       int
	footerH       int
	form          rect // zero when not shown
	formCollapsed bool // narrow terminals show the form as one summary line
	status        rect // per-region status pane (wide only)
	results       rect
	detail        rect
	tableRows     int
}

func (m Model) layout() layout {
	var l layout
	if m.pc.Width < minWidth || m.pc.Height < minHeight {
		l.tooSmall = true
		return l
	}
	l.headerH = 1
	if m.notice != "" {
		l.headerH++
	}
	l.footerH = 1 + len(m.flashLines())
	body := m.pc.Height - l.headerH - l.footerH
	l.wide = m.pc.Width >= wideWidth && m.pc.Height >= wideHeight
	if l.wide {
		// The table needs 118 cells for every column; the form gets the rest, 40 to 60.
		formW := max(40, min(60, m.pc.Width-120))
		right := m.pc.Width - formW
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
		case paneForm:
			resH := min(9, body/3)
			l.form = rect{m.pc.Width, body - resH}
			l.results = rect{m.pc.Width, resH}
		case paneResults:
			l.formCollapsed = true
			l.form = rect{m.pc.Width, 1}
			l.results = rect{m.pc.Width, body - 1}
		case paneDetail:
			l.detail = rect{m.pc.Width, body}
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
