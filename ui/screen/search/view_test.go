package search

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// At 60×16 and 80×24 the detail is longer than its pane: the moving keys scroll it (not
// the table) to the comparison and the CLI commands at the bottom, and another offering's
// detail opens at its top, even one scrolled before.
func TestDetailScrolls(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}} {
		m := update(withResults(unsized(), uitest.SyntheticOfferings(10)), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}, keyMsg("d"))
		first, _ := m.Table().Selected()
		view := func() string { return m.view() }
		if v := view(); m.focus != PaneDetail || !strings.Contains(v, first.ID) || strings.Contains(v, "--instance-platform") || !strings.Contains(v, "more lines · j/k scroll") {
			t.Fatalf("%dx%d: the detail's top says nothing of scrolling, or fits:\n%s", sz[0], sz[1], v)
		}
		m = update(m, keyMsg("j"))
		if m.Table().Cursor() != 0 || m.detailScroll.Top(m.page(t)) != 1 {
			t.Errorf("%dx%d: j moved the table to %d, the detail to line %d", sz[0], sz[1], m.Table().Cursor(), m.detailScroll.Top(m.page(t)))
		}
		m = update(m, keyMsg("G"))
		if v := view(); !strings.Contains(v, "--instance-platform Linux/UNIX") || !strings.Contains(v, "lines above") || strings.Contains(v, "more line") {
			t.Errorf("%dx%d: G does not show the end of the detail:\n%s", sz[0], sz[1], v)
		}
		m = update(m, keyMsg("g"))
		if v := view(); !strings.Contains(v, first.ID) || strings.Contains(v, "above") {
			t.Errorf("%dx%d: g does not go back to the top:\n%s", sz[0], sz[1], v)
		}
		// Scrolled, then another row and back: each opens at its top.
		m = update(m, keyMsg("G"), keyMsg("esc"), keyMsg("j"), keyMsg("d"))
		second, _ := m.Table().Selected()
		if v := view(); second.ID == first.ID || !strings.Contains(v, second.ID) || strings.Contains(v, "above") {
			t.Errorf("%dx%d: the next offering's detail does not open at its top:\n%s", sz[0], sz[1], v)
		}
		m = update(m, keyMsg("esc"), keyMsg("k"), keyMsg("d"))
		if v := view(); !strings.Contains(v, first.ID) || strings.Contains(v, "above") {
			t.Errorf("%dx%d: the offering scrolled before opens halfway:\n%s", sz[0], sz[1], v)
		}
	}
}

// Wide, the detail pane scrolls once it has the focus; until then j moves the table and
// the detail follows, from its top.
func TestWideDetailScrollsWhenFocused(t *testing.T) {
	m := update(withResults(unsized(), uitest.SyntheticOfferings(10)), tea.WindowSizeMsg{Width: 120, Height: 30})
	if v := m.view(); !strings.Contains(v, "more lines") || strings.Contains(v, "j/k scroll") {
		t.Fatalf("unfocused, the detail says nothing of its length or names keys that move the table:\n%s", v)
	}
	m = update(m, keyMsg("tab"), keyMsg("j"), keyMsg("j"))
	if m.focus != PaneDetail || m.Table().Cursor() != 0 || m.detailScroll.Top(m.page(t)) != 2 {
		t.Fatalf("focus %d, cursor %d, detail line %d; want the detail scrolled 2 lines", m.focus, m.Table().Cursor(), m.detailScroll.Top(m.page(t)))
	}
	// (At 120 columns the footer is cut before them; the pane's last line names them.)
	if foot := update(m, tea.WindowSizeMsg{Width: 200, Height: 48}).shortHelp(); !hasKey(foot, "↑/k ↓/j", "scroll") {
		t.Errorf("the footer does not say the detail scrolls: %v", names(foot))
	}
	m = update(m, keyMsg("shift+tab"), keyMsg("j"))
	if m.Table().Cursor() != 1 || m.detailScroll.Top(m.page(t)) != 0 {
		t.Errorf("in the results j moved the table to %d and left the detail at line %d", m.Table().Cursor(), m.detailScroll.Top(m.page(t)))
	}
	// The chart tab fits its pane: there the arrows still move through the table.
	m = update(m, keyMsg("v"), keyMsg("j"))
	if m.focus != PaneDetail || m.detailTab != TabChart || m.Table().Cursor() != 2 {
		t.Errorf("in the chart tab j: focus %d, tab %d, cursor %d", m.focus, m.detailTab, m.Table().Cursor())
	}
	if !helpLists(m.KeyGroups(), "Detail pane (focused) scrolls", "pgup/b pgdn/f", "page up · down") {
		t.Errorf("help does not list the detail's keys: %+v", m.KeyGroups())
	}
}

// helpLists reports whether help has the group titled title with the key k doing desc.
func helpLists(groups []screen.KeyGroup, title, k, desc string) bool {
	for _, g := range groups {
		if g.Title == title && hasKey(g.Keys, k, desc) {
			return true
		}
	}
	return false
}

// page is the selected offering's detail as the detail pane lays it out now.
func (m Model) page(t *testing.T) detail.Page {
	t.Helper()
	p, ok := m.DetailPage()
	if !ok {
		t.Fatal("no offering selected")
	}
	return p
}

// In 80×24, 120×40 and 200×60 terminals the offerings table shows the columns a choice is
// made on, the region, type and length that tell these rows apart among them (at 80 the
// break-even gives way: the detail says it), and a sort by any key shows its column with
// its whole title and its arrow.
func TestOfferingsColumnsAtTerminalSizes(t *testing.T) {
	sorts := map[string]string{"R": "Region", "Z": "AZ", "T": "Type", "N": "N", "S": "Start UTC", "E": "End UTC", "D": "Length",
		"F": "Upfront fee", "H": "$/inst-h", "A": "$/acc-h", "O": "OD $/h", "V": "vs OD", "B": "Break-even"}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := withResults(unsized().resize(sz[0], sz[1]), uitest.SyntheticOfferings(30))
			if m.focus != PaneResults {
				t.Fatalf("focus %d after the search, want the results", m.focus)
			}
			v := m.view()
			core := []string{"Upfront fee", "$/inst-h", "Start UTC", "Length", "Type", "Region"}
			if sz[0] > 80 {
				core = append(core, "Break-even")
			}
			for _, title := range core {
				if !strings.Contains(v, title) {
					t.Errorf("no %q column:\n%s", title, v)
				}
			}
			for key, title := range sorts {
				v := update(m, keyMsg(key)).view()
				found := false
				for _, edge := range []string{" ", "│", "┃"} {
					for _, arrow := range []string{"▲", "▼"} {
						found = found || strings.Contains(v, edge+title+arrow)
					}
				}
				if !found {
					t.Errorf("sorted by %s: no %q with its arrow:\n%s", key, title, v)
				}
			}
		})
	}
}
