package ui

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
)

// A launch into an active block: the dry run allows the form, typing launch starts the
// instances, and their states show as they come up.
func TestLaunchIntoActiveBlock(t *testing.T) {
	b, sim, c, blk := activeBlock(t)
	if blk.State != model.StateActive {
		t.Fatalf("block %s, want active", blk.State)
	}
	s := newLaunchScreen(t, b, blk, true)
	text := s.WaitText("✓ allowed (ec2:RunInstances)")
	uitest.MustContain(t, text, "SIMULATED", launch.DemoAMI, blk.AvailabilityZone+": subnet-", "(default)", "Type launch")
	s.Type("launch")
	s.Press("enter")
	_, m := s.WaitMatch("LAUNCHED 1 instance", instanceRE)
	// The instance boots on the emulator's clock.
	sim.Advance(5 * time.Minute)
	s.WaitText(m[1] + "  running")
	finalHost(t, s)
	after := sourcestest.BlockNow(t, c, blk.ReservationID)
	if len(after.Instances) != 1 || after.Instances[0].ID != m[1] {
		t.Fatalf("instances of the block: %+v, want %s", after.Instances, m[1])
	}
}

// A launch into a scheduled block is attached to its start through the backend, kept
// beside the journal for whichever gpublock watches; the form itself launches nothing,
// before the start or after it.
func TestLaunchIntoScheduledBlockAttaches(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	o, bought := boughtBlock(t, c)
	sim.Advance(10 * time.Minute) // paid: scheduled
	blk := sourcestest.BlockNow(t, c, bought.ReservationID)
	if blk.State != model.StateScheduled {
		t.Fatalf("block %s, want scheduled", blk.State)
	}
	s := newLaunchScreen(t, b, blk, true)
	s.WaitText("starts in")
	s.Type("launch")
	s.Press("enter")
	text := s.WaitText("ATTACHED to " + blk.ReservationID)
	uitest.MustContain(t, text, "gpublock launch --pending")
	ls, err := b.AttachedLaunches(context.Background())
	if err != nil || len(ls) != 1 || ls[0].ReservationID != blk.ReservationID || !ls[0].Pending() || ls[0].Spec.ImageID != launch.DemoAMI {
		t.Fatalf("attached: %+v, %v; want the one launch, pending", ls, err)
	}
	sim.SetTime(o.Start.Add(time.Minute))
	s.Press("esc")
	finalHost(t, s)
	if n := len(sourcestest.BlockNow(t, c, blk.ReservationID).Instances); n != 0 {
		t.Fatalf("%d instances: the form launched, which only a watcher may", n)
	}
	if ls, _ := b.AttachedLaunches(context.Background()); len(ls) != 1 || !ls[0].Pending() {
		t.Fatalf("attached after the form closed: %+v; want it pending for a watcher", ls)
	}
}

// A subnet of another zone is refused by the check with a sentence naming both zones,
// and the launch cannot be confirmed.
func TestLaunchWrongZone(t *testing.T) {
	b, _, c, blk := activeBlock(t)
	other := "us-east-1b"
	if blk.AvailabilityZone == other {
		other = "us-east-1c"
	}
	subs, err := capacityblocks.New(c).Subnets(context.Background(), "us-east-1", other)
	if err != nil || len(subs) == 0 {
		t.Fatalf("subnets of %s: %v, %v", other, subs, err)
	}
	s := newLaunchScreen(t, b, blk, true)
	s.WaitText("✓ allowed (ec2:RunInstances)")
	s.Press("tab", "tab", "ctrl+u") // the confirmation wraps to the AMI, then the subnet
	s.Type(subs[0].ID)
	s.Press("enter")
	text := s.WaitText("but the block is in " + blk.AvailabilityZone)
	uitest.MustContain(t, text, "is in "+other)
	s.Type("launch")
	s.Press("enter")
	s.WaitText("The dry run did not allow the launch. esc closes.")
	finalHost(t, s)
	if n := len(sourcestest.BlockNow(t, c, blk.ReservationID).Instances); n != 0 {
		t.Fatalf("%d instances launched into the wrong zone", n)
	}
}

