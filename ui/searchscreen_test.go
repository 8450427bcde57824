package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The search screen's names, as the tests of the whole program read them.
const (
	paneForm    = searchscreen.PaneForm
	paneResults = searchscreen.PaneResults
	paneDetail  = searchscreen.PaneDetail
	tabDetail   = searchscreen.TabDetail
	tabChart    = searchscreen.TabChart
)

type (
	probeResult     = searchscreen.ProbeResult
	searchEventsMsg = searchscreen.EventsMsg
	watchTickMsg    = searchscreen.WatchTickMsg
)

// The search screen's steps, taken on the root as a key or a dialog would.
func (m Model) startSearch(q model.Query) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().StartSearch(q))
}

func (m Model) startFormSearch(q model.Query) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().StartFormSearch(q))
}

func (m Model) takeAlternative(i int) (tea.Model, tea.Cmd) {
	return m.updateSearchWith(m.search().TakeAlternative(i))
}

func (m Model) freshCount() int       { return m.search().FreshCount() }
func (m Model) selectedIsFresh() bool { return m.search().SelectedIsFresh() }

// updateOpen is update, and the dialog the last message asks for opened, as the program
// would open it from the message the screen sends.
func updateOpen(m Model, msgs ...tea.Msg) Model {
	m = update(m, msgs[:len(msgs)-1]...)
	mm, cmd := m.Update(msgs[len(msgs)-1])
	m = mm.(Model)
	if cmd != nil {
		if open := cmd(); uiscreen.IsOpen(open) {
			m = update(m, open)
		}
	}
	return m
}

// detailPage is the selected offering's detail as the detail pane lays it out now.
func (m Model) detailPage() (detail.Page, bool) { return m.searchNow().DetailPage() }

// page is detailPage, failing t when no offering is selected.
func (m Model) page(t testing.TB) detail.Page {
	t.Helper()
	p, ok := m.detailPage()
	if !ok {
		t.Fatal("no offering selected")
	}
	return p
}
