package ui

import tea "charm.land/bubbletea/v2"

// The mouse, as k9s, gh-dash and lazygit have it: the wheel scrolls the table or the pane
// under the pointer, a click selects a table's row or sorts by the column whose title it
// hits. Options.NoMouse turns it off (and with it the terminal's mouse reporting, which
// takes the terminal's own text selection away). Dialogs take no mouse: what spends money
// is typed. Each screen finds the pane under the pointer itself.

// onMouse routes a mouse message to the screen shown.
func (m Model) onMouse(msg tea.MouseMsg) Model {
	if m.opts.NoMouse || m.dialog != nil || m.pc.Width == 0 {
		return m
	}
	if m.layout().tooSmall {
		return m
	}
	switch m.screen {
	case screenSearch:
		m, _ = m.updateSearch(msg)
	case screenBlocks:
		m, _ = m.updateBlocks(msg)
	}
	return m
}