// The TUI's purchase goes through the one spend path: after a crash between a purchase's
// commit and its outcome line, buying the same block again buys nothing and says which
// reservation the interrupted run bought.
func TestPurchaseDialogAfterACrashBuysNothingNew(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := sourcestest.ClientOf(t, b)
	o, bought := boughtBlock(t, c)
	p, err := c.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if !strings.Contains(l, `"phase":"outcome"`) { // killed after the commit
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(p, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := update(New(actionTestOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	// The dialog as a person drives it: the spend path's preparation finds the purchase the
	// interrupted run made, so the dry run already says so, and the word buys nothing. (The
	// same answer at the call itself is the purchase package's TestAlreadyBoughtAtTheCall.)
	d, cmd := purchase.New(env, o)
	var got dialog = d
	got, _, _ = got.Update(cmd())
	got.View(160, 45)
	for _, k := range []string{"b", "u", "y"} {
		if got, cmd, _ = got.Update(uitest.Key(k)); cmd != nil || got.(purchase.Model).Busy() {
			t.Fatalf("%q after the crash sent something", k)
		}
	}
	v := strings.Join(strings.Fields(ansi.Strip(got.View(160, 45))), " ")
	for _, want := range []string{"Already bought", bought.ReservationID, "Nothing new was bought"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Nothing was charged") {
		t.Errorf("the dialog says nothing was charged for a block that was bought:\n%s", v)
	}
	// enter closes the dialog with a word; it buys nothing.
	if got, cmd, _ = got.Update(uitest.Key("enter")); got.(purchase.Model).Busy() {
		t.Fatal("enter after the crash sent a purchase")
	} else if cmd != nil {
		if msg, ok := cmd().(rootMsg); !ok {
			t.Errorf("enter after the crash sent %T, want only a word to the root", msg)
		}
	}
	if n := len(sourcestest.Reservations(t, c, "us-east-1")); n != 1 {
		t.Errorf("%d reservations, want 1", n)
	}
}

// While a dialog is open it takes every key, so the footer names its keys and none of the
// screen's behind it: q there cancels instead of quitting, and / does not filter. Each
// dialog's own footer, state by state, is tested in its package.
func TestDialogFooterNamesTheDialogsKeys(t *testing.T) {
	base := update(withResults(New(openable()), uitest.SyntheticOfferings(50)), tea.WindowSizeMsg{Width: 160, Height: 48})
	if foot := lastLine(base); !strings.Contains(foot, "q quit") {
		t.Fatalf("the results' footer lacks q quit: %q", foot)
	}
	stub := base
	stub.dialog = footerDialog{"z zaps the stub"}
	states := map[string]Model{
		"purchase": opened(t, base, uitest.Key("enter")), // buy on the selected offering
		"stub":     stub,
	}
	for name, m := range states {
		d, ok := m.dialog.(uidialog.Footer)
		if !ok {
			t.Fatalf("%s: dialog %T names no keys", name, m.dialog)
		}
		foot := lastLine(m)
		if w := d.Footer(); !strings.Contains(foot, w) || strings.Contains(foot, "q quit") || strings.Contains(foot, "/ filter") {
			t.Errorf("%s: footer %q, want %q and none of the screen's keys", name, foot, w)
		}
		if status := statusOf(m); strings.Contains(status, "esc cancels") {
			t.Errorf("%s: the status line speaks of the screen behind: %q", name, status)
		}
	}
}

// A long message after a key wraps onto up to three lines above the footer, the body
// giving them room, instead of being cut at the width: the console URL shown to copy where
// no browser opener exists, why a block cannot be launched into.
func TestLongFlashWrapsAndFits(t *testing.T) {
	const url = "https://us-east-1.console.aws.amazon.com/ec2/home?region=us-east-1#CapacityReservationDetails:crId=cr-0123456789abcdef0"
	flash := "No browser opener here (xdg-open, open); the console URL: " + url
	for _, size := range [][2]int{{120, 36}, {160, 48}, {60, 16}} {
		w, h := size[0], size[1]
		for name, base := range map[string]Model{
			"results": withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: w, Height: h}), uitest.SyntheticOfferings(50)),
			"blocks":  update(New(testOptions(nil)), tea.WindowSizeMsg{Width: w, Height: h}, uitest.Key("2")),
		} {
			m := base
			m.flash = flash
			checkFits(t, name, m, w, h)
			lines := strings.Split(ansi.Strip(m.View().Content), "\n")
			if len(lines) != h {
				t.Errorf("%s at %dx%d: %d lines", name, w, h, len(lines))
			}
			if w >= len(url) && !strings.Contains(ansi.Strip(m.View().Content), url) {
				t.Errorf("%s at %dx%d: the URL is not whole:\n%s", name, w, h, ansi.Strip(m.View().Content))
			}
			if !strings.Contains(lines[len(lines)-2], "console URL") && !strings.Contains(lines[len(lines)-2], url[:20]) {
				t.Errorf("%s at %dx%d: the message is not over the footer:\n%s", name, w, h, strings.Join(lines[len(lines)-4:], "\n"))
			}
		}
	}
}

// After a receipt or a dialog reads a block, the screen shows it as read at once; r's
// "Listing the blocks again…" goes when the listing ends.
func TestBlocksShowWhatADialogRead(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}, uitest.AltKey('2'))
	pending := model.Block{ReservationID: "cr-1", Region: "us-east-1", State: model.StatePaymentPending, Start: testNow.Add(time.Hour), End: testNow.Add(25 * time.Hour)}
	m = update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Blocks: []model.Block{pending}, Now: testNow}})
	scheduled := pending
	scheduled.State = model.StateScheduled
	m = update(m, blockPolledMsg{Dialog: 1, Block: scheduled, Found: true})
	if b, _ := m.blocks().Table().Selected(); b.State != model.StateScheduled {
		t.Errorf("after the receipt read it scheduled, the screen shows %s", b.State)
	}
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "PAY PENDING") {
		t.Errorf("the screen still says PAY PENDING:\n%s", v)
	}
	m.flash = blockscreen.RefreshFlash
	m = update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Blocks: []model.Block{scheduled}, Now: testNow}})
	if m.flash != "" {
		t.Errorf("the flash %q stayed after the listing ended", m.flash)
	}
}

