package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// helpDialog shows every key until a key closes it. Taller than the terminal (80×24 shows
// about half), it scrolls with the arrows and page keys; any other key closes it.
type helpDialog struct {
	th     theme.Theme
	groups []keyGroup
	size   rect // the body it is drawn in, to stop scrolling at the end
	top    int  // the first line of the keys shown
}

func (d helpDialog) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialogSizeMsg:
		d.size = rect{msg.W, msg.H}
		d.top = min(d.top, d.maxTop())
	case tea.KeyPressMsg:
		page := max(1, d.size.h-4)
		switch msg.String() {
		case "down":
			d.top++
		case "up":
			d.top--
		case "pgdown":
			d.top += page
		case "pgup":
			d.top -= page
		default:
			return d, nil, true
		}
		d.top = max(0, min(d.top, d.maxTop()))
	}
	return d, nil, false
}

// maxTop is the last first line: the end of the keys at the bottom of the box.
func (d helpDialog) maxTop() int {
	if d.size.w == 0 {
		return 1 << 20 // not sized yet: View clamps
	}
	return max(0, len(d.keyLines(d.size.w))-d.room(d.size.h))
}

// room is the lines the keys get in a body of height h: the frame and the title line take 3.
func (d helpDialog) room(h int) int { return max(1, h-3) }

func (d helpDialog) View(width, height int) string {
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
	return frame(th, "Help", content, rect{width, height}, true)
}

// keyLines are the key groups laid out in columns for a box width cells wide.
func (d helpDialog) keyLines(width int) []string {
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
