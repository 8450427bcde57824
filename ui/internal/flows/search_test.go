package flows

import (
	"bytes"
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// fillForm types a search as a person would: the H200 types besides the default, two
// instances, a window from a date to a relative date, 3 days, every region selling them.
func fillForm(s *screen) {
	s.Press("/")
	s.Type("h200")
	s.Press("space", "esc")
	retype(s, "2", "2026-12-08", "+5w")
	s.Press("tab", "right", "tab", "a")
}

// feeSortedIn sorts the results by fee, cheapest first, and filters them to region.
func feeSortedIn(s *screen, region string) {
	s.T.Helper()
	s.Press("F")
	s.WaitText("Upfront fee▲")
	s.Press("/")
	s.Type(region)
	s.Press("enter")
	s.WaitText("filtered from")
}

// The whole flow: fill the form, watch the rows stream in, sort, filter, select, read the
// detail and copy its CLI command; at both golden sizes.
func TestFlow(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		s := readyScreen(t, testOptions(b), w, h)
		fillForm(s)
		found := searchFound(s)
		feeSortedIn(s, "us-east-2")
		// enter buys (issue 6); d opens the detail.
		s.Press("g", "j", "j", "d")
		s.WaitText("Why 11:30 UTC")
		s.Press("y")
		s.WaitText("Copied the AWS CLI search command")
		clipboardWritten(s)
		m := final(s)

		// The count as the results pane says it at the end, under the filter.
		if counted := foundOnScreen(update(m, uitest.Key("esc"))); counted != found || m.Inspect().Search.Table().Len() != found {
			t.Errorf("the screen said %d offerings; the search counted %d and the table holds %d", found, counted, m.Inspect().Search.Table().Len())
		}
		if focusedPane(m) != searchscreen.PaneDetail {
			t.Errorf("focus %d, want the detail pane", focusedPane(m))
		}
		if col, desc := m.Inspect().Search.Table().Sort(); col != offerings.ColFee || desc {
			t.Errorf("sort %v desc=%v, want by fee ascending", col, desc)
		}
		n := m.Inspect().Search.Table().Visible()
		if n == 0 || n >= found {
			t.Fatalf("the filter kept %d of %d rows; want some but not all", n, found)
		}
		var prev model.Money
		for i := 0; i < n; i++ {
			o := m.Inspect().Search.Table().Row(i)
			if o.Region != "us-east-2" {
				t.Errorf("row %d is in %s, past a filter for us-east-2", i, o.Region)
			}
			if i > 0 && o.Fee.Cmp(prev) < 0 {
				t.Errorf("row %d fee %s is below the row before it (%s) in a fee-ascending sort", i, o.Fee, prev)
			}
			prev = o.Fee
		}
		sel, ok := m.Inspect().Search.Table().Selected()
		if !ok || m.Inspect().Search.Table().Cursor() != 2 || sel.ID != m.Inspect().Search.Table().Row(2).ID {
			t.Fatalf("selected %v (cursor %d), want the third visible row", sel.ID, m.Inspect().Search.Table().Cursor())
		}
		view := ansi.Strip(m.View().Content)
		for _, want := range []string{sel.ID, sel.Fee.Dollars(), "terminated from 11:00 UTC", "03:30 PST"} {
			if !strings.Contains(view, want) {
				t.Errorf("the detail lacks %q:\n%s", want, view)
			}
		}
		osc := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(detail.SearchCommand(sel, m.Inspect().Search.Query())))
		if !bytes.Contains(s.Raw, []byte(osc)) {
			t.Errorf("no OSC 52 clipboard write of %q", detail.SearchCommand(sel, m.Inspect().Search.Query()))
		}
		golden.RequireEqual(t, []byte(view))
	})
}

