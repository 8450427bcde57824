package search

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// v shows the chart tab, c asks for the compare chart of the marked offerings, and with
// nothing to chart or compare they say so.
func TestChartKeys(t *testing.T) {
	base := unsized()
	results := withResults(base, uitest.SyntheticOfferings(500))
	chart := update(results, keyMsg("j"), keyMsg("v"))
	marked := update(results, keyMsg("m"), keyMsg("j"), keyMsg("m"), keyMsg("j"), keyMsg("m"))
	_, cmd := marked.Model.update(keyMsg("c"))
	if cmd == nil {
		t.Fatal("c with three marked offerings asked for no compare chart")
	}
	open, ok := cmd().(screen.OpenCompare)
	if !ok {
		t.Fatal("c with three marked offerings asked for no compare chart")
	}
	if n := len(open.Comparisons); n != 3 {
		t.Errorf("the compare chart has %d offerings, want 3", n)
	}
	if chart.detailTab != TabChart || chart.focus != PaneDetail {
		t.Fatal("v does not show the chart")
	}
	if m := update(chart, keyMsg("v")); m.detailTab != TabDetail {
		t.Error("v again does not go back to the details")
	}
	if m := update(chart, keyMsg("esc"), keyMsg("d")); m.detailTab != TabDetail || m.focus != PaneDetail {
		t.Errorf("d after the chart opens tab %d, focus %d; want the details", m.detailTab, m.focus)
	}
	nothing := focusResults(t, base)
	nothing = update(nothing, keyMsg("c"))
	if _, cmd := nothing.Model.update(keyMsg("c")); cmd != nil || !strings.Contains(nothing.flash, "Nothing marked") {
		t.Errorf("c with nothing marked: asked for a dialog %v, flash %q", cmd != nil, nothing.flash)
	}
}

// focusResults is m with the focus on the results, by shift+tab and esc.
func focusResults(t *testing.T, m shown) shown {
	t.Helper()
	for range 10 {
		if m.focus != PaneForm {
			break
		}
		m = update(m, keyMsg("shift+tab"))
	}
	if m.focus == PaneDetail {
		m = update(m, keyMsg("esc"))
	}
	if m.focus != PaneResults {
		t.Fatalf("shift+tab and esc did not reach the results: pane %d", m.focus)
	}
	return m
}
