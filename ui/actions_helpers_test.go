package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/launch"
)

// actionTestOptions are the test options with a short poll, so that receipts and launches
// look at their block again at once (the emulator's clock only moves when a test moves it).
func actionTestOptions(b source.Backend) Options {
	o := testOptions(b)
	o.PollInterval = 5 * time.Millisecond
	return o
}

// searchedRegions is where the form's default search looks.
func searchedRegions(t *testing.T) []string {
	t.Helper()
	m, _ := startedSearch(New(testOptions(nil)), submitted)
	q := m.search().Query()
	if len(q.Regions) == 0 {
		t.Fatalf("the default form has no query: %+v", q)
	}
	return q.Regions
}

// boughtBlock buys, through the adapter, the first p5.48xlarge offering of us-east-1, for
// the launch tests: it returns the offering and the reservation.
func boughtBlock(t *testing.T, c *awsapi.Client) (model.Offering, model.Block) {
	t.Helper()
	ctx := context.Background()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: testNow, End: testNow.Add(14 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	var offs []model.Offering
	for ev := range capacityblocks.New(c).Search(ctx, q) {
		offs = append(offs, ev.Offerings...)
	}
	if len(offs) == 0 {
		t.Fatal("no offering to buy")
	}
	o := offs[0]
	res, err := capacityblocks.New(c).Purchase(ctx, o, "", nil)
	if err != nil || res.Block.ReservationID == "" {
		t.Fatalf("buying %s: %+v, %v", o.ID, res, err)
	}
	return o, res.Block
}

// blockNow is the reservation as the adapter lists it now.
func blockNow(t *testing.T, c *awsapi.Client, id string) model.Block {
	t.Helper()
	for _, b := range reservations(t, c, "us-east-1") {
		if b.ReservationID == id {
			return b
		}
	}
	t.Fatalf("reservation %s is not listed", id)
	return model.Block{}
}

// dialogHost runs the root model with a dialog already open, as the blocks screen opens
// the launch form, and starts the dialog's own commands with the root's.
type dialogHost struct {
	Model
	init tea.Cmd
}

func (h dialogHost) Init() tea.Cmd { return tea.Batch(h.Model.Init(), h.init) }

func (h dialogHost) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	mm, cmd := h.Model.Update(msg)
	h.Model = mm.(Model)
	return h, cmd
}

// newLaunchScreen opens the launch form on a block in a running UI.
func newLaunchScreen(t *testing.T, b source.Backend, blk model.Block, simulated bool) *screen {
	t.Helper()
	opts := actionTestOptions(b)
	opts.Simulated = simulated
	m := New(opts)
	m.pc.Width, m.pc.Height = 160, 48
	d, cmd := launch.New(m.actionEnv(), blk)
	m.dialog = d
	return newScreenOf(t, dialogHost{m, cmd}, 160, 48)
}

func finalHost(t *testing.T, s *screen) Model {
	t.Helper()
	s.press("ctrl+c")
	return s.tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(dialogHost).Model
}

var _ = ec2sim.Faults{}
