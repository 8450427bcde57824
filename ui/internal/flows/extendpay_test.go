package flows

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// extendOnScreen opens the blocks screen on an active block (short polls), extends it by
// two days and returns when the dialog says the extension is bought, its payment pending.
func extendOnScreen(t *testing.T, payFail bool) (s *screen, b source.Backend, sim *ec2sim.Server, o model.Offering, bought model.Block) {
	t.Helper()
	b, sim = emulatorBackend(t, ec2sim.Faults{})
	_, o, bought = sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	if payFail {
		sim.SetFaults(ec2sim.Faults{PayFail: 1}) // the block is paid; its extension's payment fails
	}
	opts := actionTestOptions(b)
	opts.StartOnBlocks = true
	s = newScreen(t, ui.New(opts), 160, 48)
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "active") })
	s.Press("e")
	s.WaitLengths()
	s.Press("right", "enter") // 2 days
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	s.Type("extend")
	s.Press("enter")
	text := s.WaitText("EXTENSION BOUGHT, payment pending")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, "Watching the payment", "once AWS takes the payment", "Until then it ends "+o.End.UTC().Format("2006-01-02 15:04"))
	if strings.Contains(box, "EXTENDED") || strings.Contains(box, "PAYMENT FAILED") {
		t.Errorf("the extension's payment is pending, yet the dialog says it is settled:\n%s", box)
	}
	return s, b, sim, o, bought
}

// The extension's payment is followed in the dialog, as the receipt follows a block's:
// once paid it says the block's new end, as AWS lists it.
func TestExtensionPaymentFollowed(t *testing.T) {
	s, b, sim, o, bought := extendOnScreen(t, false)
	newEnd := o.End.Add(48 * time.Hour)
	sim.Advance(10 * time.Minute)
	text := s.WaitText("EXTENDED:")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, bought.ReservationID+" now ends "+newEnd.UTC().Format("2006-01-02 15:04 UTC"), "payment-succeeded",
		"terminated from "+newEnd.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04 UTC"))
	for _, bad := range []string{"pending", "Watching", "FAILED"} {
		if strings.Contains(box, bad) {
			t.Errorf("paid, the dialog still says %q:\n%s", bad, box)
		}
	}
	if !strings.Contains(text, "any key closes") || strings.Contains(text, "esc cancels") {
		t.Errorf("done, the footer does not say that any key closes:\n%s", text)
	}
	// The row follows without an r: the dialog asked for the blocks again.
	s.Press("esc")
	s.WaitFor("the new end in the row", func(text string) bool {
		return strings.Contains(uitest.RowOf(text, bought.ReservationID), newEnd.UTC().Format("Jan 02 15:04"))
	})
	final(s)
	if blk := sourcestest.AwaitBlock(t, b, bought.ReservationID); !blk.End.Equal(newEnd) {
		t.Errorf("the emulator ends the block at %s, want %s", blk.End, newEnd)
	}
}

// An extension whose payment fails (the emulator's payfail fault): the dialog says so
// plainly, that the block keeps its old end, and what to do; the row is warned of.
func TestExtensionPaymentFailsInDialog(t *testing.T) {
	s, b, sim, o, bought := extendOnScreen(t, true)
	sim.Advance(10 * time.Minute)
	text := s.WaitText("EXTENSION PAYMENT FAILED")
	box := uitest.DialogBox(text)
	uitest.MustContain(t, box, "AWS could not take the payment", "was not extended",
		bought.ReservationID+" keeps its old end, "+o.End.UTC().Format("2006-01-02 15:04 UTC"),
		"terminated from "+o.End.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04 UTC"),
		"payment method", "AWS Billing console", "extend again (e)")
	for _, bad := range []string{"EXTENDED:", "now ends", "Watching", "payment pending"} {
		if strings.Contains(box, bad) {
			t.Errorf("the failed extension's dialog says %q:\n%s", bad, box)
		}
	}
	s.Press("esc")
	s.WaitFor("the warning in the row", func(text string) bool {
		return strings.Contains(uitest.RowOf(text, bought.ReservationID), "✖ EXT FAILED")
	})
	final(s)
	if blk := sourcestest.AwaitBlock(t, b, bought.ReservationID); !blk.End.Equal(o.End) {
		t.Errorf("the emulator ends the block at %s, want its old end %s", blk.End, o.End)
	}
}
