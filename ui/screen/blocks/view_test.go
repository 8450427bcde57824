package blocks

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

func loadedBlocks(t *testing.T, w, h int) shown {
	t.Helper()
	m := shownAt(w, h)
	return update(m, ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: uitest.LongBlocks(6), Now: testNow}})
}

// blocksPage is the selected block's detail as the model lays it out now.
func (m Model) blocksPage(t *testing.T) pager.Page {
	t.Helper()
	_, d := m.Panes()
	p, ok := m.DetailPage(d.W-2, d.H-2)
	if !ok {
		t.Fatal("no block selected")
	}
	return p
}

// At 60×16 and 80×24 a block's detail is longer than its pane: enter gives it the focus
// and the moving keys scroll it (not the table) down to its last tag; its last line says
// how much is left and which key scrolls; another block's detail opens at its top, even one
// scrolled before.
func TestBlocksDetailScrolls(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}} {
		m := update(loadedBlocks(t, sz[0], sz[1]), keyMsg("enter"))
		first, _ := m.Table().Selected()
		view := func() string { return m.view() }
		last := "zz-last = the end " + first.ReservationID
		if v := view(); !m.DetailFocused() || !strings.Contains(v, first.ReservationID+" · ") || strings.Contains(v, last) || !strings.Contains(v, "more lines · j/k scroll") {
			t.Fatalf("%dx%d: the detail's top says nothing of scrolling, or fits:\n%s", sz[0], sz[1], v)
		}
		cursor := m.Table().Cursor()
		m = update(m, keyMsg("j"))
		if m.Table().Cursor() != cursor || m.Scroll().Top(m.blocksPage(t)) != 1 {
			t.Errorf("%dx%d: j moved the table to %d, the detail to line %d", sz[0], sz[1], m.Table().Cursor(), m.Scroll().Top(m.blocksPage(t)))
		}
		m = update(m, keyMsg("G"))
		if v := view(); !strings.Contains(v, last) || !strings.Contains(v, "lines above · j/k scroll") || strings.Contains(v, "more line") {
			t.Errorf("%dx%d: G does not show the end of the detail:\n%s", sz[0], sz[1], v)
		}
		m = update(m, keyMsg("g"))
		if v := view(); !strings.Contains(v, first.ReservationID+" · ") || strings.Contains(v, "above") {
			t.Errorf("%dx%d: g does not go back to the top:\n%s", sz[0], sz[1], v)
		}
		// Scrolled, then another block and back: each opens at its top.
		m = update(m, keyMsg("G"), keyMsg("esc"), keyMsg("j"), keyMsg("enter"))
		second, _ := m.Table().Selected()
		if v := view(); second.ReservationID == first.ReservationID || !strings.Contains(v, second.ReservationID+" · ") || strings.Contains(v, "above") {
			t.Errorf("%dx%d: the next block's detail does not open at its top:\n%s", sz[0], sz[1], v)
		}
		m = update(m, keyMsg("esc"), keyMsg("k"), keyMsg("enter"))
		if v := view(); !strings.Contains(v, first.ReservationID+" · ") || strings.Contains(v, "above") {
			t.Errorf("%dx%d: the block scrolled before opens halfway:\n%s", sz[0], sz[1], v)
		}
	}
}

// Wide, the detail below the table says how long it is; tab gives it the focus, and then j
// scrolls it; tab again gives the table back its keys, and the detail follows the cursor
// from its top.
func TestWideBlocksDetailTabAndScroll(t *testing.T) {
	m := loadedBlocks(t, 120, 30)
	if v := m.view(); !strings.Contains(v, "more lines") || strings.Contains(v, "j/k scroll") {
		t.Fatalf("unfocused, the detail says nothing of its length or names keys that move the table:\n%s", v)
	}
	m = update(m, keyMsg("tab"), keyMsg("j"), keyMsg("j"))
	if !m.DetailFocused() || m.Table().Cursor() != 0 || m.Scroll().Top(m.blocksPage(t)) != 2 {
		t.Fatalf("detail focused %v, cursor %d, detail line %d; want the detail scrolled 2 lines", m.DetailFocused(), m.Table().Cursor(), m.Scroll().Top(m.blocksPage(t)))
	}
	if v := m.view(); !strings.Contains(v, "2 lines above") || !strings.Contains(v, "j/k scroll") {
		t.Errorf("the focused, scrolled detail does not say so:\n%s", v)
	}
	m = update(m, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, keyMsg("j"))
	if m.DetailFocused() || m.Table().Cursor() != 1 || m.Scroll().Top(m.blocksPage(t)) != 0 {
		t.Errorf("after shift+tab: detail focused %v, cursor %d, detail line %d; want the table moved and the next detail at its top",
			m.DetailFocused(), m.Table().Cursor(), m.Scroll().Top(m.blocksPage(t)))
	}
	// With nothing selected, tab has nothing to focus.
	empty := shownAt(120, 30)
	empty = update(empty, ListedMsg{ID: empty.ListingID(), List: source.BlockList{Now: testNow}}, keyMsg("tab"))
	if empty.DetailFocused() {
		t.Error("tab focused the detail of no block")
	}
}

// The footer and help name the keys of the focused block detail: it scrolls, and tab or esc
// goes back to the table.
func TestBlocksDetailKeysInHelp(t *testing.T) {
	m := shownAt(160, 48)
	short := func() []string {
		var out []string
		for _, b := range m.shortHelp() {
			out = append(out, b.Help().Desc)
		}
		return out
	}
	scroll := m.KeyMap().Scroll.Line.Help().Desc
	if slices.Contains(short(), scroll) {
		t.Errorf("the table's footer offers to scroll the detail: %q", short())
	}
	// tab gives the selected block's detail the focus.
	m = update(m, ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: uitest.SyntheticBlocks(3), Now: testNow}}, keyMsg("tab"))
	if got := short(); len(got) == 0 || got[0] != scroll || !slices.Contains(got, m.KeyMap().Pane.Help().Desc) {
		t.Errorf("the focused detail's footer %q does not start with scrolling and name tab", got)
	}
	var titles []string
	for _, g := range m.KeyGroups() {
		titles = append(titles, g.Title)
	}
	if !slices.Contains(titles, "Block detail (focused) scrolls") {
		t.Errorf("help groups %q lack the block detail's scrolling", titles)
	}
}

// shown is the screen as the root shows it in a terminal: under a one-line header, over
// the status line.
type shown struct{ Model }

// shownAt is the screen shown in a w×h terminal, with nothing listed yet.
func shownAt(w, h int) shown {
	s := shown{New(uitest.Context(false), Options{Visible: true})}
	return update(s, tea.WindowSizeMsg{Width: w, Height: h})
}

// update gives the screen msgs as the root would; a size is the body between the header
// and the status line.
func update(s shown, msgs ...tea.Msg) shown {
	for _, msg := range msgs {
		if sz, ok := msg.(tea.WindowSizeMsg); ok {
			s.pc.Width, s.pc.Height = sz.Width, sz.Height
			s.SetArea(screen.Area{Top: 1, Width: sz.Width, Height: sz.Height - 2})
			continue
		}
		s.Model, _ = s.Model.update(msg)
	}
	return s
}

var keyMsg = uitest.Key

// view is the screen without colour.
func (s shown) view() string { return ansi.Strip(s.render()) }
