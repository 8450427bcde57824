package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/searchform"
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
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	// The program starts on the type list, whose filter opens with /: until then q quits.
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q did not quit on the type list before / opened its filter")
	}
	m = update(m, keyMsg("/"))
	mm, cmd := m.Update(keyMsg("q"))
	if isQuit(cmd) {
		t.Fatal("q quit while typing in the type filter")
	}
	if v := ansi.Strip(mm.(Model).View().Content); !strings.Contains(v, "/ q") {
		t.Errorf("q did not go into the filter:\n%s", v)
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); !isQuit(cmd) {
		t.Error("ctrl+c did not quit")
	}
	m = withResults(m, syntheticOfferings(10))
	if focusedPane(m) != paneResults {
		t.Fatalf("focus %d after a search, want the results", focusedPane(m))
	}
	if _, cmd := m.Update(keyMsg("q")); !isQuit(cmd) {
		t.Error("q did not quit in the results")
	}
	m = update(m, keyMsg("/"))
	if _, cmd := m.Update(keyMsg("q")); isQuit(cmd) {
		t.Error("q quit while typing a filter")
	}
}

// At start the focus is on the type list: 2 opens the blocks screen (issue 7) instead of
// going into the type filter, which / opens; 1 comes back.
func TestDigitsSwitchScreensAtStart(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, keyMsg("2"))
	if m.screen != screenBlocks {
		t.Fatalf("2 at start did not open the blocks screen (screen %d)", m.screen)
	}
	m = update(m, keyMsg("1"))
	if m.screen != screenSearch || focusedPane(m) != paneForm {
		t.Fatalf("1 did not come back to the search form (screen %d, focus %d)", m.screen, focusedPane(m))
	}
	if status := statusOf(update(m, keyMsg("p"))); !strings.Contains(status, "Press / to filter the types") {
		t.Errorf("a letter typed at the list without / says nothing: %q", status)
	}
	m = update(m, keyMsg("/"), keyMsg("p"), keyMsg("6"))
	if v := ansi.Strip(m.View().Content); m.screen != screenSearch || !strings.Contains(v, "/ p6") || !strings.Contains(v, "q is a letter") {
		t.Errorf("after /, p6 did not go into the type filter (screen %d):\n%s", m.screen, v)
	}
	if foot, status := lastLine(m), statusOf(m); !strings.Contains(foot, "enter/tab keep filter") || strings.Contains(foot, "enter search") || strings.Contains(status, "enter searches") {
		t.Errorf("while filtering the types, enter keeps the filter; the footer says %q, the status %q", foot, status)
	}
	if v := ansi.Strip(update(m, keyMsg("enter")).View().Content); !strings.Contains(v, "/ p6") || strings.Contains(v, "Typing: q is a letter") {
		t.Errorf("enter did not close the filter keeping p6:\n%s", v)
	}
}

func TestPanesHelpAndBack(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), syntheticOfferings(10))
	m = update(m, keyMsg("tab"))
	if focusedPane(m) != paneDetail {
		t.Errorf("tab from the results: focus %d", focusedPane(m))
	}
	m = update(m, keyMsg("tab"))
	if focusedPane(m) != paneForm || focusedField(m) != searchform.Source {
		t.Errorf("tab from the detail: focus %d, field %d", focusedPane(m), focusedField(m))
	}
	m = update(m, keyMsg("shift+tab"))
	if focusedPane(m) != paneDetail {
		t.Errorf("shift+tab from the form's first field: focus %d", focusedPane(m))
	}
	m = update(m, keyMsg("esc"))
	if focusedPane(m) != paneResults {
		t.Errorf("esc from the detail: focus %d", focusedPane(m))
	}
	m = update(m, keyMsg("?"))
	if v := ansi.Strip(m.View().Content); m.dialog == nil || !strings.Contains(v, "Sort (again reverses)") || !strings.Contains(v, "sort by upfront fee") {
		t.Fatalf("? shows no full help:\n%s", v)
	}
	if !strings.Contains(ansi.Strip(m.View().Content), "? help") {
		t.Error("no short help in the footer")
	}
	m = update(m, keyMsg("j"))
	if m.dialog != nil || m.search().Table().Cursor() != 0 {
		t.Errorf("a key did not just close the help (dialog %v, cursor %d)", m.dialog, m.search().Table().Cursor())
	}
	m = update(m, keyMsg("esc"))
	if focusedPane(m) != paneForm {
		t.Errorf("esc from the results: focus %d", focusedPane(m))
	}
}

