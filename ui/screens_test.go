package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/ui/components/blocks"
	blockcols "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/palette"
)

// The palette finds an action by a part of its words and runs it by pressing its key:
// "exten" opens the extend dialog (and only the dialog: the typed confirmation is still
// ahead), "sort fee" sorts the blocks by the fee paid, "repo" shows the report screen.
func TestPaletteFindsAndRuns(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	opts := actionTestOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, New(opts), 160, 48)
	s.WaitFor("the active block", func(text string) bool { return strings.Contains(uitest.RowOf(text, bought.ReservationID), "active") })

	// run opens the palette with key, types typed, waits for the action with its key and
	// title chosen, and presses enter.
	run := func(key, typed, actionKey, title string) {
		t.Helper()
		s.Press(key)
		s.WaitText("Command palette")
		s.Type(typed)
		s.WaitFor(title+" chosen", func(text string) bool { return uitest.RowWithAll(text, "> "+actionKey, title) })
		s.Press("enter")
	}
	closed := func(text string) bool { return !strings.Contains(text, "Command palette") }
	run(":", "sort fee", "F", "sort by fee paid")
	s.WaitFor("the palette closed", closed)

	run("ctrl+p", "exten", "e", "extend…")
	s.WaitLengths()

	s.Press("esc")
	s.WaitFor("the dialog closed", func(text string) bool { return !strings.Contains(text, "choose the length") })
	run(":", "repo", "4", "report screen")
	s.WaitFor("the palette closed", closed)
	m := final(s)
	if m.screen != screenReport {
		t.Errorf("after \"repo\" the screen is %d, want the report (%d)", m.screen, screenReport)
	}
	if col, _ := m.blocks().Table().Sort(); col != blocks.ColFee {
		t.Errorf("after \"sort fee\" the blocks are sorted by column %d, want the fee paid (%d)", col, blocks.ColFee)
	}
	if m.dialog != nil {
		t.Errorf("a dialog is still open: %T", m.dialog)
	}
	if blk := sourcestest.AwaitBlock(t, m.pc.Backend, bought.ReservationID); !blk.End.Equal(o.End) {
		t.Errorf("the block ends %s after the palette, want %s: something was bought", blk.End, o.End)
	}
}

// Every action the palette offers on every screen can be pressed: its key reads back as
// the key its binding names.
func TestPaletteKeysPress(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 120, Height: 40})
	for id := range numScreens {
		mm, _ := m.switchScreen(screenID(id))
		acts := mm.(Model).paletteActions()
		if len(acts) < 5 {
			t.Fatalf("screen %d: only %d actions", id, len(acts))
		}
		for _, a := range acts {
			for _, k := range a.Binding.Keys() {
				p, ok := palette.KeyPress(k)
				if !ok || p.String() != k {
					t.Errorf("screen %d, %q: key %q presses as %q", id, a.Desc, k, p.String())
				}
			}
		}
	}
}

// From a text field, an action whose key is a letter is not typed into the field: the
// palette says how to reach it.
func TestPaletteNeverTypesIntoAField(t *testing.T) {
	m := typingInAdvisor(t)
	before := m.View().Content
	m = update(m, uitest.Key("ctrl+p"))
	for _, r := range "steps chart" {
		m = update(m, uitest.Key(string(r)))
	}
	if a, ok := m.palette.Chosen(); !ok || a.Key != "v" {
		t.Fatalf("\"steps chart\" chose %+v", a)
	}
	m = update(m, uitest.Key("enter"))
	if m.palette != nil || !strings.Contains(m.flash, "is a letter in the field") {
		t.Errorf("palette %v, flash %q", m.palette != nil, m.flash)
	}
	m.flash = ""
	if after := m.View().Content; after != before {
		t.Error("the screen changed: the key was typed into the field")
	}
}

// typingInAdvisor is the program on the advisor screen, the focus in its form's first
// field, where letters are typed.
func typingInAdvisor(t *testing.T) Model {
	t.Helper()
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 120, Height: 40})
	mm, _ := m.switchScreen(screenAdvisor)
	m = mm.(Model)
	if !m.typing() {
		t.Fatal("the advisor's form does not start with the focus in a field")
	}
	return m
}

// The blocks table takes clicks and the wheel as the offerings do; the wheel over the
// block's detail scrolls it.
func TestMouseOnTheBlocksScreen(t *testing.T) {
	m := loadedBlocks(t, 220, 50)
	sel, _ := m.blocks().Table().Selected()
	var target string
	for _, b := range uitest.LongBlocks(6) {
		if b.ReservationID != sel.ReservationID {
			target = b.ReservationID
		}
	}
	x, y := uitest.FindOnScreen(t, m.render(), target, 0)
	m = update(m, uitest.Click(x, y))
	if got, _ := m.blocks().Table().Selected(); got.ReservationID != target {
		t.Fatalf("a click on the row of %s selected %s", target, got.ReservationID)
	}
	at := m.blocks().Table().Cursor()
	m = update(m, uitest.Wheel(x, y, false))
	if m.blocks().Table().Cursor() != max(0, at-1) {
		t.Errorf("a notch up from %d put the cursor on %d", at, m.blocks().Table().Cursor())
	}
	hx, hy := uitest.FindOnScreen(t, m.render(), "Reservation", 0)
	m = update(m, uitest.Click(hx, hy))
	if c, _ := m.blocks().Table().Sort(); c != blockcols.ColID {
		t.Errorf("a click on the Reservation title sorted by %v", c)
	}

	m = loadedBlocks(t, 160, 34)
	p := m.blocksPage(t)
	tableR, detailR := m.blocksNow().Panes()
	if p.Lines() <= detailR.H-2 {
		t.Fatalf("the block's detail has %d lines for %d; the test needs it longer", p.Lines(), detailR.H-2)
	}
	dy := m.layout().headerH + tableR.H + 2
	cursor := m.blocks().Table().Cursor()
	m = update(m, uitest.Wheel(5, dy, true))
	if top := m.blocks().Scroll().Top(p); top != 1 || m.blocks().Table().Cursor() != cursor {
		t.Errorf("a notch over the detail: its top %d, the table's cursor %d (was %d)", top, m.blocks().Table().Cursor(), cursor)
	}
}

