package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/searchform"
)

// searchKey routes a key of the search screen to its focused pane, then gives the keys the
// pane did not use their screen-wide meaning. A key that selects another offering shows its
// detail from the top, even an offering scrolled before.
func (m Model) searchKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	before, _ := m.table.Selected()
	mm, cmd := m.searchPaneKey(k)
	if after, ok := mm.(Model); ok {
		if o, _ := after.table.Selected(); o.ID != before.ID {
			after.detailScroll = detail.Scroll{}
		}
		mm = after
	}
	return mm, cmd
}

func (m Model) searchPaneKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	keys := m.keys
	// Not at the type list either, where a letter is taken for a try at its filter.
	if !m.typing() && !(m.focus == paneForm && m.form.Focus() == searchform.Types) {
		switch {
		case keyIs(k, keys.Watch):
			return m.toggleWatch()
		case keyIs(k, m.blocks.KeyMap().Notify):
			return m.toggleNotify()
		}
	}
	if !m.typing() && keyIs(k, keys.Export) {
		return m.exportTable()
	}
	mm, cmd, used := m.chartKey(k)
	if used {
		return mm, cmd
	}
	m = mm
	switch m.focus {
	case paneForm:
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
			m.focus = paneResults
		case keyIs(k, keys.PrevPane):
			m.focus = paneDetail
		case m.form.Focus() == searchform.Types && k.Text != "" && k.Text != " ":
			// A letter typed at the list as if into its filter: say how to reach the filter.
			m.flash = "Press / to filter the types, then type (until then q quits, 1/2 switch screens, j/k move)."
		}
		return m, nil
	case paneResults:
		if len(m.extra.alts) > 0 && m.table.Len() == 0 {
			switch {
			case keyIs(k, m.table.KeyMap().Up):
				m.extra.altCursor = max(0, m.extra.altCursor-1)
				return m, nil
			case keyIs(k, m.table.KeyMap().Down):
				m.extra.altCursor = min(len(m.extra.alts)-1, m.extra.altCursor+1)
				return m, nil
			case keyIs(k, keys.TakeAlternative):
				return m.takeAlternative(m.extra.altCursor)
			}
		}
		var used bool
		m.table, _, used = m.table.Update(k)
		if used {
			return m, nil
		}
	case paneDetail:
		if m.detailTab == tabDetail {
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
		if m.focus == paneForm {
			m.form.SetFocus(searchform.Types)
		}
	case keyIs(k, keys.PrevPane):
		m.focus = (m.focus + numPanes - 1) % numPanes
		if m.focus == paneForm {
			m.form.SetFocus(searchform.Regions)
		}
	case keyIs(k, keys.Back):
		m.focus--
	case keyIs(k, keys.Buy) && (m.focus == paneResults || m.focus == paneDetail):
		return m.openPurchase()
	case keyIs(k, keys.Open) && m.focus == paneResults:
		if _, ok := m.table.Selected(); ok {
			m.focus = paneDetail
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

// submit runs the form's search, or points at what is wrong with it.
func (m Model) submit() (tea.Model, tea.Cmd) {
	switch {
	case m.connecting:
		m.flash = "Still connecting; the search can run in a moment."
		return m, nil
	case m.pc.Backend == nil:
		m.flash = "Not connected, so nothing can be searched: q quits."
		return m, nil
	}
	q, ok := m.form.Query()
	if !ok {
		for f := searchform.Types; f <= searchform.Regions; f++ {
			if _, bad := m.form.Errors()[f]; bad {
				m.form.SetFocus(f)
				break
			}
		}
		m.flash = "The search was not sent: fix the field marked ✗."
		return m, nil
	}
	return m.startFormSearch(q)
}
