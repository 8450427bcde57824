package flows

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/ui"
)

// While a new search runs, the previous search's rows are shown marked as such, and enter
// on them opens no purchase: it says why. Nothing is bought that the screen did not show.
func TestStaleRowsCannotBeBought(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the default search found nothing")
	}
	// Slow every call down so that the second search is still running at the enter.
	sim.SetFaults(ec2sim.Faults{Latency: 1500 * time.Millisecond})
	s.Press("shift+tab", "a", "enter") // the regions: every one, and search
	s.WaitText("the rows shown are from the previous search")
	s.Press("enter")
	text := s.WaitText("nothing can be bought from them")
	if strings.Contains(text, "Buy a Capacity Block") {
		t.Fatalf("a purchase opened on the previous search's rows:\n%s", text)
	}
	s.Press("enter", "b", "u", "y", "enter")
	sim.SetFaults(ec2sim.Faults{})
	s.FoundCount()
	m := final(s)
	if m.Inspect().Dialog != nil {
		t.Errorf("dialog %T open after enter on stale rows", m.Inspect().Dialog)
	}
	if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations bought from stale rows", n)
	}
}
