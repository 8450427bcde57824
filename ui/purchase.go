package ui

import (
	tea "charm.land/bubbletea/v2"
)

// onRootMsg does what a dialog asks of the root.
func (m Model) onRootMsg(msg rootMsg) (tea.Model, tea.Cmd) {
	if msg.Flash != "" {
		m.flash = msg.Flash
	}
	if msg.Refresh {
		// A dialog bought, extended or launched: the search shows what is on offer now.
		return m.updateSearchWith(m.search.Refresh())
	}
	return m, nil
}
