package flows

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/accounts"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
)

const osc9 = "\x1b]9;"

var requestIDRE = regexp.MustCompile(`gpb-[0-9a-f]{24}`)

// A block goes payment-pending → scheduled → active → expiring → terminating → expired
// while the blocks screen is open; the words, the header's count, the colours and the bell
// follow, each warning ringing once.
func TestBlockLifecycleOnScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	id := bought.ReservationID
	opts := testOptions(b)
	opts.StartOnBlocks = true
	// A lead shorter than the one-day block, so that the active block has nothing to say.
	opts.WarnRules = model.NewWarnRules([]time.Duration{2 * time.Hour})
	s := newScreen(t, ui.New(opts), 200, 40)

	// Listed at once, before its payment is taken: flagged, and counted in the header.
	text := rowShows(s, id, "the bought block", "PAY PENDING")
	if !strings.Contains(text, "$ PAY PENDING (1 warning)") {
		t.Errorf("payment pending: the header does not count 1 warning:\n%s", text)
	}
	if !strings.Contains(uitest.RowOf(text, id), "p5.48xlarge × 1") || !strings.Contains(uitest.RowOf(text, id), o.Fee.Dollars()) {
		t.Errorf("the row lacks the type × count or the fee paid %s: %q", o.Fee.Dollars(), uitest.RowOf(text, id))
	}
	s.WaitRaw("the payment notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })
	rings := bytes.Count(s.Raw, []byte(osc9))

	text = rowListedAt(s, sim, id, "scheduled", testNow.Add(10*time.Minute), func(row string) bool { return strings.Contains(row, "scheduled") })
	if hasWarningBadge(text) || !strings.Contains(uitest.RowOf(text, id), "starts in") {
		t.Errorf("scheduled: a warning, or no countdown to the start:\n%s", text)
	}

	// Active, with an instance in it: nothing to say.
	sim.SetTime(o.Start.Add(time.Hour))
	blk := sourcestest.AwaitBlock(t, b, id)
	if _, err := capacityblocks.New(c).Launch(context.Background(), blk, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
		t.Fatalf("launch: %v", err)
	}
	text = rowListedAt(s, sim, id, "active", o.Start.Add(time.Hour), func(row string) bool { return strings.Contains(row, "active") && strings.Contains(row, "1/1") })
	if hasWarningBadge(text) || !strings.Contains(uitest.RowOf(text, id), "ends in") {
		t.Errorf("active and running: a warning, or no countdown to the end:\n%s", text)
	}

	text = rowListedAt(s, sim, id, "expiring", o.End.Add(-35*time.Minute), func(row string) bool { return strings.Contains(row, "▲ EXPIRING") })
	if !strings.Contains(text, "▲ EXPIRING (1 warning)") || !strings.Contains(uitest.RowOf(text, id), "ends in 35m 00s") {
		t.Errorf("expiring: header or countdown wrong:\n%s", text)
	}
	text = rowListedAt(s, sim, id, "terminating", o.End.Add(-20*time.Minute), func(row string) bool { return strings.Contains(row, "✖ TERMINATING") })
	if !strings.Contains(text, "✖ TERMINATING (1 warning)") || !strings.Contains(uitest.RowOf(text, id), "terminating") {
		t.Errorf("terminating: header or termination column wrong:\n%s", text)
	}
	// Listing again in the same state rings nothing more.
	text = rowListedAt(s, sim, id, "terminating again", o.End.Add(-19*time.Minute), func(row string) bool { return strings.Contains(row, "✖ TERMINATING") })
	text = rowListedAt(s, sim, id, "expired", o.End.Add(time.Minute), func(row string) bool { return strings.Contains(row, "expired") })
	if hasWarningBadge(text) || strings.Contains(uitest.RowOf(text, id), "TERMINATING") {
		t.Errorf("expired: still warned:\n%s", text)
	}
	final(s)

	notes := bytes.Count(s.Raw, []byte(osc9)) - rings
	if rings != 1 || notes != 3 {
		t.Errorf("desktop notifications: %d for the payment, %d after (want 1 and 3: can't extend, expiring, terminating)", rings, notes)
	}
	for _, want := range []string{"can no longer be extended", "ends in 35m", "instances terminating"} {
		if !bytes.Contains(s.Raw, []byte(want)) {
			t.Errorf("no notification says %q", want)
		}
	}
	if n := bytes.Count(s.Raw, []byte{'\a', '\x1b', ']', '9'}); n != 4 {
		t.Errorf("%d bells before a notification, want 4 (a bell or the end of the one before, per notification)", n)
	}
}

