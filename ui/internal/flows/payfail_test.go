package flows

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// A purchase whose payment fails: the receipt stops saying BOUGHT, says the block will
// never start and what to do, stops watching, and l launches nothing.
func TestPayFailReceipt(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{PayFail: 1})
	c := sourcestest.ClientOf(t, b)
	s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.SearchAndOpen()
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.Type("buy")
	s.Press("enter")
	text := s.WaitText("BOUGHT")
	id := reservationRE.FindStringSubmatch(text)
	if id == nil {
		t.Fatalf("no reservation id on the receipt:\n%s", text)
	}
	uitest.MustContain(t, text, "payment-pending", "watching")
	// The payment is taken, and fails, within minutes of the emulator's clock.
	sim.Advance(10 * time.Minute)
	text = s.WaitText("PAYMENT FAILED")
	uitest.MustContain(t, text, "payment-failed · final: will not start · no longer watched", "will never start", "nothing can run in it",
		"payment method", "search again", "went back on sale", "the payment failed", id[1])
	if !strings.Contains(uitest.DialogBox(text), "PAYMENT FAILED") {
		t.Fatalf("no dialog box found on the screen:\n%s", text)
	}
	for _, bad := range []string{"BOUGHT", "is yours", "watching…", "starts in", "l launches"} {
		if strings.Contains(uitest.DialogBox(text), bad) {
			t.Errorf("the failed receipt says %q:\n%s", bad, text)
		}
	}
	if strings.Contains(text, "l launches") || strings.Contains(text, "l launch into") {
		t.Errorf("the footer offers to launch into a block that will never run:\n%s", text)
	}
	s.Press("l")
	text = s.WaitText("Nothing can be launched: the payment failed")
	if strings.Contains(text, "Launch into") || strings.Contains(text, "AMI") {
		t.Errorf("l opened the launch form on a payment-failed block:\n%s", text)
	}
	m := final(s)
	r, ok := m.Inspect().Dialog.(receipt.Model)
	if !ok {
		t.Fatalf("the receipt closed: dialog %T", m.Inspect().Dialog)
	}
	// A receipt that watches says so; one that stopped shows the state it stopped on.
	if v := ansi.Strip(r.View(160, 45)); strings.Contains(v, "watching") || !strings.Contains(v, string(model.StatePaymentFailed)) {
		t.Errorf("the receipt still watches or lacks the state %s:\n%s", model.StatePaymentFailed, v)
	}
	if got := sourcestest.BlockNow(t, c, id[1]).State; got != model.StatePaymentFailed {
		t.Errorf("the emulator lists %s as %s", id[1], got)
	}
}

