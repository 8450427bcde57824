package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/chart"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/theme"
)

// detailTab is what the detail pane shows: everything about the offering, or its pricing
// charts. The charts are a tab of the detail pane, not a pane of their own, so that in the
// wide layout they sit under the table and follow the cursor as it moves, and in the
// stacked layout they get the whole body as the detail does.
type detailTab int

const (
	tabDetail detailTab = iota
	tabChart
)

// newTable is the offerings table comparing rows with cat (nil: the embedded catalog),
// loaded once before the program starts so that neither Update nor View reads a file.
func newTable(th theme.Theme, cat *pricing.Catalog) offerings.Model {
	t := offerings.New(th)
	if cat != nil {
		t.SetCatalog(cat)
	}
	return t
}

// chartKey handles the keys of the charts and of marking in the results and detail panes;
// used is false for every other key, which goes on with mm.
func (m Model) chartKey(k tea.KeyPressMsg) (mm Model, cmd tea.Cmd, used bool) {
	if m.focus != paneResults && m.focus != paneDetail || m.table.Filtering() {
		return m, nil, false
	}
	switch {
	case keyIs(k, m.keys.Chart):
		if _, ok := m.table.Selected(); !ok {
			m.flash = "No offering selected: the chart is of the offering under the cursor."
			return m, nil, true
		}
		if m.focus == paneDetail && m.detailTab == tabChart {
			m.detailTab = tabDetail
		} else {
			m.detailTab, m.focus = tabChart, paneDetail
		}
		return m, nil, true
	case keyIs(k, m.table.KeyMap().Mark):
		marked, ok := m.table.ToggleMark()
		n := len(m.table.Marked())
		switch {
		case !ok:
			m.flash = "No offering selected to mark."
		case marked:
			m.flash = fmt.Sprintf("Marked (%d marked) · c compares the marked offerings · m again unmarks", n)
		default:
			m.flash = fmt.Sprintf("Unmarked (%d marked)", n)
		}
		return m, nil, true
	case keyIs(k, m.keys.Open) && m.focus == paneResults:
		// Opening the details shows them, whichever tab was last shown; the key goes on.
		m.detailTab = tabDetail
		return m, nil, false
	case keyIs(k, m.keys.Compare):
		cs := m.table.Marked()
		if len(cs) == 0 {
			m.flash = "Nothing marked: m marks the offering under the cursor, then c compares the marked ones."
			return m, nil, true
		}
		m.dialog = compareDialog{th: m.pc.Theme, cs: cs, back: m.keys.Back, compare: m.keys.Compare}
		return m, nil, true
	}
	return m, nil, false
}

// detailTitle names the detail pane after its tab.
func (m Model) detailTitle() string {
	if m.detailTab == tabChart {
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

// compareDialog shows the marked offerings on one chart over the screen.
type compareDialog struct {
	th            theme.Theme
	cs            []pricing.Comparison
	back, compare key.Binding
}

func (d compareDialog) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil, false
	}
	return d, nil, keyIs(k, d.back, d.compare)
}

func (d compareDialog) View(width, height int) string {
	title := fmt.Sprintf("Compare %d offerings · esc back", len(d.cs))
	return frame(d.th, title, chart.CompareView(d.th, d.cs, width-2, height-2), rect{width, height}, true)
}
