package flows

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

var reservationRE = regexp.MustCompile(`Reservation\s+(cr-[0-9a-f]+)`)

// Buying: the dialog shows what is bought and the dry run's answer; typing buy buys it,
// once; the receipt follows the block from payment-pending to scheduled.
func TestPurchaseBuys(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	opts := actionTestOptions(b)
	opts.DefaultTags = map[string]string{"project": "llm-pretrain", "cost-center": "4200"}
	s := newScreen(t, ui.New(opts), 160, 48)
	s.SearchAndOpen()
	text := s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	uitest.MustContain(t, text, "SIMULATED", "123456789012", "Upfront fee", "Linux/UNIX", model.Irrevocable[:60], "Type buy and press enter", "PST",
		"project=llm-pretrain, cost-center=4200")
	if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations before the confirmation", n)
	}
	// Another platform (the dry run asks again), and a tag more.
	s.Press("shift+tab")
	s.Type(", team=ml")
	s.Press("shift+tab", "right")
	s.WaitText("‹ Red Hat Enterprise Linux ›")
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
	s.Press("tab", "tab")
	s.Type("buy")
	s.Press("enter")
	text, id := s.WaitMatch("BOUGHT", reservationRE)
	uitest.MustContain(t, text, "payment-pending", "gpublock:request-id=gpb-", "Journal")
	// Payment takes minutes on the emulator's clock; the receipt keeps watching.
	sim.Advance(10 * time.Minute)
	s.WaitText("scheduled · starts in")
	s.Press("y")
	s.WaitText("Copied " + id[1])
	clipboardWritten(s)
	final(s)
	blocks := sourcestest.Reservations(t, c, searchedRegions(t)...)
	if len(blocks) != 1 || blocks[0].ReservationID != id[1] {
		t.Fatalf("reservations after buying: %+v, want exactly %s", blocks, id[1])
	}
	if bl := blocks[0]; bl.Platform != "Red Hat Enterprise Linux" || bl.Tags["project"] != "llm-pretrain" || bl.Tags["cost-center"] != "4200" || bl.Tags["team"] != "ml" {
		t.Errorf("the reservation's platform %q and tags %v", bl.Platform, bl.Tags)
	}
}

// Every way out of the dialog except typing buy buys nothing.
func TestPurchaseCancelEveryWay(t *testing.T) {
	ways := []struct {
		name  string
		keys  func(s *screen)
		flash string
	}{
		{"esc before the dry run answers", func(s *screen) { s.Press("esc") }, "Cancelled: nothing was bought."},
		{"a wrong word, then esc", func(s *screen) {
			s.WaitText("✓ allowed")
			s.Type("yes")
			s.Press("enter")
			// A wrong word does not cancel: it is cleared and named; esc then cancels.
			s.WaitText(`"yes" is not buy: type buy, or esc to cancel.`)
			s.Press("esc")
		}, "Cancelled: nothing was bought."},
		{"esc after part of buy", func(s *screen) {
			s.WaitText("✓ allowed")
			s.Type("bu")
			s.Press("esc")
		}, "Cancelled: nothing was bought."},
		{"q", func(s *screen) {
			s.WaitText("✓ allowed")
			s.Press("q")
		}, "Cancelled: nothing was bought."},
		{"enter alone, then esc", func(s *screen) {
			s.WaitText("✓ allowed")
			s.Press("enter")
			s.WaitText("Type buy, then enter; esc cancels.")
			s.Press("esc")
		}, "Cancelled: nothing was bought."},
	}
	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			s, sim, c := searchedToBuy(t)
			if w.name == "esc before the dry run answers" {
				// The dry run is slowed down, so that it is surely out when esc arrives.
				sim.SetFaults(ec2sim.Faults{Latency: 300 * time.Millisecond})
				s.Press("enter")
				s.WaitText("asking AWS whether this identity may buy")
			} else {
				s.Press("enter")
			}
			w.keys(s)
			text := s.WaitText(w.flash)
			if strings.Contains(text, "Buy a Capacity Block") {
				t.Errorf("the dialog is still open:\n%s", text)
			}
			nothingBought(t, s, c, "after cancelling")
		})
	}
}