// On the blocks screen a block whose payment fails: no countdown nor termination time, the
// detail says what to do, e and l say why not instead of opening a dialog, one notification
// when it fails, and a warning until the end it would have had.
func TestPayFailBlocksScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{PayFail: 1})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	id := bought.ReservationID
	opts := testOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, ui.New(opts), 200, 40)
	s.WaitFor("the bought block", func(text string) bool { return strings.Contains(uitest.RowOf(text, id), "PAY PENDING") })
	s.WaitRaw("the payment-pending notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })

	at := testNow.Add(10 * time.Minute)
	sim.SetTime(at)
	s.Press("r")
	text := s.WaitFor("the payment failure", func(text string) bool {
		return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && strings.Contains(uitest.RowOf(text, id), "✖ PAY FAILED")
	})
	row := uitest.RowOf(text, id)
	if !strings.Contains(row, "payment-failed") || !strings.Contains(row, "will not start") || strings.Contains(row, "starts in") {
		t.Errorf("the row counts down to a start that will not come: %q", row)
	}
	if term := blocks.Span(o.End.Add(-30 * time.Minute).Sub(at)); strings.Contains(row, term) {
		t.Errorf("the row has a time to termination, %s: %q", term, row)
	}
	if !strings.Contains(text, "✖ PAY FAILED (1 warning)") {
		t.Errorf("the header does not count the failed block:\n%s", text)
	}
	uitest.MustContain(t, text, "What to do", "payment method", "search again", "Terminates at — (nothing runs in it: its payment failed)",
		"Fee paid      $0.00 (the payment failed: nothing was charged)")
	if strings.Contains(text, "instances are terminated from") {
		t.Errorf("the detail gives a termination time:\n%s", text)
	}
	s.WaitRaw("the payment-failed notification", func(raw []byte) bool { return bytes.Count(raw, []byte(osc9)) >= 2 })

	s.Press("e")
	text = s.WaitText("cannot be extended: its payment failed")
	if strings.Contains(text, "choose the length") {
		t.Errorf("e opened the extend dialog:\n%s", text)
	}
	s.Press("l")
	text = s.WaitText("cannot be launched into: its payment failed")
	if strings.Contains(text, "Type launch") {
		t.Errorf("l opened the launch form:\n%s", text)
	}

	// Listed again, still before its end: warned of, not rung again.
	at = o.Start.Add(time.Hour)
	sim.SetTime(at)
	s.Press("r")
	text = s.WaitFor("the failed block after its start", func(text string) bool {
		return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && strings.Contains(uitest.RowOf(text, id), "never started")
	})
	if !strings.Contains(uitest.RowOf(text, id), "✖ PAY FAILED") || !strings.Contains(text, "✖ PAY FAILED (1 warning)") || strings.Contains(uitest.RowOf(text, id), "ends in") {
		t.Errorf("after the start it would have had: %q\n%s", uitest.RowOf(text, id), text)
	}
	// After the end it would have had, it is history: no warning.
	at = o.End.Add(time.Minute)
	sim.SetTime(at)
	s.Press("r")
	text = s.WaitFor("the failed block after its end", func(text string) bool {
		return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && strings.Contains(uitest.RowOf(text, id), "payment-failed")
	})
	if hasWarningBadge(text) || strings.Contains(uitest.RowOf(text, id), "PAY FAILED") {
		t.Errorf("still warned of after its end:\n%s", text)
	}
	m := final(s)
	if m.Inspect().Dialog != nil {
		t.Errorf("a dialog is open: %T", m.Inspect().Dialog)
	}
	if n := bytes.Count(s.Raw, []byte(osc9)); n != 2 {
		t.Errorf("%d desktop notifications, want 2 (payment pending, payment failed)", n)
	}
	if ns := notifications(s.Raw); len(ns) != 2 || !strings.Contains(ns[1], id+" (p5.48xlarge × 1, ") || !strings.Contains(ns[1], "payment failed, the block will not start") {
		t.Errorf("the notifications %q: the second does not say the payment of %s failed", ns, id)
	}
}

// extendBy buys, through the adapter, the cheapest extension of the block by days.
func extendBy(t *testing.T, c *awsapi.Client, b model.Block, days int) model.ExtensionOffering {
	t.Helper()
	offs, err := capacityblocks.New(c).ExtensionOfferings(context.Background(), b, days)
	if err != nil || len(offs) == 0 {
		t.Fatalf("extension offerings of %s for %d days: %d, %v", b.ReservationID, days, len(offs), err)
	}
	off := model.CheapestExtension(offs)
	if _, err := capacityblocks.New(c).Extend(context.Background(), b, off); err != nil {
		t.Fatalf("extending %s: %v", b.ReservationID, err)
	}
	return off
}

