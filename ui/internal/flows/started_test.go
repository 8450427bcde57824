package flows

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// An offering that has started opens no purchase, from whichever screen it is asked (the
// advisor's calendar asks without rows): the root says why.
func TestStartedOfferingOpensNoPurchase(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(withResults(ui.New(testOptions(b)), uitest.SyntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	o, _ := m.Inspect().Search.Table().Selected()
	o.Start = testNow.Add(-1)
	m = update(m, uiscreen.OpenPurchase{Offering: o})
	if m.Inspect().Dialog != nil || !strings.Contains(m.Inspect().Flash, "started at") || !strings.Contains(m.Inspect().Flash, "nothing was bought") {
		t.Fatalf("dialog %T, flash %q", m.Inspect().Dialog, m.Inspect().Flash)
	}
}
