// Package help is the help dialog: every key of the screen behind it, in titled groups laid
// out in columns, scrolled with the arrows and page keys when taller than the terminal; any
// other key closes it.
package help

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// Model shows every key until a key closes it. Taller than the terminal (80×24 shows
// about half), it scrolls with the arrows and page keys; any other key closes it.
type Model struct {
	th     theme.Theme
	groups []screen.KeyGroup
	size   screen.Rect // the body it is drawn in, to stop scrolling at the end
	top    int         // the first line of the keys shown
	keys   KeyMap
}

// New is the help of groups, drawn in a body of size.
func New(th theme.Theme, groups []screen.KeyGroup, size screen.Rect) Model {
	return Model{th: th, groups: groups, size: size, keys: DefaultKeyMap()}
}

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		d.size = screen.Rect(msg)
		d.top = min(d.top, d.maxTop())
	case tea.KeyPressMsg:
		page := max(1, d.size.H-4)
		switch {
		case key.Matches(msg, d.keys.Down):
			d.top++
		case key.Matches(msg, d.keys.Up):
			d.top--
		case key.Matches(msg, d.keys.PageDown):
			d.top += page
		case key.Matches(msg, d.keys.PageUp):
			d.top -= page
		default:
			return d, nil, true
		}
		d.top = max(0, min(d.top, d.maxTop()))
	}
	return d, nil, false
}

// maxTop is the last first line: the end of the keys at the bottom of the box.
func (d Model) maxTop() int {
	if d.size.W == 0 {
		return 1 << 20 // not sized yet: View clamps
	}
	return max(0, len(d.keyLines(d.size.W))-d.room(d.size.H))
}

// room is the lines the keys get in a body of height h: the frame and the title line take 3.
func (d Model) room(h int) int { return max(1, h-3) }

func (d Model) View(width, height int) string {
	th := d.th
	lines := d.keyLines(width)
	room := d.room(height)
	title := " · any key closes · q and ctrl+c quit, but q is a letter in text fields"
	if len(lines) > room {
		top := max(0, min(d.top, len(lines)-room))
		title = fmt.Sprintf(" · lines %d–%d of %d: ↑↓ pgup pgdn scroll · any other key closes", top+1, top+room, len(lines))
		lines = lines[top : top+room]
	}
	content := th.Focused.Render("Keys") + th.Muted.Render(title) + "\n" + strings.Join(lines, "\n")
	return screen.Box(th, "Help", content, screen.Rect{W: width, H: height}, true)
}

// keyLines are the key groups laid out in columns for a box width cells wide.
func (d Model) keyLines(width int) []string {
	th := d.th
	// Each group is a column: its title, then a key and what it does per line. Columns
	// flow left to right and wrap to a new row when the width runs out.
	var cols []string
	for _, g := range d.groups {
		// Keys turned off (buying in read-only mode) are not offered.
		var on []key.Binding
		for _, b := range g.Keys {
			if b.Enabled() {
				on = append(on, b)
			}
		}
		g.Keys = on
		kw := 0
		for _, b := range g.Keys {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
		lines := []string{th.Focused.Render(g.Title)}
		for _, b := range g.Keys {
			h := b.Help()
			lines = append(lines, th.HelpKey.Render(h.Key+strings.Repeat(" ", kw-ansi.StringWidth(h.Key)))+"  "+th.HelpDesc.Render(h.Desc))
		}
		cols = append(cols, strings.Join(lines, "\n"))
	}
	inner := width - 2
	var rows []string
	var row []string
	rowW := 0
	for _, c := range cols {
		w := lipgloss.Width(c) + 4
		if rowW+w > inner && len(row) > 0 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
			row, rowW = nil, 0
		}
		row = append(row, lipgloss.NewStyle().PaddingRight(4).Render(c))
		rowW += w
	}
	if len(row) > 0 {
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, row...))
	}
	return append([]string{""}, strings.Split(strings.Join(rows, "\n\n"), "\n")...)
}
