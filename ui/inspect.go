package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
	"github.com/gpublock/gpublock/ui/theme"
)

// Inspection is the root as a test outside the package reads it, beside what it draws:
// which screen is shown, what lies over it, and each screen as it stands. The program
// itself never reads it, so it can be driven by keys and messages alone and checked here.
type Inspection struct {
	// Screen is the screen shown: Search, Blocks, Advisor or Report.
	Screen ScreenName
	// Dialog is the open dialog, nil when none is.
	Dialog uidialog.Dialog
	// Flash is the one-line answer to the last key (copied, nothing to copy…).
	Flash string
	// PaletteOpen says whether the command palette is open.
	PaletteOpen bool
	// Typing says whether the screen shown takes keys as text (a field or a filter).
	Typing bool
	// Width and Height are the terminal's as the root last heard them; Theme is the
	// program's.
	Width, Height int
	Theme         theme.Theme

	// The screens as drawn now, in the root's frame (its area, clock and spinner).

	Search  searchscreen.Model
	Blocks  blockscreen.Model
	Advisor advisorui.Model
	Report  reportscreen.Model
}

// ScreenName names a screen of the program for Inspection.
type ScreenName string

// The program's screens.
const (
	Search  ScreenName = "search"
	Blocks  ScreenName = "blocks"
	Advisor ScreenName = "advisor"
	Report  ScreenName = "report"
)

var screenNames = [numScreens]ScreenName{screenSearch: Search, screenBlocks: Blocks, screenAdvisor: Advisor, screenReport: Report}

// Inspect reads the root for a test.
func (m Model) Inspect() Inspection {
	return Inspection{
		Screen: screenNames[m.screen], Dialog: m.dialog, Flash: m.flash, PaletteOpen: m.palette != nil,
		Typing: m.typing(), Width: m.pc.Width, Height: m.pc.Height, Theme: m.pc.Theme,
		Search:  m.search().At(m.frame()),
		Blocks:  m.blocks().At(m.frame()),
		Advisor: m.advisor(),
		Report:  m.screens[screenReport].(reportscreen.Model).At(m.frame()),
	}
}

// StartedSearch starts a search with start, taken on the search screen in the root's frame
// as a key would take it, without asking the backend (there may be none): the test then
// delivers the search's events itself (searchscreen.EventsMsg with the id returned). The
// program never calls it.
func (m Model) StartedSearch(start func(searchscreen.Model, uiscreen.Frame) (searchscreen.Model, tea.Cmd)) (Model, int) {
	real := m.pc.Backend
	m.pc.Backend = searchless{real}
	s, _ := start(m.search(), m.frame())
	m.pc.Backend = real
	m.screens[screenSearch] = s
	return m.closeStalePurchase(), s.SearchID()
}

// searchless answers every search with nothing, at once; the backend it stands in for (or
// none) answers the rest.
type searchless struct{ source.Backend }

func (searchless) Search(context.Context, model.Query) <-chan source.SearchEvent {
	ch := make(chan source.SearchEvent)
	close(ch)
	return ch
}

// The screens' own models, for the tests' look inside.
func (m Model) search() searchscreen.Model { return m.screens[screenSearch].(searchscreen.Model) }
func (m Model) blocks() blockscreen.Model  { return m.screens[screenBlocks].(blockscreen.Model) }
func (m Model) advisor() advisorui.Model   { return m.screens[screenAdvisor].(advisorui.Model) }
