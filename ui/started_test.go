package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// An offering that has started opens no purchase, from whichever screen it is asked (the
// advisor's calendar asks without rows): the root says why.
func TestStartedOfferingOpensNoPurchase(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(withResults(New(testOptions(b)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	o, _ := m.search().Table().Selected()
	o.Start = m.pc.Now().Add(-1)
	m = update(m, uiscreen.OpenPurchase{Offering: o})
	if m.dialog != nil || !strings.Contains(m.flash, "started at") || !strings.Contains(m.flash, "nothing was bought") {
		t.Fatalf("dialog %T, flash %q", m.dialog, m.flash)
	}
}
