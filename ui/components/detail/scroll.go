package detail

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/theme"
)

// Page is one offering's detail laid out for a pane of width×height cells: every line of
// it, to be drawn from any of them.
type Page struct {
	th            theme.Theme
	id            string
	lines         []string
	width, height int
}

// NewPage lays out the offering's detail, with its comparison with on-demand when c is not
// nil; see View for the rest.
func NewPage(th theme.Theme, o model.Offering, c *pricing.Comparison, q model.Query, now time.Time, loc *time.Location, readOnly bool, width, height int) Page {
	p := Page{th: th, id: o.ID, width: width, height: height}
	if width <= 0 || height <= 0 {
		return p
	}
	all := content(th, o, c, q, now, loc, readOnly, width)
	short := len(all) > height
	for _, l := range all {
		switch {
		case l != spacer:
			p.lines = append(p.lines, l)
		case !short:
			p.lines = append(p.lines, "")
		}
	}
	return p
}

// Lines is how many lines the detail has at this width.
func (p Page) Lines() int { return len(p.lines) }

// rows is how many lines of the detail are shown: all of the pane, but for the line that
// says there is more when there is (and the pane has room for a line besides it).
func (p Page) rows() int {
	if len(p.lines) > p.height && p.height >= 2 {
		return p.height - 1
	}
	return p.height
}

// maxTop is the last first line: the end of the detail at the bottom of the pane.
func (p Page) maxTop() int { return max(0, len(p.lines)-p.rows()) }

// Scroll is how far the detail pane is scrolled: its first line shown, of one offering's
// detail. Another offering's detail is shown from its top, so that moving to another row
// never opens its detail halfway down.
type Scroll struct {
	id  string
	top int
}

// Top is the first line of p shown at s, kept within the lines p has (a wider pane has
// fewer lines than the one s was scrolled in).
func (s Scroll) Top(p Page) int {
	if s.id != p.id {
		return 0
	}
	return max(0, min(s.top, p.maxTop()))
}

// Update scrolls p by a key of nav, the keys that move the tables' cursors (a line, a
// page, half a page, the top or the end), and reports whether k was one of them.
func (s Scroll) Update(k tea.KeyPressMsg, nav table.Nav, p Page) (Scroll, bool) {
	top, _, used := table.Move(k, nav, s.Top(p), 0, p.rows(), p.maxTop()+1)
	if !used {
		return s, false
	}
	return Scroll{id: p.id, top: max(0, min(top, p.maxTop()))}, true
}

// View draws p from s's first line. A detail longer than the pane ends with a line saying
// how much is above and below; focused, it says which key scrolls.
func (p Page) View(s Scroll, focused bool) string {
	if p.width <= 0 || p.height <= 0 {
		return ""
	}
	top, rows := s.Top(p), p.rows()
	shown := p.lines[top:min(len(p.lines), top+rows)]
	if rows == p.height {
		return strings.Join(shown, "\n")
	}
	above, below := top, len(p.lines)-top-len(shown)
	var parts []string
	if above > 0 {
		parts = append(parts, fmt.Sprintf("↑ %d %s above", above, lineWord(above)))
	}
	if below > 0 {
		parts = append(parts, fmt.Sprintf("↓ %d more %s", below, lineWord(below)))
	}
	if focused {
		parts = append(parts, "j/k scroll")
	}
	more := ansi.Truncate(p.th.Muted.Render(strings.Join(parts, " · ")), p.width, "…")
	return strings.Join(append(append([]string{}, shown...), more), "\n")
}

func lineWord(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}

// KeyMap is the detail pane's keys for help: the tables' moving keys, which scroll it
// while it has the focus.
type KeyMap struct {
	Nav                    table.Nav
	Line, Page, Half, Ends key.Binding
}

// NewKeyMap is the detail's keys made of nav, the tables' moving keys.
func NewKeyMap(nav table.Nav) KeyMap {
	both := func(a, b key.Binding, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(append(append([]string{}, a.Keys()...), b.Keys()...)...),
			key.WithHelp(a.Help().Key+" "+b.Help().Key, desc))
	}
	return KeyMap{
		Nav:  nav,
		Line: both(nav.Up, nav.Down, "scroll"),
		Page: both(nav.PageUp, nav.PageDown, "page up · down"),
		Half: both(nav.HalfUp, nav.HalfDown, "½ page up · down"),
		Ends: both(nav.Top, nav.Bottom, "top · end"),
	}
}
