package flows

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// q is a letter while typing in a text field and quits elsewhere; ctrl+c always quits.
func TestQuitKeys(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	// The program starts on the type list, whose filter opens with /: until then q quits.
	if _, cmd := m.Update(uitest.Key("q")); !isQuit(cmd) {
		t.Error("q did not quit on the type list before / opened its filter")
	}
	m = update(m, uitest.Key("/"))
	mm, cmd := m.Update(uitest.Key("q"))
	if isQuit(cmd) {
		t.Fatal("q quit while typing in the type filter")
	}
	if v := ansi.Strip(mm.(ui.Model).View().Content); !strings.Contains(v, "/ q") {
		t.Errorf("q did not go into the filter:\n%s", v)
	}
	if _, cmd := m.Update(uitest.Key("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c did not quit")
	}
	m = withResults(m, uitest.SyntheticOfferings(10))
	if focusedPane(m) != paneResults {
		t.Fatalf("focus %d after a search, want the results", focusedPane(m))
	}
	if _, cmd := m.Update(uitest.Key("q")); !isQuit(cmd) {
		t.Error("q did not quit in the results")
	}
	m = update(m, uitest.Key("/"))
	if _, cmd := m.Update(uitest.Key("q")); isQuit(cmd) {
		t.Error("q quit while typing a filter")
	}
}

// At start the focus is on the type list: 2 opens the blocks screen (issue 7) instead of
// going into the type filter, which / opens; 1 comes back.
func TestDigitsSwitchScreensAtStart(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, uitest.Key("2"))
	if m.Inspect().Screen != ui.Blocks {
		t.Fatalf("2 at start did not open the blocks screen (screen %s)", m.Inspect().Screen)
	}
	m = update(m, uitest.Key("1"))
	if m.Inspect().Screen != ui.Search || focusedPane(m) != paneForm {
		t.Fatalf("1 did not come back to the search form (screen %s, focus %d)", m.Inspect().Screen, focusedPane(m))
	}
	if status := statusOf(update(m, uitest.Key("p"))); !strings.Contains(status, "Press / to filter the types") {
		t.Errorf("a letter typed at the list without / says nothing: %q", status)
	}
	m = update(m, uitest.Key("/"), uitest.Key("p"), uitest.Key("6"))
	if v := ansi.Strip(m.View().Content); m.Inspect().Screen != ui.Search || !strings.Contains(v, "/ p6") || !strings.Contains(v, "q is a letter") {
		t.Errorf("after /, p6 did not go into the type filter (screen %s):\n%s", m.Inspect().Screen, v)
	}
	if foot, status := lastLine(m), statusOf(m); !strings.Contains(foot, "enter/tab keep filter") || strings.Contains(foot, "enter search") || strings.Contains(status, "enter searches") {
		t.Errorf("while filtering the types, enter keeps the filter; the footer says %q, the status %q", foot, status)
	}
	if v := ansi.Strip(update(m, uitest.Key("enter")).View().Content); !strings.Contains(v, "/ p6") || strings.Contains(v, "Typing: q is a letter") {
		t.Errorf("enter did not close the filter keeping p6:\n%s", v)
	}
}

func TestPanesHelpAndBack(t *testing.T) {
	m := withResults(update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), uitest.SyntheticOfferings(10))
	m = update(m, uitest.Key("tab"))
	if focusedPane(m) != paneDetail {
		t.Errorf("tab from the results: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("tab"))
	if focusedPane(m) != paneForm || focusedField(m) != searchform.Source {
		t.Errorf("tab from the detail: focus %d, field %d", focusedPane(m), focusedField(m))
	}
	m = update(m, uitest.Key("shift+tab"))
	if focusedPane(m) != paneDetail {
		t.Errorf("shift+tab from the form's first field: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("esc"))
	if focusedPane(m) != paneResults {
		t.Errorf("esc from the detail: focus %d", focusedPane(m))
	}
	m = update(m, uitest.Key("?"))
	if v := ansi.Strip(m.View().Content); m.Inspect().Dialog == nil || !strings.Contains(v, "Sort (again reverses)") || !strings.Contains(v, "sort by upfront fee") {
		t.Fatalf("? shows no full help:\n%s", v)
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "? help") {
		t.Error("no short help in the footer")
	}
	m = update(m, uitest.Key("j"))
	if m.Inspect().Dialog != nil || m.Inspect().Search.Table().Cursor() != 0 {
		t.Errorf("a key did not just close the help (dialog %v, cursor %d)", m.Inspect().Dialog, m.Inspect().Search.Table().Cursor())
	}
	m = update(m, uitest.Key("esc"))
	if focusedPane(m) != paneForm {
		t.Errorf("esc from the results: focus %d", focusedPane(m))
	}
}

// The header shows the time in UTC, and beside it the local time only where it differs.
func TestHeaderClock(t *testing.T) {
	for _, c := range []struct {
		loc  *time.Location
		want string
	}{{testLoc, "09:00 UTC · 01:00 PST"}, {time.UTC, "09:00 UTC"}} {
		opts := testOptions(nil)
		opts.Location = c.loc
		m := update(ui.New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
		head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
		if !strings.HasSuffix(strings.TrimSpace(head), c.want) || strings.Count(head, "UTC") != 1 {
			t.Errorf("in %v the header is %q, want it to end with %q", c.loc, head, c.want)
		}
	}
}