// Read-only: enter opens the detail, help offers neither buying nor launching, and the
// purchase CLI is not offered for copying.
func TestReadOnlyHidesPurchase(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	opts := actionTestOptions(b)
	opts.ReadOnly = true
	s := readyScreen(t, opts, 160, 48)
	s.Press("enter")
	s.FoundCount()
	text := s.WaitText("enter details")
	if strings.Contains(text, "buy") {
		t.Errorf("the footer offers buying in read-only mode:\n%s", text)
	}
	s.Press("enter")
	s.WaitText("Why 11:30 UTC")
	s.Press("?")
	text = s.WaitText("Keys")
	for _, bad := range []string{"buy", "launch", "copy purchase CLI", "extend"} {
		if strings.Contains(strings.ToLower(text), bad) {
			t.Errorf("help offers %q in read-only mode:\n%s", bad, text)
		}
	}
	s.Press("esc")
	s.Press("Y")
	m := final(s)
	if m.Inspect().Dialog != nil {
		t.Errorf("a dialog is open: %T", m.Inspect().Dialog)
	}
	if strings.Contains(m.Inspect().Flash, "purchase") {
		t.Errorf("Y answered %q in read-only mode", m.Inspect().Flash)
	}
	if focusedPane(m) != searchscreen.PaneDetail {
		t.Errorf("focus %d, want the detail", focusedPane(m))
	}
}

// A fee above --max-spend is refused in the dialog, naming the cap, with no call at all.
func TestPurchaseSpendingCap(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	opts := actionTestOptions(b)
	capped := model.MustMoney("1000")
	opts.MaxSpend = &capped
	s := newScreen(t, ui.New(opts), 160, 48)
	s.SearchAndOpen()
	text := s.WaitText("spending cap of $1,000.00")
	flat := strings.Join(strings.Fields(strings.ReplaceAll(uitest.DialogBox(text), "┆", " ")), " ") // the dialog's lines as one
	uitest.MustContain(t, flat, "REFUSED", "(--max-spend, or max_spend in the config file)")
	if strings.Contains(text, "Type buy") || strings.Contains(text, "Dry run") {
		t.Errorf("the refusal still offers the confirmation or a dry run:\n%s", text)
	}
	s.Type("buy")
	s.Press("enter")
	nothingBought(t, s, c, "after enter above the cap")
}

// An offering sold between the search and the purchase: a clear message, the search runs
// again, nothing is bought.
func TestPurchaseSoldMeanwhile(t *testing.T) {
	s, c := buyWith(t, ec2sim.Faults{Sold: 1})
	text := s.WaitText("was sold to someone else")
	uitest.MustContain(t, text, "NOT BOUGHT", "searched again")
	s.Press("esc")
	s.WaitFor("the results without the dialog", func(text string) bool {
		return !strings.Contains(text, "Buy a Capacity Block") && uitest.FoundRE.MatchString(text)
	})
	m := nothingBought(t, s, c, "after the offering was sold")
	if m.Inspect().Search.Rows() < 2 { // each search numbers its rows anew
		t.Errorf("rows %d: the results were not searched again", m.Inspect().Search.Rows())
	}
}

// The purchase's reply is lost after AWS committed: the receipt says bought, with the id,
// and exactly one reservation exists.
func TestPurchaseLostReply(t *testing.T) {
	s, c := buyWith(t, ec2sim.Faults{LostReply: 1})
	text, id := s.WaitMatch("BOUGHT, once", reservationRE)
	uitest.MustContain(t, ansi.Strip(text), "reply to the purchase was lost")
	final(s)
	blocks := sourcestest.Reservations(t, c, searchedRegions(t)...)
	if len(blocks) != 1 || blocks[0].ReservationID != id[1] {
		t.Fatalf("reservations: %+v, want exactly %s", blocks, id[1])
	}
}

// ctrl+c while the purchase is in flight does not quit at once: the answer is waited for
// and shown.
func TestPurchaseInFlightKeepsQuitting(t *testing.T) {
	s, c := buyWith(t, ec2sim.Faults{Latency: 300 * time.Millisecond})
	s.WaitText("Buying…")
	s.Press("ctrl+c")
	s.WaitText("quitting now would leave its outcome unread")
	text := s.WaitText("BOUGHT")
	id := reservationRE.FindStringSubmatch(text)
	final(s)
	if id == nil || len(sourcestest.Reservations(t, c, searchedRegions(t)...)) != 1 {
		t.Fatalf("after ctrl+c in flight: id %v, the receipt:\n%s", id, text)
	}
}