// hasWarningBadge reports the header's count of warnings on a screen.
func hasWarningBadge(text string) bool { return warningBadgeRE.MatchString(text) }

var warningBadgeRE = regexp.MustCompile(`\(\d+ warnings?\)`)

// With notifications off, warnings show but nothing rings.
func TestNoNotify(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	opts := testOptions(b)
	opts.StartOnBlocks, opts.NoNotify = true, true
	s := newScreen(t, ui.New(opts), 160, 40)
	s.WaitText("PAY PENDING")
	sim.SetTime(o.End.Add(-20 * time.Minute))
	s.Press("r")
	rowShows(s, bought.ReservationID, "terminating", "TERMINATING")
	final(s)
	// Every BEL left ends an OSC sequence (the window title); none rings on its own.
	if bytes.Contains(s.Raw, []byte(osc9)) || bytes.Count(s.Raw, []byte{'\a'}) > bytes.Count(s.Raw, []byte("\x1b]")) {
		t.Error("a bell or a notification with notifications off")
	}
}

// The colours follow the warnings: amber for the expiration warning, red for termination.
func TestWarningColours(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sourcestest.BuyBlock(t, b, testNow.Add(48*time.Hour))
	opts := testOptions(b)
	opts.NoColor = false
	m := update(ui.New(opts), uitest.AltKey('2'), tea.WindowSizeMsg{Width: 200, Height: 40})
	amber, red := "38;2;245;183;0", "38;2;215;38;61"
	for _, tc := range []struct {
		at     time.Time
		colour string
		word   string
	}{{o.End.Add(-35 * time.Minute), amber, "EXPIRING"}, {o.End.Add(-10 * time.Minute), red, "TERMINATING"}} {
		sim.SetTime(tc.at)
		list, err := b.Blocks(context.Background(), []string{"us-east-1"})
		if err != nil {
			t.Fatal(err)
		}
		m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: list})
		if sel, _ := m.Inspect().Blocks.Table().Selected(); sel.ReservationID == bought.ReservationID {
			m = update(m, uitest.Key("j")) // the cursor off the row, so that its own colour shows
		}
		row := ""
		for _, l := range strings.Split(m.View().Content, "\n") {
			if strings.Contains(ansi.Strip(l), tc.word) && strings.Contains(ansi.Strip(l), "p5.48xlarge") {
				row = l
			}
		}
		if !strings.Contains(ansi.Strip(row), tc.word) || !strings.Contains(row, tc.colour) {
			t.Errorf("at %s: row %q lacks %s or colour %s", tc.at.Format("15:04"), row, tc.word, tc.colour)
		}
		if head := strings.SplitN(m.View().Content, "\n", 2)[0]; !strings.Contains(head, tc.colour) || !strings.Contains(ansi.Strip(head), tc.word+" (1 warning)") {
			t.Errorf("at %s: the header %q does not count the warning in its colour", tc.at.Format("15:04"), ansi.Strip(head))
		}
	}
}

// The cursor stays on its block when the list is refreshed, whatever else arrives.
func TestBlocksCursorStaysOnRefresh(t *testing.T) {
	m := update(ui.New(testOptions(nil)), uitest.AltKey('2'), tea.WindowSizeMsg{Width: 160, Height: 40})
	list := source.BlockList{Blocks: uitest.SyntheticBlocks(6), Now: testNow}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: list}, uitest.Key("j"), uitest.Key("j"), uitest.Key("j"))
	sel, _ := m.Inspect().Blocks.Table().Selected()
	// A new block that sorts first arrives, and one before the cursor goes away.
	grown := append([]model.Block{{ReservationID: "cr-00000000000000new", Region: "us-east-1", State: model.StatePaymentFailed,
		Start: testNow.Add(time.Hour), End: testNow.Add(25 * time.Hour)}}, list.Blocks...)
	grown = append(grown[:1], grown[2:]...)
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: grown, Now: testNow}})
	if got, _ := m.Inspect().Blocks.Table().Selected(); got.ReservationID != sel.ReservationID {
		t.Errorf("after a refresh the cursor is on %s, want %s", got.ReservationID, sel.ReservationID)
	}
}