// The clock moves relative dates: a start valid at 09:00 is in the past at 10:00.
func TestClockRevalidates(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48}) // sized, for the form's ✗ to be drawn
	m = update(m, keyMsg("tab"), keyMsg("tab"), keyMsg("ctrl+u"))
	for _, r := range "2026-12-01T09:30:00Z" {
		m = update(m, keyMsg(string(r)))
	}
	if _, bad := fieldErrors(m)[searchform.Start]; bad {
		t.Fatalf("09:30 is not valid at 09:00: %v", fieldErrors(m))
	}
	now = now.Add(time.Hour)
	m = update(m, clockMsg(now))
	if _, bad := fieldErrors(m)[searchform.Start]; !bad {
		t.Error("09:30 is still valid at 10:00")
	}
	if m.clock != now {
		t.Errorf("header clock %v, want %v", m.clock, now)
	}
	mm, cmd := m.Update(keyMsg("enter"))
	if cmd != nil || searched(mm.(Model)) {
		t.Error("an invalid form was searched")
	}
}

// Rows appear page by page while the search runs, replacing the previous search's rows
// only when the first of the new ones arrives.
func TestRowsAppearAsPagesArrive(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), syntheticOfferings(4))
	old, _ := m.search().Table().Selected()
	m, id := startedSearch(m, again)
	if !m.search().Table().Stale() || m.search().Table().Len() != 4 {
		t.Fatalf("a new search hid the old rows: stale=%v len=%d", m.search().Table().Stale(), m.search().Table().Len())
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "the rows shown are from the previous search") || !strings.Contains(v, old.ID) {
		t.Errorf("the old rows are not shown as such:\n%s", v)
	}
	fresh := syntheticOfferings(20)[10:]
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionSearching}
	m = update(m, searchEventsMsg{ID: id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: fresh[:6], Status: &st, CallsDone: 0, CallsTotal: 2}}})
	if !searching(m) || m.search().Table().Stale() || m.search().Table().Len() != 6 {
		t.Fatalf("after the first page: running=%v stale=%v len=%d", searching(m), m.search().Table().Stale(), m.search().Table().Len())
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "0 of 2 calls · 6 offerings so far") || strings.Contains(v, old.ID) {
		t.Errorf("the first page is not on screen alone:\n%s", v)
	}
	done := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 10}
	m = update(m, searchEventsMsg{ID: id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: fresh[6:], Status: &done, CallsDone: 2, CallsTotal: 2}}, Closed: true})
	if searching(m) || m.search().Table().Len() != 10 || foundOnScreen(m) != 10 {
		t.Errorf("after the last page: running=%v len=%d found=%d", searching(m), m.search().Table().Len(), foundOnScreen(m))
	}
	// A late message of an older search changes nothing.
	m2 := update(m, searchEventsMsg{ID: id - 1, Events: []source.SearchEvent{{Offerings: syntheticOfferings(3)}}, Closed: true})
	if m2.search().Table().Len() != 10 {
		t.Errorf("a stale search's page was added: %d rows", m2.search().Table().Len())
	}
}

// The header says "searching" only while a search runs; after it, the regions it covered.
func TestHeaderSearchingOnlyWhileRunning(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), syntheticOfferings(10))
	if searching(m) {
		t.Fatal("the synthetic search is still running")
	}
	head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
	if strings.Contains(head, "searching") || !strings.Contains(head, "searched ") {
		t.Errorf("a finished search: %q", head)
	}
	mm, _ := m.startSearch(m.search().Query()) // the search's calls are not run: it stays running
	m = mm.(Model)
	if head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]; !strings.Contains(head, "searching ") {
		t.Errorf("a running search: %q", head)
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
		m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
		head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
		if !strings.HasSuffix(strings.TrimSpace(head), c.want) || strings.Count(head, "UTC") != 1 {
			t.Errorf("in %v the header is %q, want it to end with %q", c.loc, head, c.want)
		}
	}
}
