package ui

import (
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
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
		Search: m.search(), Blocks: m.blocks(), Advisor: m.advisor(), Report: m.report(),
	}
}