// The wheel over the offering's detail scrolls it, within its lines.
func TestMouseWheelScrollsTheDetail(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 34}), uitest.SyntheticOfferings(10))
	resultsR, detailR := m.searchNow().Panes()
	p, ok := m.detailPage()
	if !ok || p.Lines() <= detailR.H-2 {
		t.Fatalf("the detail has %d lines for a pane of %d; the test needs it longer", p.Lines(), detailR.H-2)
	}
	x, y := m.pc.Width-10, m.layout().headerH+resultsR.H+3
	m = update(m, uitest.Wheel(x, y, true), uitest.Wheel(x, y, true))
	if top := detailTop(m); top != 2 {
		t.Errorf("two notches down scrolled the detail to line %d", top)
	}
	for range p.Lines() + 5 {
		m = update(m, uitest.Wheel(x, y, true))
	}
	last := detailTop(m)
	m = update(m, uitest.Wheel(x, y, true))
	if detailTop(m) != last || last == 0 {
		t.Errorf("the wheel scrolled past the end: %d then %d", last, detailTop(m))
	}
	m = update(m, uitest.Wheel(x, y, false))
	if detailTop(m) != last-1 {
		t.Errorf("a notch up from %d scrolled to %d", last, detailTop(m))
	}
	if _, ok := m.search().Table().Selected(); !ok || m.search().Table().Cursor() != 0 {
		t.Errorf("the wheel over the detail moved the table's cursor to %d", m.search().Table().Cursor())
	}
}

// --no-mouse: the terminal keeps its mouse, and a click or the wheel does nothing; a
// dialog takes no mouse either.
func TestNoMouse(t *testing.T) {
	opts := testOptions(nil)
	if v := New(opts).View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Errorf("mouse mode %v by default", v.MouseMode)
	}
	opts.NoMouse = true
	m := withResults(update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48}), uitest.SyntheticOfferings(30))
	if v := m.View(); v.MouseMode != tea.MouseModeNone {
		t.Errorf("mouse mode %v with NoMouse", v.MouseMode)
	}
	target := m.search().Table().Row(3)
	_, hy := uitest.FindOnScreen(t, m.render(), "$/inst-h", 0)
	x, y := uitest.FindOnScreen(t, m.render(), target.Fee.Dollars(), hy+1)
	m = update(m, uitest.Click(x, y), uitest.Wheel(x, y, true))
	if m.search().Table().Cursor() != 0 {
		t.Errorf("with NoMouse a click and the wheel moved the cursor to %d", m.search().Table().Cursor())
	}

	m = blocksStates(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}))["blocks"]
	rec := &mouseRecorder{}
	m.dialog = rec
	before := m.blocks().Table().Cursor()
	m = update(m, uitest.Wheel(5, 6, true), uitest.Click(20, 10))
	if m.blocks().Table().Cursor() != before || rec.got > 0 {
		t.Errorf("under a dialog the mouse moved the table (cursor %d, was %d) or reached the dialog %d times", m.blocks().Table().Cursor(), before, rec.got)
	}
}

// The notice and a long flash, set as the root sets them, draw within every size too (the
// other states are swept in ui/internal/flows).
func TestNoticeAndLongFlashFit(t *testing.T) {
	base := New(testOptions(nil))
	results := withResults(base, uitest.SyntheticOfferings(500))
	notice := base
	notice.notice = "No AWS credentials were found, so this is the built-in simulator."
	flash := results
	flash.flash = strings.Repeat("A message after a key that takes several lines to say what happened and why. ", 6)
	uitest.FitsEverySize(t, "notice", notice)
	uitest.FitsEverySize(t, "long flash", flash)
}

// Where a text field has the focus, ":" is a letter and ctrl+p alone opens the palette.
func TestPaletteColonTypesInAField(t *testing.T) {
	m := typingInAdvisor(t)
	m = update(m, uitest.Key(":"))
	if m.palette != nil {
		t.Fatal(": opened the palette from a text field")
	}
	m = update(m, uitest.Key("ctrl+p"))
	if m.palette == nil {
		t.Fatal("ctrl+p did not open the palette from a text field")
	}
	m = update(m, uitest.Key("esc"))
	if m.palette != nil {
		t.Fatal("esc did not close the palette")
	}
}