// searchedToBuy is the program over a fresh emulator, with a short poll, once the form's
// default search found offerings; c reads the account's reservations.
func searchedToBuy(t *testing.T) (s *screen, sim *ec2sim.Server, c *awsapi.Client) {
	t.Helper()
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	s = readyScreen(t, actionTestOptions(b), 160, 48)
	searchFound(s)
	return s, sim, sourcestest.ClientOf(t, b)
}

// nothingBought quits s and fails t unless every dialog is closed and the account holds no
// reservation; it returns the last model.
func nothingBought(t *testing.T, s *screen, c *awsapi.Client, when string) ui.Model {
	t.Helper()
	m := final(s)
	if m.Inspect().Dialog != nil {
		t.Errorf("dialog %T still open %s", m.Inspect().Dialog, when)
	}
	if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations %s", n, when)
	}
	return m
}

// buyWith types buy in the purchase dialog of a searched offering, once its dry run allowed
// it, with the emulator's faults set to f for the purchase; c reads the account's
// reservations.
func buyWith(t *testing.T, f ec2sim.Faults) (s *screen, c *awsapi.Client) {
	t.Helper()
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c = sourcestest.ClientOf(t, b)
	s = newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
	s.SearchAndOpen()
	s.WaitText("✓ allowed")
	sim.SetFaults(f)
	s.Type("buy")
	s.Press("enter")
	return s, c
}

// A tag that cannot be sent is said under the field as it is typed (before, nothing showed
// until buy and enter), and tags typed with spaces are read by the one parser
// (model.AddTags): text that is no key is said, never read into a key. Fixed, the
// field is clean.
func TestPurchaseTagsAsTyped(t *testing.T) {
	for _, c := range []struct{ name, bad, said, fixed string }{
		{"reserved prefix", "aws:team=ml", `✗ tag "aws:team=ml": the aws: prefix is reserved`, "team=ml"},
		{"spaces", "project team=research", `✗ "project": want KEY=VALUE`, "team=research project=demo"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
			s.SearchAndOpen()
			s.WaitText("✓ allowed (ec2:PurchaseCapacityBlock)")
			s.Press("shift+tab")
			s.Type(c.bad)
			if text := s.WaitText(c.said); strings.Contains(text, "Fix the tags") {
				t.Errorf("the refusal of a confirmation shows before any:\n%s", text)
			}
			s.Press("ctrl+u")
			s.Type(c.fixed)
			s.WaitFor("the tags fixed", func(text string) bool {
				return strings.Contains(text, c.fixed) && !strings.Contains(text, c.bad) && !strings.Contains(text, "✗")
			})
			final(s)
		})
	}
}

// While a new search runs, the previous search's rows are shown marked as such, and enter
// on them opens no purchase: it says why. Nothing is bought that the screen did not show.
func TestStaleRowsCannotBeBought(t *testing.T) {
	s, sim, c := searchedToBuy(t)
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
	nothingBought(t, s, c, "after enter on stale rows")
}

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

var segmentsRE = regexp.MustCompile(`(\d+) segments`)

