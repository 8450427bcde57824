package flows

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// e on a block marked CAN'T EXTEND says why at once and opens nothing: no length is asked
// of AWS (the backend here has none to ask), at every size.
func TestExtendPastTheCutoffAsksNothing(t *testing.T) {
	end := testNow.Add(45 * time.Minute)
	b := model.Block{ReservationID: "cr-0000000000000000a", BlockID: "cb-0000000000000000a", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", TotalCount: 1, RunningCount: 1, State: model.StateActive, Start: end.Add(-48 * time.Hour), End: end, Interconnect: "ok",
		Instances: []model.Instance{{ID: "i-0000000000000000a", State: "running", LaunchTime: end.Add(-48 * time.Hour)}}}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := update(ui.New(testOptions(nil)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{b}, Now: testNow}})
		if !strings.Contains(ansi.Strip(m.View().Content), "CAN'T EXTEND") {
			t.Fatalf("%dx%d: the block is not marked CAN'T EXTEND:\n%s", sz[0], sz[1], ansi.Strip(m.View().Content))
		}
		m = updateOpen(m, uitest.Key("e"))
		if m.Inspect().Dialog != nil {
			t.Fatalf("%dx%d: e opened a dialog on a block past its extension cutoff", sz[0], sz[1])
		}
		view := strings.Join(strings.Fields(ansi.Strip(m.View().Content)), " ")
		if !strings.Contains(view, "can no longer be extended") {
			t.Errorf("%dx%d: nothing says why:\n%s", sz[0], sz[1], ansi.Strip(m.View().Content))
		}
	}
}
