package ui

import (
	tea "charm.land/bubbletea/v2"
)

// openPurchase opens the purchase dialog on the selected offering.
func (m Model) openPurchase() (tea.Model, tea.Cmd) {
	o, ok := m.table.Selected()
	if !ok {
		return m, nil
	}
	return m.openPurchaseOf(o)
}

// onRootMsg does what a dialog asks of the root.
func (m Model) onRootMsg(msg rootMsg) (tea.Model, tea.Cmd) {
	if msg.Flash != "" {
		m.flash = msg.Flash
	}
	if msg.Refresh && m.search.has && !m.search.running {
		nm, cmd := m.startSearch(m.search.query)
		return nm, cmd
	}
	return m, nil
}

// spendingKeys takes the keys that spend money out of the key map in read-only mode, so
// that neither the screens nor help offer them; enter then opens the detail again.
func spendingKeys(km KeyMap, readOnly bool) KeyMap {
	if readOnly {
		km.Buy.SetEnabled(false)
		km.CopyPurchase.SetEnabled(false)
		km.Open.SetHelp("enter", "details")
	}
	return km
}