// A new search keeps the old rows until its own arrive, and esc cancels it.
func TestCancelSearchKeepsOldRows(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	s := readyScreen(t, testOptions(b), 160, 48)
	first := searchFound(s)
	// Slow every call down so that the second search is still running when esc comes.
	sim.SetFaults(ec2sim.Faults{Latency: 2 * time.Second})
	s.Press("shift+tab", "a", "enter") // back to the form's last field, the regions
	s.WaitText("the rows shown are from the previous search")
	s.Press("esc")
	s.WaitText("Search cancelled")
	m := final(s)
	cancelledLine := strings.Contains(ansi.Strip(m.View().Content), "Search cancelled after")
	if searching(m) || !cancelledLine {
		t.Errorf("running=%v cancelled=%v after esc", searching(m), cancelledLine)
	}
	if m.Inspect().Search.Table().Len() != first || !m.Inspect().Search.Table().Stale() {
		t.Errorf("after the cancel the table holds %d rows (stale=%v), want the %d of the first search, marked stale", m.Inspect().Search.Table().Len(), m.Inspect().Search.Table().Stale(), first)
	}
	cancelled := 0
	searched, regions := regionsOnScreen(t, m)
	for _, st := range regions {
		if st.state == "cancelled" {
			cancelled++
		}
	}
	if len(searched) < 2 || cancelled == 0 {
		t.Errorf("%d regions searched, %d marked cancelled; want several, some cancelled", len(searched), cancelled)
	}
}

// altsRecorder keeps what the backend answered the screen's request for alternatives,
// which the screen lists as it got them.
type altsRecorder struct {
	source.Backend
	mu    sync.Mutex
	calls int
	last  []source.Suggestion
}

func (r *altsRecorder) Alternatives(ctx context.Context, q model.Query) ([]source.Suggestion, error) {
	alts, err := r.Backend.Alternatives(ctx, q)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	r.last = alts
	return alts, err
}

// asked reports whether the screen asked the backend for alternatives at all.
func asked(r *altsRecorder) bool { calls, _ := r.answered(); return calls > 0 }

func (r *altsRecorder) answered() (int, []source.Suggestion) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls, r.last
}

// A search that finds nothing says why, lists the adapter's alternatives, runs the
// largest-count probe on L, and searches an alternative on its number.
func TestEmptyResultAlternativesAndProbe(t *testing.T) {
	eb, _ := emulatorBackend(t, ec2sim.Faults{})
	b := &altsRecorder{Backend: eb}
	s := readyScreen(t, testOptions(b), 160, 48)
	retype(s, "64", "now", "+16d", "14d") // count, start, end, duration
	s.Press("enter")
	s.WaitText("No offerings for 64 × p5.48xlarge")
	text := s.WaitFor("the alternatives", func(text string) bool {
		return strings.Contains(text, "Alternatives (") || strings.Contains(text, "No nearby alternative")
	})
	if !regexp.MustCompile(`starting \w{3} \d\d \d\d:\d\d UTC → ending \w{3} \d\d \d\d:\d\d UTC`).MatchString(text) {
		t.Errorf("the empty result's window does not say its times are UTC:\n%s", text)
	}
	if !strings.Contains(text, "Why it may be: size") {
		t.Errorf("no explanation of an empty result:\n%s", text)
	}
	s.Press("L")
	s.WaitText("Largest count with any offering:")
	m := final(s)
	if nothing := strings.Contains(ansi.Strip(m.View().Content), "Nothing found in"); !nothing || m.Inspect().Search.Table().Len() != 0 {
		t.Fatalf("nothing found said %v, table %d; want an empty result", nothing, m.Inspect().Search.Table().Len())
	}
	calls, alts := b.answered()
	if calls != 1 || len(alts) == 0 {
		t.Fatalf("the adapter, asked %d times, suggested no alternative for 64 × p5.48xlarge for 14 days", calls)
	}
	view := ansi.Strip(m.View().Content)
	for _, a := range alts {
		if a.Offerings <= 0 || a.Description == "" || a.Query.Validate(testNow) != nil {
			t.Errorf("suggestion %+v: want a description, offerings and a valid query", a)
		}
		if !strings.Contains(view, a.Description) {
			t.Errorf("suggestion %q is not listed:\n%s", a.Description, view)
		}
	}
	probe := probeOnScreen(m)
	if len(probe) != 1 || probe[0].region != "us-east-1" || probe[0].err != "" {
		t.Fatalf("probe %+v: want one answer for us-east-1", probe)
	}
	if c := probe[0].count; c < 0 || c >= 64 {
		t.Errorf("largest count %d: 64 found nothing, so it must be below 64", c)
	}
	// With no row, enter takes the chosen alternative: the footer says so, not "buy".
	if foot := lastLine(m); !strings.Contains(foot, "enter search the chosen alternative") || strings.Contains(foot, "buy") || !strings.Contains(foot, "L largest count") {
		t.Errorf("footer of an empty result: %q", foot)
	}

	// The first alternative, chosen and taken with enter, is searched and finds what it
	// promised.
	s2 := newScreen(t, m, 160, 48)
	s2.Press("down", "up", "enter")
	got := s2.FoundCount()
	if got == 0 {
		t.Errorf("the first alternative (%s) found nothing", alts[0].Description)
	}
	final(s2)
}

