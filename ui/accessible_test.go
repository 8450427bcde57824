package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/a11y"
)

// The accessible mode draws its panes, dialogs and charts without drawing characters of
// their own (not only through the frame's safety net), says the focused row and the chart
// in sentences, and turns no spinner.
func TestAccessibleSearchScreen(t *testing.T) {
	opts := testOptions(nil)
	opts.Accessible = true
	m := New(opts)
	if m.spinTick() != nil {
		t.Error("the accessible mode would turn the spinner")
	}
	m = update(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	offs := syntheticOfferings(9)
	m = withResults(m, offs)
	raw := ansi.Strip(m.render())
	if strings.ContainsFunc(raw, a11y.IsGraphic) {
		t.Errorf("the search screen draws drawing characters of its own:\n%s", raw)
	}
	for _, want := range []string{"Offerings · 1 of 9", "(focused)", "row 1 of 9: ", "upfront fee $", "> "} {
		if !strings.Contains(raw, want) {
			t.Errorf("the screen lacks %q:\n%s", want, raw)
		}
	}
	m = update(m, keyMsg("v"))
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "Break-even chart: the block's upfront fee is $") {
		t.Errorf("the chart is not said in a sentence:\n%s", view)
	}
	m = update(m, keyMsg("?"))
	raw = ansi.Strip(m.render())
	if m.dialog == nil || strings.ContainsFunc(raw, a11y.IsGraphic) {
		t.Errorf("help (open %v) draws drawing characters:\n%s", m.dialog != nil, raw)
	}
}
