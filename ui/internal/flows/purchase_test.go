package flows

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
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
	text = s.WaitText("BOUGHT")
	id := reservationRE.FindStringSubmatch(text)
	if id == nil {
		t.Fatalf("no reservation id on the receipt:\n%s", text)
	}
	uitest.MustContain(t, text, "payment-pending", "gpublock:request-id=gpb-", "Journal")
	// Payment takes minutes on the emulator's clock; the receipt keeps watching.
	sim.Advance(10 * time.Minute)
	s.WaitText("scheduled · starts in")
	s.Press("y")
	s.WaitText("Copied " + id[1])
	final(s)
	blocks := sourcestest.Reservations(t, c, searchedRegions(t)...)
	if len(blocks) != 1 || blocks[0].ReservationID != id[1] {
		t.Fatalf("reservations after buying: %+v, want exactly %s", blocks, id[1])
	}
	if bl := blocks[0]; bl.Platform != "Red Hat Enterprise Linux" || bl.Tags["project"] != "llm-pretrain" || bl.Tags["cost-center"] != "4200" || bl.Tags["team"] != "ml" {
		t.Errorf("the reservation's platform %q and tags %v", bl.Platform, bl.Tags)
	}
	if !strings.Contains(string(s.Raw), "\x1b]52;c;") {
		t.Error("y wrote no clipboard sequence")
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
			b, sim := emulatorBackend(t, ec2sim.Faults{})
			c := sourcestest.ClientOf(t, b)
			s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
			s.WaitText("123456789012")
			s.Press("enter")
			if s.FoundCount() == 0 {
				t.Fatal("the search found nothing")
			}
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
			m := final(s)
			if m.Inspect().Dialog != nil {
				t.Errorf("dialog %T still open", m.Inspect().Dialog)
			}
			if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
				t.Fatalf("%d reservations after cancelling", n)
			}
		})
	}
}

// Read-only: enter opens the detail, help offers neither buying nor launching, and the
// purchase CLI is not offered for copying.
func TestReadOnlyHidesPurchase(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	opts := actionTestOptions(b)
	opts.ReadOnly = true
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitText("123456789012")
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
	if focusedPane(m) != paneDetail {
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
	m := final(s)
	if m.Inspect().Dialog != nil {
		t.Errorf("dialog %T open after enter", m.Inspect().Dialog)
	}
	if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations above the cap", n)
	}
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
	m := final(s)
	if m.Inspect().Search.Rows() < 2 { // each search numbers its rows anew
		t.Errorf("rows %d: the results were not searched again", m.Inspect().Search.Rows())
	}
	if n := len(sourcestest.Reservations(t, c, searchedRegions(t)...)); n != 0 {
		t.Fatalf("%d reservations of a sold offering", n)
	}
}

// The purchase's reply is lost after AWS committed: the receipt says bought, with the id,
// and exactly one reservation exists.
func TestPurchaseLostReply(t *testing.T) {
	s, c := buyWith(t, ec2sim.Faults{LostReply: 1})
	text := s.WaitText("BOUGHT, once")
	id := reservationRE.FindStringSubmatch(text)
	if id == nil {
		t.Fatalf("no reservation id:\n%s", text)
	}
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