// A region that is down is reported with its message; the others complete.
func TestRegionDown(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-west-2"}})
	s := readyScreen(t, testOptions(b), 160, 48)
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	found := s.FoundCount()
	text := s.WaitText("1 region failed")
	m := final(s)
	_, regions := regionsOnScreen(t, m)
	if st := regions["us-west-2"]; st.state != "error" || st.message == "" {
		t.Errorf("us-west-2: %+v, want an error with a message", st)
	}
	ok := 0
	for r, st := range regions {
		if r != "us-west-2" && st.state == "ok" {
			ok++
		}
	}
	if ok < 2 || found == 0 {
		t.Errorf("%d other regions ok, %d offerings; want the others to complete", ok, found)
	}
	for i := 0; i < m.Inspect().Search.Table().Visible(); i++ {
		if m.Inspect().Search.Table().Row(i).Region == "us-west-2" {
			t.Errorf("a row from the region that is down: %+v", m.Inspect().Search.Table().Row(i))
		}
	}
	if !strings.Contains(text, "us-west-2") || !strings.Contains(text, "error") {
		t.Errorf("the screen does not show the failed region:\n%s", text)
	}
}

// When no region answers, the screen says the search failed, not that nothing is on offer.
func TestEveryRegionDown(t *testing.T) {
	eb, _ := emulatorBackend(t, ec2sim.Faults{Down: []string{"ec2:us-east-1"}})
	b := &altsRecorder{Backend: eb}
	s := newScreen(t, ui.New(testOptions(b)), 100, 30)
	s.WaitText("SIMULATED")
	s.Press("enter")
	text := s.WaitText("failed in every region")
	m := final(s)
	// The search is over and no probe was asked for, so a busy screen would be looking
	// for alternatives.
	if strings.Contains(text, "No offerings for") || m.Inspect().Search.Busy() || asked(b) {
		t.Errorf("a failed search was treated as an empty one:\n%s", text)
	}
	if _, regions := regionsOnScreen(t, m); regions["us-east-1"].state != "error" || !strings.Contains(text, regions["us-east-1"].message[:min(20, len(regions["us-east-1"].message))]) {
		t.Errorf("us-east-1 %+v; the screen should carry its message:\n%s", regions["us-east-1"], text)
	}
}