// Extending from the screen: choose a length, see the offering, the dry run, type extend;
// the row then shows the new end once the payment has gone through.
func TestExtendFromBlocksScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	s := blocksScreen(t, testOptions(b), 160, 48)
	rowShows(s, bought.ReservationID, "the active block", "active")
	oldEnd := o.End.UTC().Format("Jan 02 15:04")
	newEnd := o.End.Add(48 * time.Hour).UTC().Format("Jan 02 15:04")
	s.Press("e")
	s.WaitLengths()
	s.Press("right", "enter") // 2 days
	s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	text := s.WaitText("Type extend")
	for _, want := range []string{"Upfront fee", "Break-even", "New end", o.End.Add(48 * time.Hour).UTC().Format("2006-01-02 15:04")} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, text)
		}
	}
	m := regexp.MustCompile(`Upfront fee\s+\$([0-9,.]+) USD`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no upfront fee in the dialog:\n%s", text)
	}
	extFee := model.MustMoney(strings.ReplaceAll(m[1], ",", ""))
	s.Type("exten")
	s.Press("enter")
	// A wrong word is cleared and named; the dialog stays for the whole word.
	s.WaitText(`"exten" is not extend: type extend, or esc to cancel.`)
	s.Type("extend")
	s.Press("enter")
	s.WaitText("EXTENSION BOUGHT, payment pending")
	s.Press("space")
	// The end moves once the payment succeeds (within minutes on the emulator's clock).
	sim.Advance(10 * time.Minute)
	s.Press("r")
	text = s.WaitFor("the new end", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), newEnd) })
	// The fee paid is the block's and the extension's, from the journal.
	if row := uitest.RowOf(text, bought.ReservationID); strings.Contains(row, oldEnd) || !strings.Contains(row, o.Fee.Add(extFee).Dollars()) {
		t.Errorf("the row shows the old end %s, or not the fee %s + %s: %q", oldEnd, o.Fee.Dollars(), extFee.Dollars(), row)
	}
	s.Press("enter")
	s.WaitText("Extensions (1)")
	final(s)
}

// Read-only hides extend and launch, from the keys and from help.
func TestBlocksReadOnly(t *testing.T) {
	opts := testOptions(nil)
	opts.ReadOnly = true
	m := blocksListed(opts, source.BlockList{Blocks: uitest.SyntheticBlocks(3), Now: testNow}, 160, 40)
	m = update(m, uitest.Key("e"))
	if m.Inspect().Dialog != nil {
		t.Fatal("e opened a dialog in read-only mode")
	}
	m = update(m, uitest.Key("?"))
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "extend…") || strings.Contains(v, "launch…") {
		t.Errorf("help offers extend or launch in read-only mode:\n%s", v)
	}
}

