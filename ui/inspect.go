package ui

import (
	uidialog "github.com/gpublock/gpublock/ui/dialog"
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
		Search:  m.screens[screenSearch].(searchTab).at(m.frame()),
		Blocks:  m.screens[screenBlocks].(blocksTab).at(m.frame()),
		Advisor: m.advisor(),
		Report:  m.screens[screenReport].(reportTab).at(m.frame()),
	}
}