var orderIDRE = regexp.MustCompile(`Placed (ord-[0-9a-f]+)`)

// From a search, o places an order for the form's search: the ceiling typed, the rule and
// the worst case shown, the purchase's word typed; ctrl+o lists the orders with their state
// and countdown, and x x cancels one.
func TestOrderFromTheSearchAndTheOrdersList(t *testing.T) {
	b, s := orderAt(t, "4.5")
	text := s.WaitText("Worst case")
	uitest.MustContain(t, text, "$4.50 per accelerator-hour", "lowest cost per", "Type buy to place it", "cannot be cancelled")
	id := placed(t, s)
	os, _, err := b.(source.OrderBook).Orders(context.Background())
	if err != nil || len(os) != 1 || os[0].ID != id || os[0].State != model.OrderOpen || os[0].Ceiling.Amount.Cmp(model.MustMoney("4.5")) != 0 {
		t.Fatalf("orders kept: %+v, %v", os, err)
	}
	s.Press("esc", "ctrl+o")
	text = s.WaitText("expires in")
	uitest.MustContain(t, text, "Orders", "open", "expires in", "Waiting for a watcher")
	s.Press("x")
	s.WaitText("x again cancels")
	s.Press("x")
	s.WaitText("Cancelled " + id)
	s.WaitText("cancelled")
	final(s)
	if os, _, _ := b.(source.OrderBook).Orders(context.Background()); len(os) != 1 || os[0].State != model.OrderCancelled {
		t.Fatalf("after x x: %+v", os)
	}
}

// The orders list reads itself again while open: an order changed elsewhere (a watcher
// fills it, another gpublock cancels it) shows its new state without r.
func TestOrdersListReadsItselfAgain(t *testing.T) {
	b, s := orderAt(t, "4.5")
	s.WaitText("Worst case")
	id := placed(t, s)
	s.Press("esc", "ctrl+o")
	s.WaitText("expires in")
	if _, err := b.(source.OrderBook).CancelOrder(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	s.WaitText("closed")
	final(s)
}

// A wrong word places nothing.
func TestOrderNeedsTheWord(t *testing.T) {
	b, s := orderAt(t, "4.5")
	s.WaitText("Worst case")
	s.Type("yes")
	s.Press("enter")
	s.WaitText(`"yes" is not buy`)
	s.Press("esc")
	final(s)
	if os, _, _ := b.(source.OrderBook).Orders(context.Background()); len(os) != 0 {
		t.Fatalf("placed %+v", os)
	}
}

// orderAt is the order dialog for the search of the form, opened with o after it, with
// ceiling typed and entered.
func orderAt(t *testing.T, ceiling string) (source.Backend, *screen) {
	t.Helper()
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	opts := actionTestOptions(b)
	opts.Refresh = 300 * time.Millisecond // the orders list reads itself again this often
	s := newScreen(t, New(opts), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	s.FoundCount()
	s.Press("o")
	s.WaitText("Place an order")
	s.Type(ceiling)
	s.Press("tab", "enter")
	return b, s
}

// placed types the word into the order dialog shown and returns the id of the order placed.
func placed(t *testing.T, s *screen) string {
	t.Helper()
	s.Type("buy")
	s.Press("enter")
	_, id := s.WaitMatch("Placed ord-", orderIDRE)
	return id[1]
}
