package flows

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

var segmentsRE = regexp.MustCompile(`(\d+) segments`)

// An offering made of segments, through the terminal UI: its row in the table says how
// many segments it has, and the typed confirmation lists every segment and how many
// reservations the purchase makes; buying it makes them all, and the receipt names each.
func TestSegmentedOfferingRowAndConfirmation(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("tab", "ctrl+u")
	s.Type("60")
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the search for 60 found nothing")
	}
	text := s.WaitFor("a row made of segments", segmentsRE.MatchString)
	n, _ := strconv.Atoi(segmentsRE.FindStringSubmatch(text)[1])
	if n < 2 {
		t.Fatalf("a row of %d segments:\n%s", n, text)
	}
	uitest.MustContain(t, text, "Segments    "+strconv.Itoa(n)+", bought together")

	// The first row is selected: the confirmation lists every one of its segments.
	s.Press("enter")
	text = s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	uitest.MustContain(t, text, "Buy a Capacity Block", "Reservations", strconv.Itoa(n)+": one capacity reservation per segment", "total for all "+strconv.Itoa(n)+" segments")
	for i := 1; i <= n; i++ {
		uitest.MustContain(t, text, "Segment "+strconv.Itoa(i))
	}
	if got := len(sourcestest.Reservations(t, c, "us-east-1")); got != 0 {
		t.Fatalf("%d reservations before the confirmation", got)
	}
	s.Type("buy")
	s.Press("enter")
	text = s.WaitText("BOUGHT")
	uitest.MustContain(t, text, "Reservations", strconv.Itoa(n)+", one per segment", "1 of "+strconv.Itoa(n), strconv.Itoa(n)+" of "+strconv.Itoa(n))
	final(s)
	bought := sourcestest.Reservations(t, c, "us-east-1")
	if len(bought) != n {
		t.Fatalf("%d reservations after buying %d segments", len(bought), n)
	}
	for _, r := range bought {
		if !strings.Contains(text, r.ReservationID) {
			t.Errorf("the receipt does not name %s:\n%s", r.ReservationID, text)
		}
	}
}
