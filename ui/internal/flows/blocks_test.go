package flows

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
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
	text := s.WaitFor("the bought block", func(text string) bool { return strings.Contains(uitest.RowOf(text, id), "PAY PENDING") })
	if !strings.Contains(text, "$ PAY PENDING (1 warning)") {
		t.Errorf("payment pending: the header does not count 1 warning:\n%s", text)
	}
	if !strings.Contains(uitest.RowOf(text, id), "p5.48xlarge × 1") || !strings.Contains(uitest.RowOf(text, id), o.Fee.Dollars()) {
		t.Errorf("the row lacks the type × count or the fee paid %s: %q", o.Fee.Dollars(), uitest.RowOf(text, id))
	}
	s.WaitRaw("the payment notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })
	rings := bytes.Count(s.Raw, []byte(osc9))

	step := func(what string, at time.Time, want func(row string) bool) string {
		t.Helper()
		sim.SetTime(at)
		s.Press("r")
		return s.WaitFor(what, func(text string) bool {
			return strings.Contains(text, "as of "+at.UTC().Format("15:04")) && want(uitest.RowOf(text, id))
		})
	}
	text = step("scheduled", testNow.Add(10*time.Minute), func(row string) bool { return strings.Contains(row, "scheduled") })
	if hasWarningBadge(text) || !strings.Contains(uitest.RowOf(text, id), "starts in") {
		t.Errorf("scheduled: a warning, or no countdown to the start:\n%s", text)
	}

	// Active, with an instance in it: nothing to say.
	sim.SetTime(o.Start.Add(time.Hour))
	blk := sourcestest.AwaitBlock(t, b, id)
	if _, err := capacityblocks.New(c).Launch(context.Background(), blk, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err != nil {
		t.Fatalf("launch: %v", err)
	}
	text = step("active", o.Start.Add(time.Hour), func(row string) bool { return strings.Contains(row, "active") && strings.Contains(row, "1/1") })
	if hasWarningBadge(text) || !strings.Contains(uitest.RowOf(text, id), "ends in") {
		t.Errorf("active and running: a warning, or no countdown to the end:\n%s", text)
	}

	text = step("expiring", o.End.Add(-35*time.Minute), func(row string) bool { return strings.Contains(row, "▲ EXPIRING") })
	if !strings.Contains(text, "▲ EXPIRING (1 warning)") || !strings.Contains(uitest.RowOf(text, id), "ends in 35m 00s") {
		t.Errorf("expiring: header or countdown wrong:\n%s", text)
	}
	text = step("terminating", o.End.Add(-20*time.Minute), func(row string) bool { return strings.Contains(row, "✖ TERMINATING") })
	if !strings.Contains(text, "✖ TERMINATING (1 warning)") || !strings.Contains(uitest.RowOf(text, id), "terminating") {
		t.Errorf("terminating: header or termination column wrong:\n%s", text)
	}
	// Listing again in the same state rings nothing more.
	text = step("terminating again", o.End.Add(-19*time.Minute), func(row string) bool { return strings.Contains(row, "✖ TERMINATING") })
	text = step("expired", o.End.Add(time.Minute), func(row string) bool { return strings.Contains(row, "expired") })
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
	s.WaitFor("terminating", func(text string) bool {
		return strings.Contains(uitest.RowOf(text, bought.ReservationID), "TERMINATING")
	})
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
	opts := testOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "active") })
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
	m := update(ui.New(opts), uitest.AltKey('2'), tea.WindowSizeMsg{Width: 160, Height: 40})
	m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: source.BlockList{Blocks: uitest.SyntheticBlocks(3), Now: testNow}})
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
	for _, size := range []struct{ w, h int }{{160, 48}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
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
			m := update(ui.New(opts), uitest.AltKey('2'))
			m = update(m, blocksMsg{ID: m.Inspect().Blocks.ListingID(), List: list}, tea.WindowSizeMsg{Width: size.w, Height: size.h})
			// The purchase's request id is random; everything else is fixed by the seed and clock.
			view := requestIDRE.ReplaceAllString(ansi.Strip(m.View().Content), "gpb-REQUEST-ID")
			if !strings.Contains(view, "EXPIRING") || !strings.Contains(view, "▲ EXPIRING (1 warning)") {
				t.Errorf("the golden state lacks the warning:\n%s", view)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
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
	opts := testOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, ui.New(opts), 160, 48)
	s.WaitFor("the block being paid for", func(text string) bool {
		return strings.Contains(uitest.RowOf(text, bought.ReservationID), "payment-pending")
	})
	s.Press("l")
	text := s.WaitText("Launch into a block")
	uitest.MustContain(t, text, "payment-pending · starts in", "Its payment is still being collected: a block whose payment fails never starts",
		"to launch at the start")
	s.Press("esc")
	sim.SetTime(o.Start.Add(time.Hour))
	s.Press("r")
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "active") })
	s.Press("l")
	s.WaitText("Launch into a block")
	s.Press("esc")
	sim.SetTime(o.End.Add(time.Hour))
	s.Press("r")
	s.WaitFor("the expired block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "expired") })
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