// The goldens of the blocks screen, with a fixed clock, at both sizes.
func TestBlocksGolden(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		_, o, _ := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
		sourcestest.BuyBlock(t, b, testNow.Add(48*time.Hour))
		at := o.End.Add(-35 * time.Minute)
		sim.SetTime(at)
		list, err := b.Blocks(context.Background(), []string{"us-east-1"})
		if err != nil || len(list.Blocks) != 2 {
			t.Fatalf("%d blocks, %v", len(list.Blocks), err)
		}
		list.Now = at // exactly: the emulator's clock creeps on by nanoseconds
		opts := testOptions(b)
		opts.Now = func() time.Time { return at }
		m := blocksListed(opts, list, w, h)
		// The purchase's request id is random; everything else is fixed by the seed and clock.
		view := requestIDRE.ReplaceAllString(ansi.Strip(m.View().Content), "gpb-REQUEST-ID")
		if !strings.Contains(view, "EXPIRING") || !strings.Contains(view, "▲ EXPIRING (1 warning)") {
			t.Errorf("the golden state lacks the warning:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
}

// blocksStates are the blocks screen in each of its states, for the test that every state
// fits every size; the extend dialog's own are in ui/dialog/extend.
func blocksStates(base ui.Model) map[string]ui.Model {
	list := source.BlockList{Blocks: uitest.SyntheticBlocks(40), Now: testNow, Fees: map[string]model.Money{"cr-00000000000000001": model.MustMoney("123456.78")},
		Problems: []source.BlockProblem{{Region: "us-west-2", Message: "the region is down"}}}
	onBlocks := update(base, uitest.AltKey('2'))
	loaded := update(onBlocks, blocksMsg{ID: onBlocks.Inspect().Blocks.ListingID(), List: list})
	return map[string]ui.Model{
		"blocks loading":    onBlocks,
		"blocks":            loaded,
		"blocks empty":      update(onBlocks, blocksMsg{ID: onBlocks.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow}}),
		"blocks failed":     update(onBlocks, blocksMsg{ID: onBlocks.Inspect().Blocks.ListingID(), Err: fmt.Errorf("every region failed: the network is down")}),
		"blocks detail":     update(loaded, uitest.Key("j"), uitest.Key("enter")),
		"blocks filter":     update(loaded, uitest.Key("/"), uitest.Key("a")),
		"blocks help":       update(loaded, uitest.Key("?")),
		"search w/ warning": update(loaded, uitest.AltKey('1')),
	}
}

// The header counts the warnings on the search screen too; y, Y and o act on the selected
// block, o showing the console URL where no browser opener exists.
func TestBlocksHeaderCopyAndOpen(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 40}, uitest.AltKey('2'))
	bs := uitest.SyntheticBlocks(5)
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: bs, Now: testNow}})
	want := 0
	for _, b := range bs {
		if blocks.WarningOf(b, testNow) != blocks.NoWarning {
			want++
		}
	}
	if want == 0 {
		t.Fatal("the synthetic blocks have no warning to count")
	}
	search := update(m, uitest.AltKey('1'))
	if head := ansi.Strip(strings.SplitN(search.View().Content, "\n", 2)[0]); search.Inspect().Screen != ui.Search || !strings.Contains(head, fmt.Sprintf("(%d warnings)", want)) {
		t.Errorf("on the search screen the header is %q, want the most severe of %d warnings", head, want)
	}
	if head := ansi.Strip(strings.SplitN(search.View().Content, "\n", 2)[0]); !strings.Contains(head, fmt.Sprintf("(%d warnings) · ", want)) {
		t.Errorf("the warning count runs into what follows it: %q", head)
	}
	search = focusResults(t, search) // no text field there: ] is not a letter
	if back := update(search, uitest.Key("]")); back.Inspect().Screen != ui.Blocks {
		t.Errorf("] from the results pane did not go to the blocks screen")
	}

	sel, _ := m.Inspect().Blocks.Table().Selected()
	mm, cmd := m.Update(uitest.Key("y"))
	if got := mm.(ui.Model).Inspect().Flash; cmd == nil || !strings.Contains(got, sel.ReservationID) {
		t.Errorf("y: flash %q, cmd %v", got, cmd)
	}
	mm, cmd = m.Update(uitest.Key("Y"))
	if got := mm.(ui.Model).Inspect().Flash; cmd == nil || !strings.Contains(got, sel.BlockID) {
		t.Errorf("Y: flash %q", got)
	}
	saved := blockscreen.Opener
	t.Cleanup(func() { blockscreen.Opener = saved })
	blockscreen.Opener = func() string { return "" }
	mm, cmd = m.Update(uitest.Key("o"))
	if got := mm.(ui.Model).Inspect().Flash; cmd != nil || !strings.Contains(got, blocks.ConsoleURL(sel)) ||
		!strings.Contains(got, "https://us-east-1.console.aws.amazon.com/ec2/home?region=us-east-1#CapacityReservationDetails:crId="+sel.ReservationID) {
		t.Errorf("o without an opener: flash %q, cmd %v", got, cmd)
	}
	blockscreen.Opener = func() string { return "/bin/true" }
	mm, cmd = m.Update(uitest.Key("o"))
	if cmd == nil {
		t.Fatal("o with an opener runs nothing")
	}
	if msg, ok := cmd().(blockscreen.OpenedMsg); !ok || msg.Err != nil || msg.URL != blocks.ConsoleURL(sel) {
		t.Errorf("the opener's answer: %+v", msg)
	}
}

