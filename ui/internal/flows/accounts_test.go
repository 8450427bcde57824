package flows

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/accounts"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

const otherAccount = "222233334444"

// accountBackend is a second emulator standing for another account, with a market of its own
// (so that its reservation ids are its own, as AWS's are), through an adapter of its own; the
// environment is emulatorBackend's, which the test sets up first.
func accountBackend(t *testing.T, account string, seed int64) (source.Backend, *ec2sim.Server) {
	t.Helper()
	return sourcestest.Emulator(t, ec2sim.Options{Seed: seed, Start: testNow, Account: account})
}

// twoAccounts is a block bought in each of two accounts, and the backend over both, the
// emulator's demo account paying.
type twoAccounts struct {
	backend      source.Backend
	a, b         source.Backend
	simA, simB   *ec2sim.Server
	oA, oB       model.Offering
	blockA, blkB model.Block
}

func newTwoAccounts(t *testing.T) twoAccounts {
	t.Helper()
	var x twoAccounts
	x.a, x.simA = emulatorBackend(t, ec2sim.Faults{})
	x.b, x.simB = accountBackend(t, otherAccount, 8)
	_, x.oA, x.blockA = sourcestest.BuyBlock(t, x.a, testNow.Add(24*time.Hour))
	_, x.oB, x.blkB = sourcestest.BuyBlock(t, x.b, testNow.Add(24*time.Hour))
	be, err := accounts.New([]accounts.Member{{Profile: "a", Backend: x.a}, {Profile: "b", Backend: x.b}})
	if err != nil {
		t.Fatal(err)
	}
	x.backend = be
	return x
}

// The blocks screen lists both accounts' blocks, each row naming its account in the ACCOUNT
// column; the header names the account that pays; the organization's figures are stated.
func TestBlocksScreenListsEveryAccount(t *testing.T) {
	x := newTwoAccounts(t)
	opts := testOptions(x.backend)
	opts.StartOnBlocks, opts.Organization = true, true
	s := newScreen(t, ui.New(opts), 160, 48)
	// Each row names its account (the table has no room for the reservation ids at this
	// width; the detail has them).
	rowWith := func(text, account string) bool {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "p5.48xlarge ×") && strings.Contains(l, account) {
				return true
			}
		}
		return false
	}
	text := s.WaitFor("both accounts' blocks", func(text string) bool {
		return rowWith(text, ec2sim.DemoAccount) && rowWith(text, otherAccount) && strings.Contains(text, "pays")
	})
	header := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Warning") && strings.Contains(l, "State") {
			header = l
		}
	}
	if !strings.Contains(header, "Account") {
		t.Errorf("the table's header %q has no Account column:\n%s", header, text)
	}
	uitest.MustContain(t, text, "account "+ec2sim.DemoAccount+" pays · 2 accounts listed", "organization: at most ", " of 256 Capacity Block instances on ")
	final(s)

	// One account alone: no Account column.
	opts = testOptions(x.a)
	opts.StartOnBlocks = true
	s = newScreen(t, ui.New(opts), 160, 48)
	text = s.WaitText("p5.48xlarge ×")
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Warning") && strings.Contains(l, "State") && strings.Contains(l, "Account") {
			t.Errorf("one account, yet an Account column: %q", l)
		}
	}
	if strings.Contains(text, "pays") || strings.Contains(text, "organization:") {
		t.Errorf("one account without organization: true:\n%s", text)
	}
	final(s)

	// One account of the organization's two: its figures are said to be possibly low.
	opts = testOptions(x.a)
	opts.StartOnBlocks, opts.Organization, opts.OrganizationPartial = true, true, true
	s = newScreen(t, ui.New(opts), 200, 48)
	s.WaitText("the figures may be low")
	final(s)
}

// e on a block of the other account extends it in that account: the dialog names that
// account as the one that pays, and the extension is bought there, not in the home account.
func TestExtendABlockOfAnotherAccount(t *testing.T) {
	x := newTwoAccounts(t)
	at := x.oB.Start.Add(time.Hour)
	x.simA.SetTime(at)
	x.simB.SetTime(at)
	opts := actionTestOptions(x.backend)
	opts.StartOnBlocks = true
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitFor("b's active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, x.blkB.ReservationID), "active") })
	s.Press("/")
	s.Type(otherAccount)
	s.Press("enter")
	s.WaitFor("b's block alone", func(text string) bool {
		return strings.Contains(text, x.blkB.ReservationID) && !strings.Contains(text, x.blockA.ReservationID)
	})
	s.Press("e")
	s.WaitLengths()
	s.Press("right", "enter") // 2 days
	text := s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	box := uitest.DialogBox(s.WaitText("Type extend"))
	if !strings.Contains(box, otherAccount) || strings.Contains(box, ec2sim.DemoAccount) {
		t.Fatalf("the confirmation does not name account b alone as the payer:\n%s", text)
	}
	s.Type("extend")
	s.Press("enter")
	s.WaitText("EXTENSION BOUGHT")
	final(s)
	if got := extensionsOf(t, x.b, x.blkB.ReservationID); got != 1 {
		t.Errorf("account b's block has %d extensions, want 1", got)
	}
	for _, blk := range sourcestest.Reservations(t, sourcestest.ClientOf(t, x.a), "us-east-1") {
		if len(blk.Extensions) > 0 {
			t.Errorf("the home account's %s was extended", blk.ReservationID)
		}
	}
}

func extensionsOf(t *testing.T, b source.Backend, id string) int {
	t.Helper()
	for _, blk := range sourcestest.Reservations(t, sourcestest.ClientOf(t, b), "us-east-1") {
		if blk.ReservationID == id {
			return len(blk.Extensions)
		}
	}
	t.Fatalf("%s not listed", id)
	return 0
}

// A block of an account none of the profiles reaches is not extended or launched into from
// the home account: the status line says which --profile to use.
func TestBlockOfAnUnreachedAccountIsRefused(t *testing.T) {
	x := newTwoAccounts(t)
	blk := uitest.SyntheticBlocks(1)[0] // active
	blk.Account, blk.Start, blk.End = "999988887777", testNow.Add(-time.Hour), testNow.Add(48*time.Hour)
	m := update(ui.New(testOptions(x.backend)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{blk}, Now: testNow}})
	for name, open := range map[string]tea.Msg{"extend": uiscreen.OpenExtend{Block: blk}, "launch": uiscreen.OpenLaunch{Block: blk}} {
		mm, _ := m.Update(open)
		got := mm.(ui.Model)
		if got.Inspect().Dialog != nil {
			t.Fatalf("%s opened a dialog on a block of an account none reaches", name)
		}
		if !strings.Contains(got.Inspect().Flash, "999988887777") || !strings.Contains(got.Inspect().Flash, "--profile") {
			t.Errorf("%s: flash %q", name, got.Inspect().Flash)
		}
	}
}

// An account that could not be listed is named over the table, and the others' blocks stay.
func TestBlocksScreenNamesAFailedAccount(t *testing.T) {
	x := newTwoAccounts(t)
	list := source.BlockList{Blocks: []model.Block{x.blockA}, Now: testNow,
		Problems: []source.BlockProblem{{Account: "profile b", Message: "profile b: AWS could not be reached: connection refused."}}}
	m := update(ui.New(testOptions(x.backend)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: list})
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "✖ Could not be listed: profile b: AWS could not be reached: connection refused.") || !strings.Contains(v, "1 block in") {
		t.Errorf("the failed account is not named over the other's block:\n%s", v)
	}
	if strings.Contains(v, "A region") {
		t.Errorf("an account's failure is called a region's:\n%s", v)
	}
}
