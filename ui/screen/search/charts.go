package search

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/chart"
	"github.com/gpublock/gpublock/ui/screen"
)

// chartKey handles the keys of the charts and of marking in the results and detail panes;
// used is false for every other key, which goes on with mm.
func (m Model) chartKey(k tea.KeyPressMsg) (mm Model, cmd tea.Cmd, used bool) {
	if m.focus != PaneResults && m.focus != PaneDetail || m.table.Filtering() {
		return m, nil, false
	}
	switch {
	case keyIs(k, m.keys.Chart):
		if _, ok := m.table.Selected(); !ok {
			m.flash = screen.Say("No offering selected: the chart is of the offering under the cursor.")
			return m, nil, true
		}
		if m.focus == PaneDetail && m.detailTab == TabChart {
			m.detailTab = TabDetail
		} else {
			m.detailTab, m.focus = TabChart, PaneDetail
		}
		return m, nil, true
	case keyIs(k, m.table.KeyMap().Mark):
		marked, ok := m.table.ToggleMark()
		n := len(m.table.Marked())
		switch {
		case !ok:
			m.flash = screen.Say("No offering selected to mark.")
		case marked:
			m.flash = screen.Say(fmt.Sprintf("Marked (%d marked) · c compares the marked offerings · m again unmarks", n))
		default:
			m.flash = screen.Say(fmt.Sprintf("Unmarked (%d marked)", n))
		}
		return m, nil, true
	case keyIs(k, m.keys.Open) && m.focus == PaneResults:
		// Opening the details shows them, whichever tab was last shown; the key goes on.
		m.detailTab = TabDetail
		return m, nil, false
	case keyIs(k, m.keys.Compare):
		cs := m.table.Marked()
		if len(cs) == 0 {
			m.flash = screen.Say("Nothing marked: m marks the offering under the cursor, then c compares the marked ones.")
			return m, nil, true
		}
		return m, func() tea.Msg { return screen.OpenCompare{Comparisons: cs, Back: m.keys.Back, Compare: m.keys.Compare} }, true
	}
	return m, nil, false
}

// detailTitle names the detail pane after its tab.
func (m Model) detailTitle() string {
	if m.detailTab == TabChart {
		return "Chart · v details"
	}
	return "Detail"
}

// chartView is the chart tab of the detail pane.
func (m Model) chartView(w, h int) string {
	c, ok := m.table.SelectedComparison()
	if !ok {
		return m.pc.Theme.Muted.Render("Select an offering to see its charts.")
	}
	return chart.View(m.pc.Theme, c, w, h)
}
