package flows

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

// The terminal's answer to the background query recolours the whole frame: the body text
// of the dark palette (#E6EDF3) is gone from a frame drawn for a white terminal.
func TestBackgroundChoosesThePalette(t *testing.T) {
	// The body text of the dark palette, and the muted grey of the light one (the light
	// body text's colour is also the SIMULATED badge's, in both).
	const darkText, lightMuted = "38;2;230;237;243", "38;2;87;96;106"
	opts := testOptions(nil)
	opts.NoColor = false
	m := update(withResults(ui.New(opts), uitest.SyntheticOfferings(20)), tea.WindowSizeMsg{Width: 160, Height: 48})
	if view := m.View().Content; !strings.Contains(view, darkText) {
		t.Fatal("before the terminal answers, the frame is not drawn in the dark palette")
	}
	m = update(m, tea.BackgroundColorMsg{Color: color.White})
	view := m.View().Content
	if strings.Contains(view, darkText) || !strings.Contains(view, lightMuted) || !strings.Contains(view, "38;2;31;35;40") {
		t.Errorf("on a white terminal: dark body text %v, light muted text %v", strings.Contains(view, darkText), strings.Contains(view, lightMuted))
	}
	m = update(m, tea.BackgroundColorMsg{Color: color.Black})
	if view := m.View().Content; !strings.Contains(view, darkText) {
		t.Error("back on a black terminal the frame is not dark again")
	}

	// --theme dark keeps the dark palette on a white terminal.
	if err := theme.Set("dark"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { theme.Set("auto") })
	m = update(withResults(ui.New(opts), uitest.SyntheticOfferings(20)), tea.WindowSizeMsg{Width: 160, Height: 48}, tea.BackgroundColorMsg{Color: color.White})
	if view := m.View().Content; !strings.Contains(view, darkText) || strings.Contains(view, lightMuted) {
		t.Error("--theme dark gave way to the terminal's white background")
	}
}
