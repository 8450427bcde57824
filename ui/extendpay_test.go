package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/extend"
	"github.com/gpublock/gpublock/ui/dialog/spend"
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

// The dry run's answer is a field of the extend dialog, in the column of the values above
// it, as in the purchase and launch dialogs; its refusal and failure too.
func TestExtendDryRunInLine(t *testing.T) {
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m := blocksStates(base)["extend confirm"]
	col := func(v, label, value string) int {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, label); i >= 0 {
				if j := strings.Index(l[i:], value); j >= 0 {
					return ansi.StringWidth(l[:i+j])
				}
			}
		}
		return -1
	}
	d := m.dialog.(extend.Model)
	for _, c := range []struct {
		name   string
		perm   source.Permission
		err    error
		answer string
	}{
		{"allowed", source.Permission{Allowed: true, Action: "ec2:PurchaseCapacityBlockExtension"}, nil, "✓ allowed (ec2:PurchaseCapacityBlockExtension)"},
		{"refused", source.Permission{Action: "ec2:PurchaseCapacityBlockExtension"}, nil, "✗ NOT ALLOWED: this identity lacks ec2:PurchaseCapacityBlockExtension."},
		{"failed", source.Permission{}, errString("the network is down"), "✗ failed: the network is down"},
	} {
		dd := d
		*dd.Spend() = spend.New(extend.Action)
		dd.Spend().Answer(dd.Spend().CheckID(), c.perm, c.err)
		m.dialog = dd
		v := ansi.Strip(m.View().Content)
		if a, dr := col(v, "Account", "unknown"), col(v, "Dry run", c.answer); a < 0 || a != dr {
			t.Errorf("%s: account value at %d, dry run answer at %d:\n%s", c.name, a, dr, v)
		}
		if strings.Contains(v, "Dry run:") {
			t.Errorf("%s: the old \"Dry run:\" line is still drawn:\n%s", c.name, v)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Each answer of the extension fits every size, as the other dialogs do.
func TestExtendDoneFits(t *testing.T) {
	base := New(testOptions(nil))
	done := blocksStates(base)["extend done"]
	d := done.dialog.(extend.Model)
	states := map[string]extend.Model{}
	for _, st := range []model.ExtensionStatus{model.ExtensionPaymentPending, model.ExtensionPaymentSucceeded, model.ExtensionPaymentFailed} {
		dd := d
		dd.ShowBought(source.ExtendResult{RequestID: "gpb-0123", Extension: model.Extension{Status: model.ExtensionPaymentPending}, Recovered: true})
		dd.ShowPayment(st, d.Block(), errString("the region did not answer in time"))
		states["extend "+string(st)] = dd
	}
	for name, dd := range states {
		m := done
		m.dialog = dd
		for w := 20; w <= 400; w += 29 {
			for h := 5; h <= 120; h += 9 {
				checkFits(t, name, update(m, tea.WindowSizeMsg{Width: w, Height: h}), w, h)
			}
		}
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {59, 15}, {60, 16}, {119, 29}, {120, 30}, {1, 1}} {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}
