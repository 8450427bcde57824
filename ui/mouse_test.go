package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	blockcols "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/offerings"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// findOnScreen is the cell where sub is first drawn at or below line from, as a person sees
// the frame; the tests click where the text is, not where the code thinks it is.
func findOnScreen(t *testing.T, m Model, sub string, from int) (x, y int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(m.render()), "\n")
	for y := from; y < len(lines); y++ {
		if i := strings.Index(lines[y], sub); i >= 0 {
			return ansi.StringWidth(lines[y][:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", sub, strings.Join(lines, "\n"))
	return 0, 0
}

func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func wheel(x, y int, down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

// A click on an offering's row selects it, the wheel over the table moves the cursor, a
// click on a column's title sorts by it, twice the other way; wide and stacked.
func TestMouseSelectsScrollsAndSortsOfferings(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {100, 30}} {
		m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), syntheticOfferings(30))
		if sz[0] < uiscreen.WideWidth && focusedPane(m) != paneResults {
			t.Fatalf("%v: stacked, the results do not have the focus after the search", sz)
		}
		if m.search().Table().Visible() < 5 {
			t.Fatalf("%v: %d rows", sz, m.search().Table().Visible())
		}
		target := m.search().Table().Row(3)
		_, hy := findOnScreen(t, m, "$/inst-h", 0)
		x, y := findOnScreen(t, m, target.Fee.Dollars(), hy+1)
		m = update(m, click(x, y))
		if got, _ := m.search().Table().Selected(); got.ID != target.ID {
			t.Fatalf("%v: a click on the row of %s selected %s", sz, target.ID, got.ID)
		}
		m = update(m, wheel(x, y, true), wheel(x, y, true))
		if m.search().Table().Cursor() != 5 {
			t.Errorf("%v: two notches down from row 3 put the cursor on %d", sz, m.search().Table().Cursor())
		}
		m = update(m, wheel(x, y, false))
		if m.search().Table().Cursor() != 4 {
			t.Errorf("%v: a notch up put the cursor on %d", sz, m.search().Table().Cursor())
		}
		// A click on the title sorts by it, a second click the other way.
		hx, hy := findOnScreen(t, m, "$/inst-h", 0)
		m = update(m, click(hx+1, hy))
		if c, desc := m.search().Table().Sort(); c != offerings.ColRate || desc {
			t.Errorf("%v: a click on $/inst-h sorted by %s (desc %v)", sz, offerings.ColumnName(c), desc)
		}
		hx, hy = findOnScreen(t, m, "$/inst-h", 0)
		m = update(m, click(hx+1, hy))
		if c, desc := m.search().Table().Sort(); c != offerings.ColRate || !desc {
			t.Errorf("%v: a second click sorted by %s (desc %v), want $/inst-h descending", sz, offerings.ColumnName(c), desc)
		}
		// The lines below the last row and the form hold no row.
		before := m.search().Table().Cursor()
		m = update(m, click(1, m.pc.Height-1))
		if m.search().Table().Cursor() != before {
			t.Errorf("%v: a click on the help line moved the cursor to %d", sz, m.search().Table().Cursor())
		}
	}
}

// The wheel over the offering's detail scrolls it, within its lines.
func TestMouseWheelScrollsTheDetail(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 34}), syntheticOfferings(10))
	resultsR, detailR := m.searchNow().Panes()
	p, ok := m.detailPage()
	if !ok || p.Lines() <= detailR.H-2 {
		t.Fatalf("the detail has %d lines for a pane of %d; the test needs it longer", p.Lines(), detailR.H-2)
	}
	x, y := m.pc.Width-10, m.layout().headerH+resultsR.H+3
	m = update(m, wheel(x, y, true), wheel(x, y, true))
	if top := detailTop(m); top != 2 {
		t.Errorf("two notches down scrolled the detail to line %d", top)
	}
	for range p.Lines() + 5 {
		m = update(m, wheel(x, y, true))
	}
	last := detailTop(m)
	m = update(m, wheel(x, y, true))
	if detailTop(m) != last || last == 0 {
		t.Errorf("the wheel scrolled past the end: %d then %d", last, detailTop(m))
	}
	m = update(m, wheel(x, y, false))
	if detailTop(m) != last-1 {
		t.Errorf("a notch up from %d scrolled to %d", last, detailTop(m))
	}
	if _, ok := m.search().Table().Selected(); !ok || m.search().Table().Cursor() != 0 {
		t.Errorf("the wheel over the detail moved the table's cursor to %d", m.search().Table().Cursor())
	}
}

// The blocks table takes clicks and the wheel as the offerings do; the wheel over the
// block's detail scrolls it.
func TestMouseOnTheBlocksScreen(t *testing.T) {
	m := loadedBlocks(t, 220, 50)
	sel, _ := m.blocks().Table().Selected()
	var target string
	for _, b := range longBlocks(6) {
		if b.ReservationID != sel.ReservationID {
			target = b.ReservationID
		}
	}
	x, y := findOnScreen(t, m, target, 0)
	m = update(m, click(x, y))
	if got, _ := m.blocks().Table().Selected(); got.ReservationID != target {
		t.Fatalf("a click on the row of %s selected %s", target, got.ReservationID)
	}
	at := m.blocks().Table().Cursor()
	m = update(m, wheel(x, y, false))
	if m.blocks().Table().Cursor() != max(0, at-1) {
		t.Errorf("a notch up from %d put the cursor on %d", at, m.blocks().Table().Cursor())
	}
	hx, hy := findOnScreen(t, m, "Reservation", 0)
	m = update(m, click(hx, hy))
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
	m = update(m, wheel(5, dy, true))
	if top := m.blocks().Scroll().Top(p); top != 1 || m.blocks().Table().Cursor() != cursor {
		t.Errorf("a notch over the detail: its top %d, the table's cursor %d (was %d)", top, m.blocks().Table().Cursor(), cursor)
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
	m := withResults(update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48}), syntheticOfferings(30))
	if v := m.View(); v.MouseMode != tea.MouseModeNone {
		t.Errorf("mouse mode %v with NoMouse", v.MouseMode)
	}
	target := m.search().Table().Row(3)
	_, hy := findOnScreen(t, m, "$/inst-h", 0)
	x, y := findOnScreen(t, m, target.Fee.Dollars(), hy+1)
	m = update(m, click(x, y), wheel(x, y, true))
	if m.search().Table().Cursor() != 0 {
		t.Errorf("with NoMouse a click and the wheel moved the cursor to %d", m.search().Table().Cursor())
	}

	m = blocksStates(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}))["blocks"]
	rec := &mouseRecorder{}
	m.dialog = rec
	before := m.blocks().Table().Cursor()
	m = update(m, wheel(5, 6, true), click(20, 10))
	if m.blocks().Table().Cursor() != before || rec.got > 0 {
		t.Errorf("under a dialog the mouse moved the table (cursor %d, was %d) or reached the dialog %d times", m.blocks().Table().Cursor(), before, rec.got)
	}
}

// mouseRecorder is a dialog that counts the mouse messages it is given.
type mouseRecorder struct{ got int }

func (r *mouseRecorder) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	if _, ok := msg.(tea.MouseMsg); ok {
		r.got++
	}
	return r, nil, false
}

func (r *mouseRecorder) View(int, int) string { return "recorder" }
