package search

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// In 80×24, 120×40 and 200×60 terminals, a search held back by AWS's rate says on its
// status line the calls done of all, the wait, and the slowest region's estimated end.
func TestPacedSearchShowsWaitAndEstimate(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			// The screen's clock is the emulator's, days ahead of the clock the buckets
			// were read by: the estimate counts from the step's arrival on the screen's.
			now := uitest.Now
			m := newShown(Options{}, func() time.Time { return now }, 0, 0).resize(sz[0], sz[1])
			q, _ := m.form.Query()
			m = m.startSearch(q)
			read := now.Add(-72 * time.Hour)
			st := model.RegionStatus{Region: "us-east-1", State: model.RegionSearching}
			// us-east-1: 28 left, 0.12 in hand, one call every 6.75 s: the next in 6s, the
			// last 188 s on.
			east := model.RegionProgress{Region: "us-east-1", Done: 12, Left: 28, Tokens: 0.12, Rate: 1 / 6.75, At: read}
			west := model.RegionProgress{Region: "us-west-2", Done: 4, Left: 2, Tokens: 1, Rate: 1 / 6.75, At: read}
			m = update(m, EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
				{Region: "us-east-1", Status: &st, CallsDone: 16, CallsTotal: 46, Progress: &east},
				{Region: "us-west-2", CallsDone: 16, CallsTotal: 46, Progress: &west},
			}})
			v := m.view()
			for _, want := range []string{"16 of 46 calls", "waiting 6s for AWS's rate", "done in ~3m (us-east-1)"} {
				if !strings.Contains(v, want) {
					t.Errorf("no %q on screen:\n%s", want, v)
				}
			}
			// The header says it on every screen, where its long form fits.
			if _, head := m.HeaderNote(); sz[0] >= 200 && !strings.Contains(head, "16 of 46 calls · waiting 6s for AWS's rate · done in ~3m (us-east-1)") {
				t.Errorf("the header does not carry the search's progress: %q", head)
			}
			// With no new step, both count down as the screen's clock goes on.
			now = now.Add(150 * time.Second)
			m.SetNow(now)
			if v := m.view(); !strings.Contains(v, "done in ~38s (us-east-1)") || strings.Contains(v, "waiting 6s") {
				t.Errorf("150 s on, the estimate did not count down:\n%s", v)
			}
		})
	}
}
