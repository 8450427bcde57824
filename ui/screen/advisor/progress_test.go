package advisor

import (
	"context"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// While the run's searches stream, the status says how many are done and what AWS's
// bucket makes the rest take: the searches' calls left added up in the region they share.
func TestRunSaysWhatIsLeft(t *testing.T) {
	n := 0
	paced := func(ctx context.Context, q model.Query) <-chan Page {
		n++
		ch := make(chan Page, 1) // left open: the search is still running
		// Each search has 3 calls left in us-east-1, whose bucket is empty and refills 0.5 a second.
		ch <- Page{Region: "us-east-1", Progress: &model.RegionProgress{Region: "us-east-1", Done: 1, Left: 3, Rate: 0.5, At: now}}
		return ch
	}
	m := New(uitest.Context(false), Options{Search: paced})
	m, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) < 2 {
		t.Fatalf("the run started %T, want several searches", cmd())
	}
	for _, c := range batch[:2] { // two searches have reported, none has ended
		m, _ = m.Update(c())
	}
	status := ansi.Strip(m.statusText())
	// 6 calls left from an empty bucket at 0.5 a second: the last can go in 12 s.
	if want := "searching… 0 of " + strconv.Itoa(len(batch)) + " searches done"; !strings.Contains(status, want) || !strings.Contains(status, "done in ~12s (us-east-1)") {
		t.Fatalf("status %q", status)
	}
}