// An offering made of segments, through the terminal UI: its row in the table says how
// many segments it has, and the typed confirmation lists every segment and how many
// reservations the purchase makes; buying it makes them all, and the receipt names each.
func TestSegmentedOfferingRowAndConfirmation(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	s := readyScreen(t, actionTestOptions(b), 160, 48)
	retype(s, "60") // the count
	searchFound(s)
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

// The receipt opens the launch form with l, on the block it has followed; on a block not
// yet started the form attaches the launch. A block still being paid for takes one too,
// the form saying that a failed payment cancels it.
func TestReceiptOpensLaunch(t *testing.T) {
	for _, paid := range []bool{true, false} {
		t.Run(map[bool]string{true: "scheduled", false: "payment-pending"}[paid], func(t *testing.T) {
			b, sim := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
			s.SearchAndOpen()
			s.WaitText("✓ allowed")
			s.Type("buy")
			s.Press("enter")
			s.WaitText("BOUGHT")
			state, payment := "payment-pending", "Its payment is still being collected: a block whose payment fails never starts"
			if paid {
				sim.Advance(10 * time.Minute)
				s.WaitText("l launches instances into it · esc closes")
				state = "scheduled"
			} else {
				s.WaitText("l launches instances into it when it starts")
			}
			s.Press("l")
			text := s.WaitText("Launch into a block")
			if !strings.Contains(text, state+" · starts in") {
				t.Errorf("the launch form does not show the block's state and countdown:\n%s", text)
			}
			if got := strings.Contains(text, payment); got == paid {
				t.Errorf("the form says that a failed payment cancels the launch: %v, want %v:\n%s", got, !paid, text)
			}
			// Confirmed, it is attached to the block's start, not launched.
			s.Type("launch")
			s.Press("enter")
			s.WaitText("ATTACHED to cr-")
			if ls, err := b.AttachedLaunches(context.Background()); err != nil || len(ls) != 1 || !ls[0].Pending() {
				t.Fatalf("attached from the receipt: %+v, %v", ls, err)
			}
			final(s)
		})
	}
}

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
	text, id := s.WaitMatch("BOUGHT", reservationRE)
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
	s := blocksScreen(t, testOptions(b), 200, 40)
	rowShows(s, id, "the bought block", "PAY PENDING")
	s.WaitRaw("the payment-pending notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })

	at := testNow.Add(10 * time.Minute)
	text := rowListedAt(s, sim, id, "the payment failure", at, func(row string) bool { return strings.Contains(row, "✖ PAY FAILED") })
	row := uitest.RowOf(text, id)
	if !strings.Contains(row, "payment-failed") || !strings.Contains(row, "will not start") || strings.Contains(row, "starts in") {
		t.Errorf("the row counts down to a start that will not come: %q", row)
	}
	if term := model.Span(o.End.Add(-30 * time.Minute).Sub(at)); strings.Contains(row, term) {
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
	text = rowListedAt(s, sim, id, "the failed block after its start", at, func(row string) bool { return strings.Contains(row, "never started") })
	if !strings.Contains(uitest.RowOf(text, id), "✖ PAY FAILED") || !strings.Contains(text, "✖ PAY FAILED (1 warning)") || strings.Contains(uitest.RowOf(text, id), "ends in") {
		t.Errorf("after the start it would have had: %q\n%s", uitest.RowOf(text, id), text)
	}
	// After the end it would have had, it is history: no warning.
	at = o.End.Add(time.Minute)
	text = rowListedAt(s, sim, id, "the failed block after its end", at, func(row string) bool { return strings.Contains(row, "payment-failed") })
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
	rowShows(s, id, "the active block", "IDLE, PAID")
	s.WaitRaw("the idle notification", func(raw []byte) bool { return bytes.Count(raw, []byte(osc9)) == 1 })

	oldEnd := o.End.UTC().Format("Jan 02 15:04")
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	extendBy(t, c, sourcestest.BlockNow(t, c, id), 1)
	at = at.Add(10 * time.Minute)
	text := rowListedAt(s, sim, id, "the failed extension", at, func(row string) bool { return strings.Contains(row, "✖ EXT FAILED") })
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
	text = rowListedAt(s, sim, id, "the paid extension", at, func(row string) bool { return strings.Contains(row, newEnd) })
	if strings.Contains(uitest.RowOf(text, id), "EXT FAILED") {
		t.Errorf("still warned of the failed extension after a paid one: %q", uitest.RowOf(text, id))
	}
	uitest.MustContain(t, text, "Fee paid      "+o.Fee.Add(paid.Fee).Dollars()+" (this machine's purchase journal")

	// Another extension, of the new end, fails: news again.
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	extendBy(t, c, sourcestest.BlockNow(t, c, id), 1)
	at = at.Add(10 * time.Minute)
	rowListedAt(s, sim, id, "the second failed extension", at, func(row string) bool { return strings.Contains(row, "✖ EXT FAILED") && strings.Contains(row, newEnd) })
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
