package flows

import (
	"context"
	"math/rand"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// checkFits fails when a frame has more lines than the terminal, or a line wider than it.
func checkFits(t *testing.T, name string, m ui.Model, w, h int) {
	t.Helper()
	uitest.CheckFits(t, name, m.View().Content, w, h)
}

// sizes are the terminal sizes every frame must fit.
var sizes = uitest.Sizes

// Every state of the screen, at every size from 20×5 to 400×120, draws within the
// terminal: no line wider, no more lines than it has (the notice and a long flash, which
// only the root sets, are swept in the root's tests).
func TestEverySizeFits(t *testing.T) {
	base := ui.New(testOptions(nil))
	results := withResults(base, uitest.SyntheticOfferings(500))
	states := map[string]ui.Model{
		"form":     base,
		"results":  results,
		"detail":   update(results, uitest.Key("j"), uitest.Key("enter")),
		"help":     update(results, uitest.Key("?")),
		"filter":   update(results, uitest.Key("/"), uitest.Key("p"), uitest.Key("5")),
		"empty":    withResults(base, nil),
		"badform":  update(base, uitest.Key("tab"), uitest.Key("ctrl+u"), uitest.Key("0"), uitest.Key("tab"), uitest.Key("x")),
		"regions":  update(base, uitest.Key("tab"), uitest.Key("tab"), uitest.Key("tab"), uitest.Key("tab"), uitest.Key("tab")),
		"narrowed": update(results, uitest.Key("tab"), uitest.Key("tab")),
		// Scrolled in one size, drawn in all: the scroll is kept within the lines of each.
		"detail scrolled":      update(results, tea.WindowSizeMsg{Width: 60, Height: 16}, uitest.Key("d"), uitest.Key("G")),
		"detail scrolled some": update(results, tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Key("d"), uitest.Key("j"), uitest.Key("j"), tea.KeyPressMsg{Code: tea.KeyPgDown}),
		"detail scrolled wide": update(results, tea.WindowSizeMsg{Width: 120, Height: 30}, uitest.Key("tab"), uitest.Key("G")),
	}
	for _, name := range []string{"detail scrolled", "detail scrolled some", "detail scrolled wide"} {
		if m := states[name]; detailTop(m) == 0 {
			t.Fatalf("%s: the detail is not scrolled", name)
		}
	}
	for name, m := range chartStates(base, results) {
		states[name] = m
	}
	for name, m := range blocksStates(base) { // blocks_test.go
		states[name] = m
	}
	for name, m := range watchStates(t) { // watchnotify_test.go
		states[name] = m
	}
	for name, m := range states {
		uitest.FitsEverySize(t, name, m)
	}
}

func TestTooSmallSaysSo(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 40, Height: 10})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Terminal too small: 40×10") || !strings.Contains(v, "at least 60×16") {
		t.Errorf("at 40×10:\n%s", v)
	}
}

// A storm of resizes while a search streams in and keys arrive: no panic, and the last size
// wins.
func TestResizeStorm(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	sim.SetFaults(ec2sim.Faults{Latency: 20 * time.Millisecond, Jitter: 10 * time.Millisecond})
	s := newScreen(t, ui.New(testOptions(b)), 120, 40)
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	rng := rand.New(rand.NewSource(1))
	keys := []string{"j", "k", "F", "A", "tab", "shift+tab", "G", "g", "?", "esc"}
	for i := 0; i < 300; i++ {
		s.TM.Send(tea.WindowSizeMsg{Width: 1 + rng.Intn(400), Height: 1 + rng.Intn(120)})
		if i%10 == 0 {
			s.Press(keys[rng.Intn(len(keys))])
		}
	}
	s.TM.Send(tea.WindowSizeMsg{Width: 133, Height: 41})
	// The frames of the storm are not fed to the emulated terminal: it keeps its 120×40, and
	// x/vt indexes past its buffer on a frame drawn for a taller screen. final takes every
	// message in order, so the last size is the one Update saw last.
	m := final(s)
	if m.Inspect().Width != 133 || m.Inspect().Height != 41 {
		t.Errorf("size %dx%d after the storm, want the last one, 133x41", m.Inspect().Width, m.Inspect().Height)
	}
	checkFits(t, "after the storm", m, 133, 41)
}

// The dialogs that spend money, as their keys open them over a screen, fit every size from
// 20×5 to 400×120 and never panic: the root gives each the body under its header and
// footer. Each dialog's every state is tested at every size in its package.
func TestActionDialogsFitEverySize(t *testing.T) {
	base := update(withResults(ui.New(openable()), uitest.SyntheticOfferings(50)), tea.WindowSizeMsg{Width: 160, Height: 48})
	blocks := blocksStates(base)["blocks"]
	states := map[string]ui.Model{
		"purchase": opened(t, base, uitest.Key("enter")),
		"launch":   opened(t, blocks, uitest.Key("l")),
		"extend":   opened(t, blocks, uitest.Key("e")),
		"use":      opened(t, blocks, uitest.Key("u")),
	}
	for name, m := range states {
		for _, sz := range sizes() {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}

// opened is m after key k and the dialog it asked the root to open; the dialog's own calls
// are not run.
func opened(t *testing.T, m ui.Model, k tea.KeyPressMsg) ui.Model {
	t.Helper()
	m = uitest.Press(m, k, uitest.OpensDialog)
	if m.Inspect().Dialog == nil {
		t.Fatalf("%s opened no dialog:\n%s", k, m.View().Content)
	}
	return m
}

// openable is the test options with a callless backend.
func openable() ui.Options { return testOptions(uitest.Callless{}) }

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
		s := blocksScreen(t, testOptions(b), sz[0], sz[1])
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
		s := blocksScreen(t, testOptions(b), sz[0], sz[1])
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
	return blocksListed(testOptions(nil), source.BlockList{Blocks: uitest.LongBlocks(6), Now: testNow}, w, h)
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
