package search

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/screen"
)

// key routes a key of the screen to its focused pane, then gives the keys the pane did not
// use their screen-wide meaning; esc first cancels what a person started. A key that selects
// another offering shows its detail from the top, even an offering scrolled before.
func (m Model) key(k tea.KeyPressMsg) (Model, tea.Cmd) {
	if keyIs(k, m.keys.Back) && m.cancelByKey() {
		return m, nil
	}
	before, _ := m.table.Selected()
	after, cmd := m.searchPaneKey(k)
	if o, _ := after.table.Selected(); o.ID != before.ID {
		after.detailScroll = detail.Scroll{}
	}
	return after, cmd
}

func (m Model) searchPaneKey(k tea.KeyPressMsg) (Model, tea.Cmd) {
	keys := m.keys
	if m.letters() && keyIs(k, keys.Watch) {
		return m.toggleWatch()
	}
	if m.TakesNotify(k) {
		m.flash = screen.ToggleNotify(m.pc)
		return m, nil
	}
	if !m.Typing() && keyIs(k, keys.Export) {
		return m.exportTable()
	}
	if mm, cmd, used := m.orderKey(k); used {
		return mm, cmd
	}
	mm, cmd, used := m.chartKey(k)
	if used {
		return mm, cmd
	}
	m = mm
	switch m.focus {
	case PaneForm:
		var cmd tea.Cmd
		var used bool
		m.form, cmd, used = m.form.Update(k)
		if used {
			return m, cmd
		}
		switch {
		case keyIs(k, keys.Search):
			return m.submit()
		case keyIs(k, keys.NextPane):
			m.focus = PaneResults
		case keyIs(k, keys.PrevPane):
			m.focus = PaneDetail
		case m.form.Focus() == searchform.Types && k.Text != "" && k.Text != " ":
			// A letter typed at the list as if into its filter: say how to reach the filter.
			m.flash = screen.Say("Press / to filter the types, then type (until then q quits, 1/2 switch screens, j/k move).")
		}
		return m, nil
	case PaneResults:
		if len(m.extra.alts) > 0 && m.table.Len() == 0 {
			switch {
			case keyIs(k, m.table.KeyMap().Up):
				m.extra.altCursor = max(0, m.extra.altCursor-1)
				return m, nil
			case keyIs(k, m.table.KeyMap().Down):
				m.extra.altCursor = min(len(m.extra.alts)-1, m.extra.altCursor+1)
				return m, nil
			case keyIs(k, keys.TakeAlternative):
				return m.TakeAlternative(m.extra.altCursor)
			}
		}
		var used bool
		m.table, _, used = m.table.Update(k)
		if used {
			return m, nil
		}
	case PaneDetail:
		if m.detailTab == TabDetail {
			// The moving keys scroll the detail, which a short pane cuts.
			l := m.layout()
			if p, ok := m.detailPage(l.detail.w-2, l.detail.h-2); ok {
				if s, used := m.detailScroll.Update(k, m.table.KeyMap().Nav(), p); used {
					m.detailScroll = s
					return m, nil
				}
			}
			break
		}
		// The charts fit their pane: the arrows move through the table, and the charts
		// follow the selection.
		if keyIs(k, m.table.KeyMap().Up, m.table.KeyMap().Down, m.table.KeyMap().PageUp, m.table.KeyMap().PageDown, m.table.KeyMap().Top, m.table.KeyMap().Bottom) {
			m.table, _, _ = m.table.Update(k)
			return m, nil
		}
	}

	switch {
	case keyIs(k, keys.NextPane):
		m.focus = (m.focus + 1) % numPanes
		if m.focus == PaneForm {
			m.form.FocusFirst()
		}
	case keyIs(k, keys.PrevPane):
		m.focus = (m.focus + numPanes - 1) % numPanes
		if m.focus == PaneForm {
			m.form.FocusLast()
		}
	case keyIs(k, keys.Back):
		m.focus--
	case keyIs(k, keys.Buy) && (m.focus == PaneResults || m.focus == PaneDetail):
		if o, ok := m.table.Selected(); ok {
			if why := m.RowsGone(m.rows); why != "" {
				m.flash = screen.Say(why)
				return m, nil
			}
			if o.Started(m.pc.Now()) {
				m.flash = screen.Say(o.StartedSentence(m.pc.Location) + " (r runs it again)")
				return m, nil
			}
			rows := m.rows
			return m, func() tea.Msg { return screen.OpenPurchase{Offering: o, FromRows: true, Rows: rows} }
		}
	case keyIs(k, keys.Open) && m.focus == PaneResults:
		if _, ok := m.table.Selected(); ok {
			m.focus = PaneDetail
		}
	case keyIs(k, keys.Copy), keyIs(k, keys.CopyPurchase):
		return m.copyCommand(keyIs(k, keys.CopyPurchase))
	case keyIs(k, keys.Rerun):
		// The form still holds the last search (alternatives fill it in too); submitting it
		// again resolves its relative dates anew.
		if m.search.has {
			return m.submit()
		}
	case keyIs(k, keys.Probe):
		return m.startProbe()
	}
	return m, nil
}

// orderKey opens the orders, or an order for the form's search, from any pane where keys
// are not text.
func (m Model) orderKey(k tea.KeyPressMsg) (Model, tea.Cmd, bool) {
	switch {
	case keyIs(k, m.keys.Orders):
		return m, func() tea.Msg { return screen.OpenOrders{} }, true
	case m.letters() && keyIs(k, m.keys.Order):
		q, ok := m.form.Query()
		if !ok {
			m.form.FocusFirstError()
			m.flash = screen.Say("No order was placed: fix the field marked ✗ first.")
			return m, nil, true
		}
		return m, func() tea.Msg { return screen.OpenOrder{Query: q} }, true
	}
	return m, nil, false
}

// submit runs the form's search, or points at what is wrong with it.
func (m Model) submit() (Model, tea.Cmd) {
	switch {
	case m.connecting:
		m.flash = screen.Say("Still connecting; the search can run in a moment.")
		return m, nil
	case m.pc.Backend == nil:
		m.flash = screen.Say("Not connected, so nothing can be searched: q quits.")
		return m, nil
	}
	q, ok := m.form.Query()
	if !ok {
		m.form.FocusFirstError()
		m.flash = screen.Say("The search was not sent: fix the field marked ✗.")
		return m, nil
	}
	return m.StartFormSearch(q)
}

// letters reports whether the screen-wide letters (w, n) are keys here: not in a text field,
// nor at the type list, where a letter is taken for a try at its filter.
func (m Model) letters() bool {
	return !m.Typing() && !(m.focus == PaneForm && m.form.Focus() == searchform.Types)
}

// TakesNotify reports whether k is the notifications switch (n) here, the program's
// (program.Context.NotifyOff), turned at once: the next key may be w, whose words say
// whether the bell is on.
func (m Model) TakesNotify(k tea.KeyPressMsg) bool {
	return m.letters() && keyIs(k, m.keys.Notify)
}
