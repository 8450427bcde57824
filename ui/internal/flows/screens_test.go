package flows

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog/extend"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// The blocks screen asks for its dialogs with a message; the root opens the first one asked
// for, and a second key typed before it opened (l after e) does not replace it.
func TestBlocksDialogAskedTwiceOpensTheFirst(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}, uitest.AltKey('2'))
	active := model.Block{ReservationID: "cr-active", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 1, State: model.StateActive, Start: testNow.Add(-time.Hour), End: testNow.Add(30 * time.Hour)}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{active}, Now: testNow}})
	mm, askExtend := m.Update(uitest.Key("e"))
	m = mm.(ui.Model)
	mm, askLaunch := m.Update(uitest.Key("l"))
	m = mm.(ui.Model)
	if m.Inspect().Dialog != nil || askExtend == nil || askLaunch == nil {
		t.Fatalf("e and l: dialog %T before their messages, commands %v %v", m.Inspect().Dialog, askExtend, askLaunch)
	}
	m = update(m, askExtend())
	if _, ok := m.Inspect().Dialog.(extend.Model); !ok {
		t.Fatalf("e opened %T, want the extend dialog", m.Inspect().Dialog)
	}
	m = update(m, askLaunch())
	if _, ok := m.Inspect().Dialog.(extend.Model); !ok {
		t.Errorf("l typed before the extend dialog opened replaced it with %T", m.Inspect().Dialog)
	}
}