// In a terminal of each size: tab walks the form's fields top to bottom as drawn, each
// focused field in view; shift+tab walks back to the source at the top, and from there to
// the pane before the form, where tab's reverse goes. The arrows on the duration step from
// the length as typed.
func TestFormOrderInTheTerminal(t *testing.T) {
	atSizes(t, [][2]int{{80, 24}, {120, 40}, {200, 60}}, func(t *testing.T, w, h int) {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		s := readyScreen(t, testOptions(b), w, h)
		s.WaitText("›Types")
		// rows finds the focused label and, if still in view, the label of the field before.
		rows := func(label, before string) (int, int) {
			text := s.WaitText("›" + label)
			at, prev := -1, -1
			for i, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "›"+label) {
					at = i
				}
				if before != "" && strings.Contains(l, "┃ "+before+" ") {
					prev = i
				}
			}
			return at, prev
		}
		s.Press("shift+tab")
		if text := s.WaitText("›Source"); !strings.Contains(text, "┃ Types ") {
			t.Errorf("the source is focused but the types below it are not drawn:\n%s", text)
		}
		before := "Source"
		for _, label := range []string{"Types", "Count", "Start", "End", "Duration", "Regions"} {
			s.Press("tab")
			if at, prev := rows(label, before); prev >= at {
				t.Errorf("tab from %s to %s: drawn at row %d, the field before at row %d", before, label, at, prev)
			}
			before = label
		}
		s.Press("shift+tab") // the duration
		s.WaitText("›Duration")
		s.Press("ctrl+u")
		s.Type("15d")
		s.WaitText("15d")
		s.TM.Send(tea.KeyPressMsg{Code: tea.KeyRight})
		s.WaitFor("15d → 3w", func(text string) bool { return strings.Contains(text, "‹ 3w") })
		s.Press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
		s.WaitText("›Source")
		s.Press("shift+tab")
		s.WaitFor("the source unfocused", func(text string) bool { return !strings.Contains(text, "›Source") })
		if m := final(s); focusedPane(m) != searchscreen.PaneDetail {
			t.Errorf("shift+tab from the first field: pane %d, want the detail (where tab enters the form from)", focusedPane(m))
		}
	})
}

// The form's footer names the focused field's keys: it offered "/ filter the types" and
// "←/→ step" on the regions, where neither does anything, and never "a all regions".
func TestFormFooterFollowsTheField(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 200, Height: 50})
	for _, c := range []struct {
		field     searchform.Field
		want, not []string
	}{
		{searchform.Types, []string{"/ filter the types", "space choose"}, []string{"←/→ step", "all regions"}},
		{searchform.Count, []string{"+ more", "- fewer"}, []string{"filter the types", "space choose"}},
		{searchform.Start, []string{"enter search", "ctrl+c quit"}, []string{"filter the types", "space choose", "step"}},
		{searchform.Duration, []string{"←/→ step"}, []string{"filter the types", "space choose"}},
		{searchform.Regions, []string{"space choose", "a all regions selling the types", "q quit"}, []string{"filter the types", "step"}},
	} {
		m = focusField(t, m, c.field)
		foot := lastLine(m)
		for _, w := range c.want {
			if !strings.Contains(foot, w) {
				t.Errorf("field %d: the footer %q lacks %q", c.field, foot, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(foot, n) {
				t.Errorf("field %d: the footer %q offers %q", c.field, foot, n)
			}
		}
	}
}

// While a table's filter takes the keys the footer says so: it offered "enter buy…" and
// "q quit", where enter keeps the filter and q is a letter.
func TestFooterWhileFilteringATable(t *testing.T) {
	m := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 200, Height: 50})
	m = withResults(m, uitest.SyntheticOfferings(10))
	m = update(m, uitest.Key("/"))
	foot := lastLine(m)
	if !strings.Contains(foot, "enter/tab keep filter") || !strings.Contains(foot, "esc clear filter") || !strings.Contains(foot, "ctrl+c quit") ||
		strings.Contains(foot, "buy") || strings.Contains(foot, "q quit") {
		t.Errorf("filtering the offerings, the footer is %q", foot)
	}
	m = update(m, uitest.Key("enter"))
	if foot := lastLine(m); !strings.Contains(foot, "enter buy") {
		t.Errorf("after enter kept the filter, the footer is %q", foot)
	}
	m = update(m, uitest.Key("2"), uitest.Key("/"))
	if m.Inspect().Screen != ui.Blocks || !m.Inspect().Blocks.Table().Filtering() {
		t.Fatalf("2 / did not open the blocks' filter (screen %s)", m.Inspect().Screen)
	}
	if foot := lastLine(m); !strings.Contains(foot, "enter/tab keep filter") || strings.Contains(foot, "enter details") || strings.Contains(foot, "q quit") {
		t.Errorf("filtering the blocks, the footer is %q", foot)
	}
}

