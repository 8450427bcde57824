package ui

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/program"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
)

// The purchase dialog, LIVE and SIMULATED, on a fixed offering and clock, after the dry run
// allowed it: the goldens show the whole confirmation as a person reads it, without colour,
// where only words and borders tell the modes apart.
func TestPurchaseDialogGolden(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	for _, mode := range []struct {
		name      string
		simulated bool
		must      []string
		mustNot   string
	}{
		{"LIVE", false, []string{"╔═ LIVE — REAL MONEY", "LIVE — REAL MONEY  this buys a real Capacity Block on account 123456789012"}, "SIMULATED"},
		{"SIMULATED", true, []string{"╭┄ SIMULATED — nothing real", "SIMULATED  the emulator: nothing real is bought"}, "REAL MONEY"},
	} {
		t.Run(mode.name, func(t *testing.T) {
			opts := testOptions(b)
			opts.Simulated = mode.simulated
			m := update(New(opts), tea.WindowSizeMsg{Width: 110, Height: 40})
			env := m.actionEnv()
			env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
			d, _ := purchase.New(env, fixedOffering())
			dd, _, _ := d.Update(d.Answered(source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlock"}, nil))
			view := ansi.Strip(dd.View(110, 37))
			for _, s := range mode.must {
				if !strings.Contains(view, s) {
					t.Errorf("lacks %q:\n%s", s, view)
				}
			}
			if strings.Contains(view, mode.mustNot) {
				t.Errorf("a %s dialog says %q:\n%s", mode.name, mode.mustNot, view)
			}
			for _, s := range []string{"$6,211.12 USD", "exactly $6211.123456", "2026-12-03 11:30 UTC · 2026-12-03 03:30 PST", model.Irrevocable[:50]} {
				if !strings.Contains(view, s) {
					t.Errorf("lacks %q:\n%s", s, view)
				}
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// A LIVE dialog against the emulator, through the root: its dress and its dry run.
func TestPurchaseDialogLiveAgainstEmulator(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	opts := actionTestOptions(b)
	opts.Simulated = false
	s := newScreen(t, New(opts), 160, 48)
	searchAndOpen(t, s)
	text := s.waitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	mustContain(t, text, "╔═ LIVE — REAL MONEY", "this buys a real Capacity Block on account 123456789012", "║")
	if strings.Contains(text, "SIMULATED —") {
		t.Errorf("a LIVE dialog dressed as SIMULATED:\n%s", text)
	}
	s.press("esc")
	s.waitText("Cancelled: nothing was bought.")
	s.final()
}
