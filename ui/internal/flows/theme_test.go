package flows

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// colourSGR matches an SGR sequence that sets a foreground or background colour.
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)

func TestNoColourHasNoColour(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		opts := testOptions(nil)
		opts.NoColor = noColor
		m := withResults(ui.New(opts), uitest.SyntheticOfferings(50))
		m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
		view := m.View().Content
		has := colourSGR.MatchString(view)
		if noColor && has {
			t.Errorf("--no-color frame has colour: %q", colourSGR.FindString(view))
		}
		if !noColor && !has {
			t.Error("the colour frame has no colour")
		}
		// Without colour the focused pane and the selected row still stand out.
		if noColor && (!strings.Contains(view, "┏") || !strings.Contains(view, "\x1b[7m")) {
			t.Error("without colour the focused pane (heavy border) or the selected row (reverse) is not marked")
		}
	}
}

func TestModeBadge(t *testing.T) {
	for _, sim := range []bool{true, false} {
		opts := testOptions(nil)
		opts.Simulated = sim
		m := update(ui.New(opts), tea.WindowSizeMsg{Width: 120, Height: 30})
		header := strings.SplitN(m.View().Content, "\n", 2)[0]
		plain := ansi.Strip(header)
		if sim != strings.Contains(plain, "SIMULATED") || sim == strings.Contains(plain, " LIVE ") {
			t.Errorf("simulated=%v, header %q", sim, plain)
		}
	}
	// The two badges are drawn differently, in colour and without.
	for _, noColor := range []bool{false, true} {
		a, b := ui.New(ui.Options{NoColor: noColor, Simulated: true}), ui.New(ui.Options{NoColor: noColor})
		if a.Inspect().Theme.Simulated.Render("X") == b.Inspect().Theme.Live.Render("X") {
			t.Errorf("noColor=%v: SIMULATED and LIVE badges look the same", noColor)
		}
	}
}
