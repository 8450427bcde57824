package purchase

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// blocksBackend answers what the AWS backend answers of Capacity Blocks without a call:
// their capabilities and the platforms a block may be bought for.
type blocksBackend struct{ source.Backend }

func (blocksBackend) Caps(model.Source) source.Caps {
	return source.Caps{DryRun: true, Launch: true, PurchaseAction: "ec2:PurchaseCapacityBlock", ExtendAction: "ec2:PurchaseCapacityBlockExtension"}
}

func (blocksBackend) Platforms() []string {
	return []string{"Linux/UNIX", "Red Hat Enterprise Linux", "SUSE Linux", "Windows", "Ubuntu Pro"}
}

// The purchase dialog, LIVE and SIMULATED, on a fixed offering and clock, after the dry run
// allowed it: the goldens show the whole confirmation as a person reads it, without colour,
// where only words and borders tell the modes apart.
func TestPurchaseDialogGolden(t *testing.T) {
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
			env := uitest.Env(screen.Rect{W: 110, H: 37}, true) // the body of a 110×40 terminal
			env.Simulated = mode.simulated
			env.Backend = blocksBackend{}
			d, _ := New(env, uitest.Offering())
			dd := allowed(d, d)
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
