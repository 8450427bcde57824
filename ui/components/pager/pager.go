// Package pager shows lines in a pane shorter than they are: the moving keys of the tables
// scroll them, and the last line says how many are above and below. The offering's detail
// on the search screen and the block's detail on the blocks screen share it.
package pager

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/theme"
)

// Spacer marks a blank line that is dropped when the pane is too short for every line:
// there, a line of text is worth more than the air between paragraphs.
const Spacer = "\x00"

// Page is one thing's lines laid out for a pane of width×height cells, to be drawn from
// any of them.
type Page struct {
	th            theme.Theme
	id            string
	lines         []string
	width, height int
}

// New lays out lines, already cut to width, for a pane of width×height cells. id names what
// they show: a Scroll of another id shows them from the top. A line equal to Spacer is
// blank when everything fits, and dropped when not.
func New(th theme.Theme, id string, lines []string, width, height int) Page {
	p := Page{th: th, id: id, width: width, height: height}
	if width <= 0 || height <= 0 {
		return p
	}
	short := len(lines) > height
	for _, l := range lines {
		switch {
		case l != Spacer:
			p.lines = append(p.lines, l)
		case !short:
			p.lines = append(p.lines, "")
		}
	}
	return p
}

// Lines is how many lines the page has.
func (p Page) Lines() int { return len(p.lines) }

// rows is how many lines are shown: all of the pane, but for the line that says there is
// more when there is (and the pane has room for a line besides it).
func (p Page) rows() int {
	if len(p.lines) > p.height && p.height >= 2 {
		return p.height - 1
	}
	return p.height
}

// maxTop is the last first line: the end of the page at the bottom of the pane.
func (p Page) maxTop() int { return max(0, len(p.lines)-p.rows()) }

// Scroll is how far a pane is scrolled: its first line shown, of one page. Another page
// (another id) is shown from its top, so that moving to another row never opens its
// detail halfway down.
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

// View draws p from s's first line. A page longer than the pane ends with a line saying
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

// KeyMap is a pager's keys for help: the tables' moving keys, which scroll it while it
// has the focus.
type KeyMap struct {
	Nav                    table.Nav
	Line, Page, Half, Ends key.Binding
}

// NewKeyMap is the pager's keys made of nav, the tables' moving keys.
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

// Wheel scrolls p by delta lines (a mouse wheel's, table.WheelDelta), within its lines.
func (s Scroll) Wheel(delta int, p Page) Scroll {
	return Scroll{id: p.id, top: max(0, min(s.Top(p)+delta, p.maxTop()))}
}
