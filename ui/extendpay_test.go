package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// extendOnScreen opens the blocks screen on an active block (short polls), extends it by
// two days and returns when the dialog says the extension is bought, its payment pending.
func extendOnScreen(t *testing.T, payFail bool) (s *screen, sim *ec2sim.Server, o model.Offering, bought model.Block) {
	t.Helper()
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought = buyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	if payFail {
		sim.SetFaults(ec2sim.Faults{PayFail: 1}) // the block is paid; its extension's payment fails
	}
	opts := actionTestOptions(b)
	opts.StartOnBlocks = true
	s = newScreen(t, New(opts), 160, 48)
	s.waitFor("the active block", func(text string) bool { return strings.Contains(rowOf(text, bought.ReservationID), "active") })
	s.press("e")
	waitLengths(s)
	s.press("right", "enter") // 2 days
	s.waitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	s.typeText("extend")
	s.press("enter")
	text := s.waitText("EXTENSION BOUGHT, payment pending")
	box := dialogBox(text)
	mustContain(t, box, "Watching the payment", "once AWS takes the payment", "Until then it ends "+o.End.UTC().Format("2006-01-02 15:04"))
	if strings.Contains(box, "EXTENDED") || strings.Contains(box, "PAYMENT FAILED") {
		t.Errorf("the extension's payment is pending, yet the dialog says it is settled:\n%s", box)
	}
	return s, sim, o, bought
}

// The extension's payment is followed in the dialog, as the receipt follows a block's:
// once paid it says the block's new end, as AWS lists it.
func TestExtensionPaymentFollowed(t *testing.T) {
	s, sim, o, bought := extendOnScreen(t, false)
	newEnd := o.End.Add(48 * time.Hour)
	sim.Advance(10 * time.Minute)
	text := s.waitText("EXTENDED:")
	box := dialogBox(text)
	mustContain(t, box, bought.ReservationID+" now ends "+newEnd.UTC().Format("2006-01-02 15:04 UTC"), "payment-succeeded",
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
	s.press("esc")
	s.waitFor("the new end in the row", func(text string) bool {
		return strings.Contains(rowOf(text, bought.ReservationID), newEnd.UTC().Format("Jan 02 15:04"))
	})
	m := s.final()
	if blk := awaitBlock(t, m.pc.Backend, bought.ReservationID); !blk.End.Equal(newEnd) {
		t.Errorf("the emulator ends the block at %s, want %s", blk.End, newEnd)
	}
}

// An extension whose payment fails (the emulator's payfail fault): the dialog says so
// plainly, that the block keeps its old end, and what to do; the row is warned of.
func TestExtensionPaymentFailsInDialog(t *testing.T) {
	s, sim, o, bought := extendOnScreen(t, true)
	sim.Advance(10 * time.Minute)
	text := s.waitText("EXTENSION PAYMENT FAILED")
	box := dialogBox(text)
	mustContain(t, box, "AWS could not take the payment", "was not extended",
		bought.ReservationID+" keeps its old end, "+o.End.UTC().Format("2006-01-02 15:04 UTC"),
		"terminated from "+o.End.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04 UTC"),
		"payment method", "AWS Billing console", "extend again (e)")
	for _, bad := range []string{"EXTENDED:", "now ends", "Watching", "payment pending"} {
		if strings.Contains(box, bad) {
			t.Errorf("the failed extension's dialog says %q:\n%s", bad, box)
		}
	}
	s.press("esc")
	s.waitFor("the warning in the row", func(text string) bool { return strings.Contains(rowOf(text, bought.ReservationID), "✖ EXT FAILED") })
	m := s.final()
	if blk := awaitBlock(t, m.pc.Backend, bought.ReservationID); !blk.End.Equal(o.End) {
		t.Errorf("the emulator ends the block at %s, want its old end %s", blk.End, o.End)
	}
}
