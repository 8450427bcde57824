package flows

import (
	"math/rand"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
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
