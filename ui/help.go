package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// helpDialog shows every key until any key closes it.
type helpDialog struct {
	th     theme.Theme
	groups []keyGroup
}

func (d helpDialog) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	_, key := msg.(tea.KeyPressMsg)
	return d, nil, key
}

func (d helpDialog) View(width, height int) string {
	th := d.th
	// Each group is a column: its title, then a key and what it does per line. Columns
	// flow left to right and wrap to a new row when the width runs out.
	var cols []string
	for _, g := range d.groups {
		// Keys turned off (buying in read-only mode) are not offered.
		var on []key.Binding
		for _, b := range g.keys {
			if b.Enabled() {
				on = append(on, b)
			}
		}
		g.keys = on
		kw := 0
		for _, b := range g.keys {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
		lines := []string{th.Focused.Render(g.title)}
		for _, b := range g.keys {
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
	content := th.Focused.Render("Keys") + th.Muted.Render(" · any key closes · q and ctrl+c quit, but q is a letter in text fields") + "\n\n" + strings.Join(rows, "\n\n")
	return frame(th, "Help", content, rect{width, height}, true)
}