// An extension whose payment fails: the block is warned of in red, once, saying it still
// ends when it did; extended again and paid, the warning goes; a later extension failing
// on the new end rings again.
func TestPayFailExtensionOnBlocksScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	id := bought.ReservationID
	at := o.End.Add(-5 * time.Hour)
	sim.SetTime(at)
	opts := testOptions(b)
	opts.StartOnBlocks = true
	opts.WarnRules = model.NewWarnRules([]time.Duration{2 * time.Hour}) // idle, not yet EXTEND BY
	s := newScreen(t, ui.New(opts), 200, 44)                            // the detail names the warnings above the extension history
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, id), "IDLE, PAID") })
	s.WaitRaw("the idle notification", func(raw []byte) bool { return bytes.Count(raw, []byte(osc9)) == 1 })

	refreshAt := func(what string, at time.Time, want func(row string) bool) string {
		t.Helper()
		sim.SetTime(at)
		s.Press("r")
		return s.WaitFor(what, func(text string) bool {
			return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && want(uitest.RowOf(text, id))
		})
	}
	oldEnd := o.End.UTC().Format("Jan 02 15:04")
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	extendBy(t, c, sourcestest.BlockNow(t, c, id), 1)
	at = at.Add(10 * time.Minute)
	text := refreshAt("the failed extension", at, func(row string) bool { return strings.Contains(row, "✖ EXT FAILED") })
	if row := uitest.RowOf(text, id); !strings.Contains(row, oldEnd) || !strings.Contains(row, "ends in") {
		t.Errorf("the row lost the end %s that stays: %q", oldEnd, row)
	}
	uitest.MustContain(t, text, "✖ EXT FAILED (1 warning)", "What to do", "extend again (e)", "payment-failed (the end did not move)",
		"Fee paid      "+o.Fee.Dollars()+" (this machine's purchase journal") // the failed extension charged nothing
	s.WaitRaw("the failed extension's notification", func(raw []byte) bool { return bytes.Count(raw, []byte(osc9)) == 2 })
	if ns := notifications(s.Raw); !strings.Contains(ns[1], "the extension's payment failed, so the block still ends in") || !strings.Contains(ns[1], oldEnd) {
		t.Errorf("the notifications %q: the second does not say the extension's payment failed and the end %s stays", ns, oldEnd)
	}

	// Extended again, paid: the end moves and the warning goes.
	paid := extendBy(t, c, sourcestest.BlockNow(t, c, id), 1)
	at = at.Add(10 * time.Minute)
	newEnd := paid.End.UTC().Format("Jan 02 15:04")
	text = refreshAt("the paid extension", at, func(row string) bool { return strings.Contains(row, newEnd) })
	if strings.Contains(uitest.RowOf(text, id), "EXT FAILED") {
		t.Errorf("still warned of the failed extension after a paid one: %q", uitest.RowOf(text, id))
	}
	uitest.MustContain(t, text, "Fee paid      "+o.Fee.Add(paid.Fee).Dollars()+" (this machine's purchase journal")

	// Another extension, of the new end, fails: news again.
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	extendBy(t, c, sourcestest.BlockNow(t, c, id), 1)
	at = at.Add(10 * time.Minute)
	refreshAt("the second failed extension", at, func(row string) bool { return strings.Contains(row, "✖ EXT FAILED") && strings.Contains(row, newEnd) })
	s.WaitRaw("the second failed extension's notification", func(raw []byte) bool { return len(notifications(raw)) >= 3 })
	final(s)
	ns := notifications(s.Raw)
	// Idle rings once for the block: a paid extension is no news about it.
	if len(ns) != 3 || !strings.Contains(ns[0], "no instance is running") || !strings.Contains(ns[2], "the extension's payment failed") || !strings.Contains(ns[2], newEnd) {
		t.Errorf("the notifications %q: want idle, the failed extension, the failed extension of the new end %s", ns, newEnd)
	}
}

// notifications are the texts of the desktop notifications (OSC 9) the program wrote.
func notifications(raw []byte) []string {
	var out []string
	for _, part := range bytes.Split(raw, []byte(osc9))[1:] {
		end := bytes.IndexAny(part, "\a\x1b")
		if end < 0 {
			end = len(part)
		}
		out = append(out, string(part[:end]))
	}
	return out
}