// l opens the launch form on the selected block: one still being paid for attaches the
// launch to its start, saying that a failed payment cancels it; on an expired one it says
// why not.
func TestLaunchFromBlocksScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	s := blocksScreen(t, testOptions(b), 160, 48)
	rowShows(s, bought.ReservationID, "the block being paid for", "payment-pending")
	s.Press("l")
	text := s.WaitText("Launch into a block")
	uitest.MustContain(t, text, "payment-pending · starts in", "Its payment is still being collected: a block whose payment fails never starts",
		"to launch at the start")
	s.Press("esc")
	rowListedAt(s, sim, bought.ReservationID, "the active block", o.Start.Add(time.Hour), func(row string) bool { return strings.Contains(row, "active") })
	s.Press("l")
	s.WaitText("Launch into a block")
	s.Press("esc")
	rowListedAt(s, sim, bought.ReservationID, "the expired block", o.End.Add(time.Hour), func(row string) bool { return strings.Contains(row, "expired") })
	s.Press("l")
	s.WaitText("instances launch only into an active block")
	final(s)
}

// Every region that sells Capacity Blocks is listed, whatever the search form chose: a
// block bought from another machine, anywhere, is never missing; switching screens does
// not list them again.
func TestBlocksListEveryRegion(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(ui.New(testOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48}, uitest.AltKey('2'))
	if !m.Inspect().Blocks.Busy() {
		t.Fatal("the blocks screen did not list the blocks")
	}
	if got := m.Inspect().Blocks.Regions(); !slices.Equal(got, model.Regions()) {
		t.Errorf("the blocks are listed in %v, want every region %v", got, model.Regions())
	}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow}})
	id := m.Inspect().Blocks.ListingID()
	m = update(m, uitest.AltKey('1'))
	m = focusField(t, m, searchform.Regions)
	m = update(m, uitest.Key("a"))
	if m = update(m, uitest.AltKey('2')); m.Inspect().Blocks.ListingID() != id {
		t.Error("a change of the search's regions listed the blocks again")
	}
}

// --region narrows the blocks screen; the regions of the blocks already listed stay
// listed, so that a block once seen keeps its warnings in the header.
func TestBlocksRegionsNarrowed(t *testing.T) {
	opts := testOptions(nil)
	opts.BlockRegions = []string{"eu-west-2"}
	m := update(ui.New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	west := model.Block{ReservationID: "cr-west", Region: "us-west-2", State: model.StateActive, Start: testNow.Add(-time.Hour), End: testNow.Add(time.Hour)}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: []model.Block{west}, Now: testNow}})
	if got := strings.Join(m.Inspect().Blocks.Regions(), ","); got != "eu-west-2,us-west-2" {
		t.Errorf("the blocks are listed in %s; want eu-west-2 (--region) and us-west-2 (a block is there)", got)
	}
}

// otherMachine is a client of the same emulator with a journal of its own: purchases
// made from another machine.
func otherMachine(t *testing.T, b source.Backend) *awsapi.Client {
	t.Helper()
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: sourcestest.ClientOf(t, b).Endpoint(), Version: "test",
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Join(t.TempDir(), "elsewhere")})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func buyIn(t *testing.T, c *awsapi.Client, region string) model.Block {
	t.Helper()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: testNow.Add(24 * time.Hour), End: testNow.Add(9 * 24 * time.Hour), Regions: []string{region}}
	var best model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		for _, o := range ev.Offerings {
			if best.ID == "" || o.Fee.Cmp(best.Fee) < 0 {
				best = o
			}
		}
	}
	if best.ID == "" {
		t.Fatalf("no offering in %s", region)
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), best, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Block
}