// focusField moves the form's focus to f with tab and shift+tab, as a person does.
func focusField(t *testing.T, m ui.Model, f searchform.Field) ui.Model {
	t.Helper()
	for range 10 {
		at := focusedField(m)
		if at == f {
			break
		}
		k := "tab"
		if at > f {
			k = "shift+tab"
		}
		m = update(m, uitest.Key(k))
	}
	if focusedPane(m) != searchscreen.PaneForm || focusedField(m) != f {
		t.Fatalf("tab and shift+tab did not reach field %d: pane %d, field %d", f, focusedPane(m), focusedField(m))
	}
	return m
}

// focusResults moves the search screen's focus to the results with the keys: shift+tab out
// of the form to the detail, esc back to the results. t nil: a state builder that the
// assertions on the state check.
func focusResults(t *testing.T, m ui.Model) ui.Model {
	for range 10 {
		if focusedPane(m) != searchscreen.PaneForm {
			break
		}
		m = update(m, uitest.Key("shift+tab"))
	}
	if focusedPane(m) == searchscreen.PaneDetail {
		m = update(m, uitest.Key("esc"))
	}
	if t != nil && focusedPane(m) != searchscreen.PaneResults {
		t.Helper()
		t.Fatalf("shift+tab and esc did not reach the results: pane %d", focusedPane(m))
	}
	return m
}

// A click on an offering's row selects it, the wheel over the table moves the cursor, a
// click on a column's title sorts by it, twice the other way; wide and stacked.
func TestMouseSelectsScrollsAndSortsOfferings(t *testing.T) {
	for _, sz := range [][2]int{{160, 48}, {100, 30}} {
		m := withResults(update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), uitest.SyntheticOfferings(30))
		if sz[0] < uiscreen.WideWidth && focusedPane(m) != searchscreen.PaneResults {
			t.Fatalf("%v: stacked, the results do not have the focus after the search", sz)
		}
		if m.Inspect().Search.Table().Visible() < 5 {
			t.Fatalf("%v: %d rows", sz, m.Inspect().Search.Table().Visible())
		}
		target := m.Inspect().Search.Table().Row(3)
		_, hy := uitest.FindOnScreen(t, m.View().Content, "$/inst-h", 0)
		x, y := uitest.FindOnScreen(t, m.View().Content, target.Fee.Dollars(), hy+1)
		m = update(m, uitest.Click(x, y))
		if got, _ := m.Inspect().Search.Table().Selected(); got.ID != target.ID {
			t.Fatalf("%v: a click on the row of %s selected %s", sz, target.ID, got.ID)
		}
		m = update(m, uitest.Wheel(x, y, true), uitest.Wheel(x, y, true))
		if m.Inspect().Search.Table().Cursor() != 5 {
			t.Errorf("%v: two notches down from row 3 put the cursor on %d", sz, m.Inspect().Search.Table().Cursor())
		}
		m = update(m, uitest.Wheel(x, y, false))
		if m.Inspect().Search.Table().Cursor() != 4 {
			t.Errorf("%v: a notch up put the cursor on %d", sz, m.Inspect().Search.Table().Cursor())
		}
		// A click on the title sorts by it, a second click the other way.
		hx, hy := uitest.FindOnScreen(t, m.View().Content, "$/inst-h", 0)
		m = update(m, uitest.Click(hx+1, hy))
		if c, desc := m.Inspect().Search.Table().Sort(); c != offerings.ColRate || desc {
			t.Errorf("%v: a click on $/inst-h sorted by %s (desc %v)", sz, offerings.ColumnName(c), desc)
		}
		hx, hy = uitest.FindOnScreen(t, m.View().Content, "$/inst-h", 0)
		m = update(m, uitest.Click(hx+1, hy))
		if c, desc := m.Inspect().Search.Table().Sort(); c != offerings.ColRate || !desc {
			t.Errorf("%v: a second click sorted by %s (desc %v), want $/inst-h descending", sz, offerings.ColumnName(c), desc)
		}
		// The lines below the last row and the form hold no row.
		before := m.Inspect().Search.Table().Cursor()
		m = update(m, uitest.Click(1, m.Inspect().Height-1))
		if m.Inspect().Search.Table().Cursor() != before {
			t.Errorf("%v: a click on the help line moved the cursor to %d", sz, m.Inspect().Search.Table().Cursor())
		}
	}
}
