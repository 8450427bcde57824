package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// In 80×24, 120×40 and 200×60 terminals, a search held back by AWS's rate says on its
// status line the calls done of all, the wait, and the slowest region's estimated end.
func TestPacedSearchShowsWaitAndEstimate(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			q, _ := m.search().Form().Query()
			mm, _ := m.startSearch(q)
			m = mm.(Model)
			now := testNow
			st := model.RegionStatus{Region: "us-east-1", State: model.RegionSearching}
			east := model.RegionProgress{Region: "us-east-1", Done: 12, Left: 28, Wait: 6 * time.Second, End: now.Add(3*time.Minute + 10*time.Second)}
			west := model.RegionProgress{Region: "us-west-2", Done: 4, Left: 2, End: now.Add(10 * time.Second)}
			m = update(m, searchEventsMsg{ID: m.search().SearchID(), Events: []source.SearchEvent{
				{Region: "us-east-1", Status: &st, CallsDone: 16, CallsTotal: 46, Progress: &east},
				{Region: "us-west-2", CallsDone: 16, CallsTotal: 46, Progress: &west},
			}})
			v := ansi.Strip(m.View().Content)
			for _, want := range []string{"16 of 46 calls", "waiting 6s for AWS's rate", "done in ~3m (us-east-1)"} {
				if !strings.Contains(v, want) {
					t.Errorf("no %q on screen:\n%s", want, v)
				}
			}
			// The header says it on every screen, where its long form fits.
			if head := strings.SplitN(v, "\n", 2)[0]; sz[0] >= 200 && !strings.Contains(head, "16 of 46 calls · waiting 6s for AWS's rate · done in ~3m (us-east-1)") {
				t.Errorf("the header does not carry the search's progress: %q", head)
			}
		})
	}
}