// Blocks bought in three regions from another machine show on a fresh start, the search
// form untouched (its region is us-east-1), with no fee paid known here.
func TestBlocksOfEveryRegionOnAFreshStart(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	other := otherMachine(t, b)
	var ids []string
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-west-2"} {
		ids = append(ids, buyIn(t, other, r).ReservationID)
	}
	s := blocksScreen(t, testOptions(b), 200, 48)
	text := s.WaitFor("the three blocks", func(text string) bool {
		for _, id := range ids {
			if !strings.Contains(text, id) {
				return false
			}
		}
		return true
	})
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-west-2"} {
		if !strings.Contains(text, r) {
			t.Errorf("region %s not shown:\n%s", r, text)
		}
	}
	if !strings.Contains(text, "3 blocks in 8 regions") {
		t.Errorf("the status does not say 3 blocks in every region:\n%s", text)
	}
	final(s)
}

// Each new warning goes to Notify once per block and lead, however often the blocks are
// listed and the clock ticks; notifications switched off (n) do not stop it.
func TestNotifyEachWarningOnceFromTheTUI(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	var mu sync.Mutex
	got := map[string]int{}
	opts := testOptions(b)
	opts.StartOnBlocks, opts.NoNotify = true, true
	opts.WarnRules = model.NewWarnRules([]time.Duration{24 * time.Hour, 2 * time.Hour})
	opts.Notify = func(_ context.Context, blk model.Block, w model.Warning, _ time.Time) []string {
		mu.Lock()
		got[w.Key(blk)]++
		mu.Unlock()
		return nil
	}
	sim.SetTime(o.Start.Add(time.Hour))
	s := newScreen(t, ui.New(opts), 200, 40)
	for _, before := range []time.Duration{23 * time.Hour, 22 * time.Hour, 90 * time.Minute, 50 * time.Minute, 35 * time.Minute, 34 * time.Minute, 20 * time.Minute} {
		at := o.End.Add(-before)
		sim.SetTime(at)
		s.Press("r")
		s.WaitFor("the listing at "+at.Format("15:04"), func(text string) bool { return strings.Contains(text, "as of "+at.UTC().Format("15:04")) })
	}
	end := o.End.UTC().Format(time.RFC3339)
	id := bought.ReservationID
	want := []string{id + "/idle", id + "/extend-by/24h0m0s/" + end, id + "/extend-by/2h0m0s/" + end,
		id + "/cant-extend/" + end, id + "/expiring/" + end, id + "/terminating/" + end}
	waitUntil(t, "every warning delivered", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) >= len(want)
	})
	final(s)
	mu.Lock()
	defer mu.Unlock()
	for _, k := range want {
		if got[k] != 1 {
			t.Errorf("%s delivered %d times, want once (all: %v)", k, got[k], got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("delivered %v, want %v", got, want)
	}
}

// waitUntil polls a condition instead of sleeping for it.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: timed out", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// e opens the list of every length the emulator offers, the configured length selected;
// each row is what the emulator offers for its length.
func TestExtendListShowsWhatAWSOffers(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	c, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	opts := testOptions(b)
	opts.StartOnBlocks, opts.ExtendDays = true, 3
	s := newScreen(t, ui.New(opts), 160, 48)
	rowShows(s, bought.ReservationID, "the active block", "active")
	s.Press("e")
	text := s.WaitLengths()
	blk := sourcestest.BlockNow(t, c, bought.ReservationID)
	choices, err := capacityblocks.New(c).ExtensionChoices(context.Background(), blk, nil)
	if err != nil || len(choices) < 3 {
		t.Fatalf("the emulator offers %d lengths, %v; the test wants at least 3", len(choices), err)
	}
	if !strings.Contains(text, model.Plural(len(choices), "length", "lengths")+" offered now") {
		t.Errorf("the dialog does not count %d lengths:\n%s", len(choices), text)
	}
	for _, ch := range choices[:3] {
		row := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, " "+model.FormatDays(ch.Days)+" ") && strings.Contains(l, ch.Offering.Fee.Dollars()) {
				row = l
			}
		}
		if row == "" || !strings.Contains(row, ch.Offering.End.UTC().Format("2006-01-02 15:04")) {
			t.Errorf("%s: no row with its fee %s and new end:\n%s", model.FormatDays(ch.Days), ch.Offering.Fee.Dollars(), text)
		}
		if ch.Days == 3 && !strings.Contains(row, "› 3d") {
			t.Errorf("the configured 3d is not selected: %q", row)
		}
	}
	s.Press("enter")
	text = s.WaitText("✓ allowed (ec2:PurchaseCapacityBlockExtension)")
	var three model.ExtensionChoice
	for _, ch := range choices {
		if ch.Days == 3 {
			three = ch
		}
	}
	if three.Days == 0 || !strings.Contains(text, three.Offering.ID) {
		t.Errorf("enter did not take the 3d offering %s:\n%s", three.Offering.ID, text)
	}
	s.Press("esc")
	final(s)
}

