package flows

import (
	"fmt"
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

// The header names the most severe warning, not only how many there are: a block
// terminating beside one expiring reads "✖ TERMINATING (2 warnings)", never "▲ 2 warnings",
// at every size.
func TestHeaderNamesTheMostSevereWarning(t *testing.T) {
	blk := func(i int, end time.Duration) model.Block {
		e := testNow.Add(end)
		return model.Block{ReservationID: fmt.Sprintf("cr-%017x", i), BlockID: fmt.Sprintf("cb-%017x", i), Region: "us-east-1",
			AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1, RunningCount: 1, State: model.StateActive,
			Start: e.Add(-48 * time.Hour), End: e, Interconnect: "ok",
			Instances: []model.Instance{{ID: fmt.Sprintf("i-%017x", i), State: "running", LaunchTime: e.Add(-48 * time.Hour)}}}
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := update(ui.New(testOptions(nil)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{blk(1, 35*time.Minute), blk(2, 10*time.Minute)}, Now: testNow}})
		head := ansi.Strip(strings.SplitN(m.View().Content, "\n", 2)[0])
		if !strings.Contains(head, "✖ TERMINATING (2 warnings)") {
			t.Errorf("%dx%d: the header does not name the terminating block first: %q", sz[0], sz[1], head)
		}
	}
}
