package flows

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

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
		m := withResults(update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), uitest.SyntheticOfferings(30))
		if sz[0] < uiscreen.WideWidth && focusedPane(m) != paneResults {
			t.Fatalf("%v: stacked, the results do not have the focus after the search", sz)
		}
		if m.Inspect().Search.Table().Visible() < 5 {
			t.Fatalf("%v: %d rows", sz, m.Inspect().Search.Table().Visible())
		}
		target := m.Inspect().Search.Table().Row(3)
		_, hy := findOnScreen(t, m, "$/inst-h", 0)
		x, y := findOnScreen(t, m, target.Fee.Dollars(), hy+1)
		m = update(m, click(x, y))
		if got, _ := m.Inspect().Search.Table().Selected(); got.ID != target.ID {
			t.Fatalf("%v: a click on the row of %s selected %s", sz, target.ID, got.ID)
		}
		m = update(m, wheel(x, y, true), wheel(x, y, true))
		if m.Inspect().Search.Table().Cursor() != 5 {
			t.Errorf("%v: two notches down from row 3 put the cursor on %d", sz, m.Inspect().Search.Table().Cursor())
		}
		m = update(m, wheel(x, y, false))
		if m.Inspect().Search.Table().Cursor() != 4 {
			t.Errorf("%v: a notch up put the cursor on %d", sz, m.Inspect().Search.Table().Cursor())
		}
		// A click on the title sorts by it, a second click the other way.
		hx, hy := findOnScreen(t, m, "$/inst-h", 0)
		m = update(m, click(hx+1, hy))
		if c, desc := m.Inspect().Search.Table().Sort(); c != offerings.ColRate || desc {
			t.Errorf("%v: a click on $/inst-h sorted by %s (desc %v)", sz, offerings.ColumnName(c), desc)
		}
		hx, hy = findOnScreen(t, m, "$/inst-h", 0)
		m = update(m, click(hx+1, hy))
		if c, desc := m.Inspect().Search.Table().Sort(); c != offerings.ColRate || !desc {
			t.Errorf("%v: a second click sorted by %s (desc %v), want $/inst-h descending", sz, offerings.ColumnName(c), desc)
		}
		// The lines below the last row and the form hold no row.
		before := m.Inspect().Search.Table().Cursor()
		m = update(m, click(1, m.Inspect().Height-1))
		if m.Inspect().Search.Table().Cursor() != before {
			t.Errorf("%v: a click on the help line moved the cursor to %d", sz, m.Inspect().Search.Table().Cursor())
		}
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

// findOnScreen is where sub is first drawn, from line from on (tests are without
// accessible mode, so the view is the drawing).
func findOnScreen(t *testing.T, m ui.Model, sub string, from int) (x, y int) {
	t.Helper()
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	for y := from; y < len(lines); y++ {
		if i := strings.Index(lines[y], sub); i >= 0 {
			return ansi.StringWidth(lines[y][:i]), y
		}
	}
	t.Fatalf("%q is not on the screen:\n%s", sub, strings.Join(lines, "\n"))
	return 0, 0
}
