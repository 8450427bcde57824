package flows

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

var terminalSizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// A block whose instance the emulator terminated at the block's termination (30 minutes
// before its end) still lists the instance in its detail, terminated, with when it
// stopped, at every size: not "Instances (0)".
func TestBlocksDetailKeepsTerminatedInstanceAtTerminalSizes(t *testing.T) {
	for _, sz := range terminalSizes {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		c, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
		sim.SetTime(o.Start.Add(time.Hour))
		if _, err := capacityblocks.New(c).Launch(context.Background(), sourcestest.AwaitBlock(t, b, bought.ReservationID), source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
			t.Fatalf("launch: %v", err)
		}
		running := sourcestest.BlockNow(t, c, bought.ReservationID)
		if len(running.Instances) != 1 {
			t.Fatalf("launched %d instances, want 1", len(running.Instances))
		}
		id := running.Instances[0].ID
		sim.SetTime(o.End.Add(-20 * time.Minute))
		opts := testOptions(b)
		opts.StartOnBlocks = true
		s := newScreen(t, ui.New(opts), sz[0], sz[1])
		s.WaitText("1 of 1")
		s.Press("enter")
		stopped := "stopped " + o.End.Add(-30*time.Minute).UTC().Format("Jan 02 15:04 UTC")
		// Where the pane is shorter than the detail, j scrolls it down to the instances.
		text := s.WaitFor("the instance in the detail", func(text string) bool {
			if strings.Contains(text, id) && strings.Contains(text, stopped) {
				return true
			}
			s.Press("j")
			return false
		})
		// The instance's line, and the one under it where the pane is too narrow for both.
		lines := strings.Split(text, "\n")
		line := ""
		for i, l := range lines {
			if strings.Contains(l, id) && i+1 < len(lines) {
				line = l + lines[i+1]
			}
		}
		if !strings.Contains(line, "terminated") || !strings.Contains(line, stopped) {
			t.Errorf("%dx%d: the detail does not keep the terminated instance with %q: %q\n%s", sz[0], sz[1], stopped, line, text)
		}
		final(s)
	}
}

// With every region failing alike (this identity may call nothing), the blocks screen
// names the regions together in one problem, not one problem per region, at every size.
func TestBlocksSaysARegionsSharedFailureOnceAtTerminalSizes(t *testing.T) {
	regions := "ap-northeast-1, ap-south-1, ap-southeast-2, eu-north-1, eu-west-2, us-east-1, us-east-2, us-west-2 could not be listed: AWS refused the call"
	for _, sz := range terminalSizes {
		b, _ := emulatorBackend(t, ec2sim.Faults{Deny: []string{"all"}})
		opts := testOptions(b)
		opts.StartOnBlocks = true
		s := newScreen(t, ui.New(opts), sz[0], sz[1])
		text := s.WaitFor("the failure", func(text string) bool { return strings.Contains(text, "could not be") })
		flat := unwrapPane(text)
		if n := strings.Count(flat, "could not be listed: AWS refused the call"); !strings.Contains(flat, regions) || n != 2 {
			// The two: the regions' problem, and the listing's own failure below it.
			t.Errorf("%dx%d: the regions are not named together once (%d times \"could not be listed\"):\n%s", sz[0], sz[1], n, text)
		}
		if n := strings.Count(flat, "us-west-2"); n != 1 {
			t.Errorf("%dx%d: us-west-2 named %d times, want once:\n%s", sz[0], sz[1], n, text)
		}
		final(s)
	}
}

// unwrapPane joins a screen's lines without the panes' borders, so that a sentence wrapped
// at the pane's width reads whole.
func unwrapPane(text string) string {
	var b strings.Builder
	for _, l := range strings.Split(text, "\n") {
		b.WriteString(strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "┃│")))
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func loadedBlocks(t *testing.T, w, h int) ui.Model {
	t.Helper()
	m := update(ui.New(testOptions(nil)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: w, Height: h})
	return update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: uitest.LongBlocks(6), Now: testNow}})
}

// blocksPage is the selected block's detail as the model lays it out now.
func blocksPage(t *testing.T, m ui.Model) pager.Page {
	t.Helper()
	_, d := m.Inspect().Blocks.Panes()
	p, ok := m.Inspect().Blocks.DetailPage(d.W-2, d.H-2)
	if !ok {
		t.Fatal("no block selected")
	}
	return p
}

// Scrolled in one size and drawn in all, the blocks screen still fits every terminal:
// the scroll is kept within the lines each size has.
func TestBlocksDetailScrolledFits(t *testing.T) {
	states := map[string]ui.Model{
		"blocks detail scrolled":      update(loadedBlocks(t, 60, 16), uitest.Key("enter"), uitest.Key("G")),
		"blocks detail scrolled some": update(loadedBlocks(t, 80, 24), uitest.Key("d"), uitest.Key("j"), uitest.Key("j"), tea.KeyPressMsg{Code: tea.KeyPgDown}),
		"blocks detail scrolled wide": update(loadedBlocks(t, 120, 30), uitest.Key("tab"), uitest.Key("G")),
	}
	for name, m := range states {
		if m.Inspect().Blocks.Scroll().Top(blocksPage(t, m)) == 0 {
			t.Fatalf("%s: the detail is not scrolled", name)
		}
		for w := 20; w <= 400; w += 29 {
			for h := 5; h <= 120; h += 9 {
				checkFits(t, name, update(m, tea.WindowSizeMsg{Width: w, Height: h}), w, h)
			}
		}
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {59, 15}, {60, 16}, {119, 29}, {120, 30}, {400, 120}, {1, 1}} {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}
