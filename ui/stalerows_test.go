package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// While a new search runs, the previous search's rows are shown marked as such, and enter
// on them opens no purchase: it says why. Nothing is bought that the screen did not show.
func TestStaleRowsCannotBeBought(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	s := newScreen(t, New(actionTestOptions(b)), 160, 48)
	s.waitText("123456789012")
	s.press("enter")
	if foundCount(t, s) == 0 {
		t.Fatal("the default search found nothing")
	}
	// Slow every call down so that the second search is still running at the enter.
	sim.SetFaults(ec2sim.Faults{Latency: 1500 * time.Millisecond})
	s.press("shift+tab", "a", "enter") // the regions: every one, and search
	s.waitText("the rows shown are from the previous search")
	s.press("enter")
	text := s.waitText("nothing can be bought from them")
	if strings.Contains(text, "Buy a Capacity Block") {
		t.Fatalf("a purchase opened on the previous search's rows:\n%s", text)
	}
	s.press("enter", "b", "u", "y", "enter")
	sim.SetFaults(ec2sim.Faults{})
	foundCount(t, s)
	m := s.final()
	if m.dialog != nil {
		t.Errorf("dialog %T open after enter on stale rows", m.dialog)
	}
	if n := len(reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations bought from stale rows", n)
	}
}

// A purchase dialog open when its rows are replaced (a new search's first offerings) is
// closed, saying why; an offering picked before a new search started opens nothing.
func TestPurchaseClosesWhenItsRowsAreReplaced(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(withResults(New(testOptions(b)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	o, _ := m.search().Table().Selected()
	rows := m.search().Rows()
	m = update(m, uiscreen.OpenPurchase{Offering: o, FromRows: true, Rows: rows})
	if _, ok := m.dialog.(purchase.Model); !ok {
		t.Fatalf("the purchase did not open: dialog %T, flash %q", m.dialog, m.flash)
	}
	mm, _ := m.startSearch(m.search().Query())
	m = mm.(Model)
	if m.dialog != nil || !strings.Contains(m.flash, "Closed the purchase dialog: The search was run again") {
		t.Fatalf("the dialog stayed over the new search: dialog %T, flash %q", m.dialog, m.flash)
	}
	// The message of a key pressed before the search started arrives after it.
	m = update(m, uiscreen.OpenPurchase{Offering: o, FromRows: true, Rows: rows})
	if m.dialog != nil || !strings.Contains(m.flash, "The search was run again") {
		t.Fatalf("a purchase opened on replaced rows: dialog %T, flash %q", m.dialog, m.flash)
	}
}
