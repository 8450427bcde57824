package flows

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// otherMachine is a client of the same emulator with a journal of its own: purchases
// made from another machine.
func otherMachine(t *testing.T, b source.Backend) *awsapi.Client {
	t.Helper()
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: sourcestest.ClientOf(t, b).Endpoint(), Version: "test",
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Join(t.TempDir(), "elsewhere")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func buyIn(t *testing.T, c *awsapi.Client, region string) model.Block {
	t.Helper()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: testNow.Add(24 * time.Hour), End: testNow.Add(9 * 24 * time.Hour), Regions: []string{region}}
	var best model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		for _, o := range ev.Offerings {
			if best.ID == "" || o.Fee.Cmp(best.Fee) < 0 {
				best = o
			}
		}
	}
	if best.ID == "" {
		t.Fatalf("no offering in %s", region)
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), best, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Block
}

// Blocks bought in three regions from another machine show on a fresh start, the search
// form untouched (its region is us-east-1), with no fee paid known here.
func TestBlocksOfEveryRegionOnAFreshStart(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	other := otherMachine(t, b)
	var ids []string
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-west-2"} {
		ids = append(ids, buyIn(t, other, r).ReservationID)
	}
	opts := testOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, ui.New(opts), 200, 48)
	text := s.WaitFor("the three blocks", func(text string) bool {
		for _, id := range ids {
			if !strings.Contains(text, id) {
				return false
			}
		}
		return true
	})
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-west-2"} {
		if !strings.Contains(text, r) {
			t.Errorf("region %s not shown:\n%s", r, text)
		}
	}
	if !strings.Contains(text, "3 blocks in 8 regions") {
		t.Errorf("the status does not say 3 blocks in every region:\n%s", text)
	}
	final(s)
}

// Each new warning goes to Notify once per block and lead, however often the blocks are
// listed and the clock ticks; notifications switched off (n) do not stop it.
func TestNotifyEachWarningOnceFromTheTUI(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	var mu sync.Mutex
	got := map[string]int{}
	opts := testOptions(b)
	opts.StartOnBlocks, opts.NoNotify = true, true
	opts.WarnRules = model.NewWarnRules([]time.Duration{24 * time.Hour, 2 * time.Hour})
	opts.Notify = func(_ context.Context, blk model.Block, w model.Warning, _ time.Time) []string {
		mu.Lock()
		got[w.Key(blk)]++
		mu.Unlock()
		return nil
	}
	sim.SetTime(o.Start.Add(time.Hour))
	s := newScreen(t, ui.New(opts), 200, 40)
	for _, before := range []time.Duration{23 * time.Hour, 22 * time.Hour, 90 * time.Minute, 50 * time.Minute, 35 * time.Minute, 34 * time.Minute, 20 * time.Minute} {
		at := o.End.Add(-before)
		sim.SetTime(at)
		s.Press("r")
		s.WaitFor("the listing at "+at.Format("15:04"), func(text string) bool { return strings.Contains(text, "as of "+at.UTC().Format("15:04")) })
	}
	end := o.End.UTC().Format(time.RFC3339)
	id := bought.ReservationID
	want := []string{id + "/idle", id + "/extend-by/24h0m0s/" + end, id + "/extend-by/2h0m0s/" + end,
		id + "/cant-extend/" + end, id + "/expiring/" + end, id + "/terminating/" + end}
	waitUntil(t, "every warning delivered", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= len(want)
	})
	final(s)
	mu.Lock()
	defer mu.Unlock()
	for _, k := range want {
		if got[k] != 1 {
			t.Errorf("%s delivered %d times, want once (all: %v)", k, got[k], got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("delivered %v, want %v", got, want)
	}
}

// waitUntil polls a condition instead of sleeping for it.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: timed out", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// e opens the list of every length the emulator offers, the configured length selected;
// each row is what the emulator offers for its length.
func TestExtendListShowsWhatAWSOffers(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	opts := testOptions(b)
	opts.StartOnBlocks, opts.ExtendDays = true, 3
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "active") })
	s.Press("e")
	text := s.WaitLengths()
	blk := sourcestest.BlockNow(t, c, bought.ReservationID)
	choices, err := capacityblocks.New(c).ExtensionChoices(context.Background(), blk, nil)
	if err != nil || len(choices) < 3 {
		t.Fatalf("the emulator offers %d lengths, %v; the test wants at least 3", len(choices), err)
	}
	if !strings.Contains(text, fmt.Sprintf("%d length(s) offered now", len(choices))) {
		t.Errorf("the dialog does not count %d lengths:\n%s", len(choices), text)
	}
	for _, ch := range choices[:3] {
		row := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, " "+model.FormatDays(ch.Days)+" ") && strings.Contains(l, ch.Offering.Fee.Dollars()) {
				row = l
			}
		}
		if row == "" || !strings.Contains(row, ch.Offering.End.UTC().Format("2006-01-02 15:04")) {
			t.Errorf("%s: no row with its fee %s and new end:\n%s", model.FormatDays(ch.Days), ch.Offering.Fee.Dollars(), text)
		}
		if ch.Days == 3 && !strings.Contains(row, "› 3d") {
			t.Errorf("the configured 3d is not selected: %q", row)
		}
	}
	s.Press("enter")
	text = s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	var three model.ExtensionChoice
	for _, ch := range choices {
		if ch.Days == 3 {
			three = ch
		}
	}
	if three.Days == 0 || !strings.Contains(text, three.Offering.ID) {
		t.Errorf("enter did not take the 3d offering %s:\n%s", three.Offering.ID, text)
	}
	s.Press("esc")
	final(s)
}

