package search

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// Before the first search the results pane says that the form is a search already, whole
// at any width (wrapped, never cut).
func TestFirstHintSaysTheFormIsASearch(t *testing.T) {
	for _, w := range []int{60, 100, 160} {
		m := New(uitest.Context(false), Options{Region: "us-east-1"})
		m.Resize(screen.Area{Top: 1, Width: w, Height: 40})
		pane := ansi.Strip(m.resultsView(m.layout()))
		flat := strings.Join(strings.Fields(pane), " ")
		if !strings.Contains(flat, "filled in with a search already") || !strings.Contains(flat, "press enter to search it as it is, or change any field first.") {
			t.Errorf("width %d:\n%s", w, pane)
		}
	}
}
