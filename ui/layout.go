package ui

// The smallest terminal the UI draws in; below it a message asks for a larger one.
const (
	minWidth  = 60
	minHeight = 16
)

type rect struct{ w, h int }

// layout is the root's frame at the current size: the header and the footer, between which
// the screen shown draws its panes (area). It is computed from the model, not stored, so
// that View and the paging in Update agree.
type layout struct {
	tooSmall bool
	headerH  int
	footerH  int
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
	return l
}