// A region that could not be read is named with its error under the status line, whole
// even at 80 columns, on every listing that fails it.
func TestBlocksNameFailedRegions(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.AltKey('2'))
	problems := []source.BlockProblem{{Region: "eu-north-1", Message: "EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly."}}
	for i := 0; i < 2; i++ {
		m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow, Problems: problems}})
		v := ansi.Strip(m.View().Content)
		flat := strings.Join(strings.Fields(strings.ReplaceAll(v, "┃", " ")), " ")
		if !strings.Contains(flat, "✖ eu-north-1 could not be listed: EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly.") {
			t.Errorf("listing %d: the failed region is not named whole:\n%s", i+1, v)
		}
	}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Now: testNow}})
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "could not be listed") {
		t.Errorf("a region that answered is still named:\n%s", v)
	}
}

// The regions' problems take lines from the table, not from the frame: with many blocks and
// a failed region, the pane's lines still fit its height, so the last rows (the cursor's)
// are never cut off by the frame.
func TestBlocksProblemsKeepTheTableInTheFrame(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.AltKey('2'))
	var list []model.Block
	for i := 0; i < 30; i++ {
		list = append(list, model.Block{ReservationID: fmt.Sprintf("cr-%017d", i), Region: "us-east-1", AvailabilityZone: "us-east-1a",
			InstanceType: "p5.48xlarge", TotalCount: 1, State: model.StateScheduled,
			Start: testNow.Add(time.Duration(i+1) * time.Hour), End: testNow.Add(time.Duration(i+25) * time.Hour)})
	}
	problems := []source.BlockProblem{{Region: "eu-north-1", Message: "EC2 is unavailable in eu-north-1 (HTTP 503); try again shortly; " + strings.Repeat("details ", 12)}}
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: list, Now: testNow, Problems: problems}})
	if len(m.Inspect().Blocks.ProblemLines(78)) < 2 {
		t.Fatal("the problem does not wrap onto several lines; the test needs it to")
	}
	for _, h := range []int{5, 10, 20} {
		if n := len(strings.Split(m.Inspect().Blocks.TableView(78, h), "\n")); n > h {
			t.Errorf("the blocks pane of %d lines drew %d", h, n)
		}
	}
}

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
	s = blocksScreen(t, testOptions(x.a), 160, 48)
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
	s := blocksScreen(t, actionTestOptions(x.backend), 160, 48)
	rowShows(s, x.blkB.ReservationID, "b's active block", "active")
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
	m := blocksListed(testOptions(x.backend), source.BlockList{Blocks: []model.Block{blk}, Now: testNow}, 160, 40)
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
	m := blocksListed(testOptions(x.backend), list, 160, 40)
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "✖ Could not be listed: profile b: AWS could not be reached: connection refused.") || !strings.Contains(v, "1 block in") {
		t.Errorf("the failed account is not named over the other's block:\n%s", v)
	}
	if strings.Contains(v, "A region") {
		t.Errorf("an account's failure is called a region's:\n%s", v)
	}
}