// A region that could not be read is named with its error under the status line, whole
// even at 80 columns, on every listing that fails it.
func TestBlocksNameFailedRegions(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.AltKey('2'))
	problems := []source.BlockProblem{{Region: "eu-north-1", Message: "EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly."}}
	for i := 0; i < 2; i++ {
		m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow, Problems: problems}})
		v := ansi.Strip(m.View().Content)
		flat := strings.Join(strings.Fields(strings.ReplaceAll(v, "┃", " ")), " ")
		if !strings.Contains(flat, "✖ eu-north-1 could not be listed: EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly.") {
			t.Errorf("listing %d: the failed region is not named whole:\n%s", i+1, v)
		}
	}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow}})
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "could not be listed") {
		t.Errorf("a region that answered is still named:\n%s", v)
	}
}

// The regions' problems take lines from the table, not from the frame: with many blocks and
// a failed region, the pane's lines still fit its height, so the last rows (the cursor's)
// are never cut off by the frame.
func TestBlocksProblemsKeepTheTableInTheFrame(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.AltKey('2'))
	var list []model.Block
	for i := 0; i < 30; i++ {
		list = append(list, model.Block{ReservationID: fmt.Sprintf("cr-%017d", i), Region: "us-east-1", AvailabilityZone: "us-east-1a",
			InstanceType: "p5.48xlarge", TotalCount: 1, State: model.StateScheduled,
			Start: testNow.Add(time.Duration(i+1) * time.Hour), End: testNow.Add(time.Duration(i+25) * time.Hour)})
	}
	problems := []source.BlockProblem{{Region: "eu-north-1", Message: "EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly; " + strings.Repeat("details ", 12)}}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: list, Now: testNow, Problems: problems}})
	if len(m.Inspect().Blocks.ProblemLines(78)) < 2 {
		t.Fatal("the problem does not wrap onto several lines; the test needs it to")
	}
	for _, h := range []int{5, 10, 20} {
		if n := len(strings.Split(m.Inspect().Blocks.TableView(78, h), "\n")); n > h {
			t.Errorf("the blocks pane of %d lines drew %d", h, n)
		}
	}
}
