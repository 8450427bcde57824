package searchform

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

var now = uitest.Now

func clock() time.Time { return now }

// press is m after keys, each a key by name (uitest.Key) or a word, typed letter by letter
// (none for "").
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		if k != "" && uitest.Key(k).Text != k {
			m, _, _ = m.Update(uitest.Key(k))
			continue
		}
		for _, r := range k {
			m, _, _ = m.Update(uitest.Key(string(r)))
		}
	}
	return m
}

func TestDefaultsAreValid(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	q, ok := m.Query()
	if !ok {
		t.Fatalf("the defaults do not validate: %v", m.Errors())
	}
	if len(q.InstanceTypes) != 1 || q.InstanceTypes[0] != "p5.48xlarge" || q.Count != 1 || q.Durations != (model.DurationRange{MinDays: 2, MaxDays: 2}) ||
		!q.Start.Equal(now) || !q.End.Equal(now.AddDate(0, 0, 28)) || len(q.Regions) != 1 || q.Regions[0] != "us-east-1" {
		t.Errorf("defaults %+v", q)
	}
	// A home region that sells no Capacity Blocks gives every region selling the type.
	m = New(theme.New(false), clock, "eu-central-1")
	if q, _ := m.Query(); len(q.Regions) != len(model.RegionsSelling("p5.48xlarge")) {
		t.Errorf("regions %v for a home region without Capacity Blocks", q.Regions)
	}
}

// Each field is validated as it is edited, the message beside it, and enter with an
// invalid form gives no query.
func TestLiveValidation(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m = press(m, "tab", "ctrl+u", "65")
	if _, ok := m.Query(); ok {
		t.Fatal("count 65 validated")
	}
	if msg := m.Errors()[Count]; !strings.Contains(msg, "1 to 64") {
		t.Errorf("count message %q", msg)
	}
	if v := ansi.Strip(m.View(80, 60, true)); !strings.Contains(v, "✗ 65 is not allowed") {
		t.Errorf("the count's message is not in the view:\n%s", v)
	}
	m = press(m, "ctrl+u", "x") // not a digit: swallowed
	if m.count.Value() != "" {
		t.Errorf("count took %q", m.count.Value())
	}
	m = press(m, "4", "tab", "ctrl+u", "+9w")
	if msg := m.Errors()[Start]; !strings.Contains(msg, "8 weeks") {
		t.Errorf("start +9w: %q", msg)
	}
	m = press(m, "ctrl+u", "yesterday")
	if msg := m.Errors()[Start]; !strings.Contains(msg, "want 2026-12-03") {
		t.Errorf("start yesterday: %q", msg)
	}
	m = press(m, "ctrl+u", "2026-12-05", "tab", "ctrl+u", "2026-12-04")
	if msg := m.Errors()[End]; !strings.Contains(msg, "after the start") {
		t.Errorf("end before start: %q", msg)
	}
	m = press(m, "ctrl+u", "2026-12-20", "tab", "ctrl+u", "15d")
	if msg := m.Errors()[Duration]; !strings.Contains(msg, "not sold") {
		t.Errorf("duration 15d: %q", msg)
	}
	m = press(m, "ctrl+u", "2d-7d")
	q, ok := m.Query()
	if !ok || !q.Durations.IsRange() || q.Count != 4 || len(q.Durations.Days()) != 6 {
		t.Errorf("after fixing every field: ok=%v %+v %v", ok, q, m.Errors())
	}
}

// The arrows on the duration offer only the durations AWS sells.
func TestDurationSteps(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m.SetFocus(Duration)
	m.duration.SetValue("14d")
	m = press(m, "right")
	if m.duration.Value() != "3w" {
		t.Errorf("14d → %q, want 3w", m.duration.Value())
	}
	m = press(m, "left", "left")
	if m.duration.Value() != "13d" {
		t.Errorf("3w ←← → %q, want 13d", m.duration.Value())
	}
	m.duration.SetValue("26w")
	m = press(m, "right")
	if m.duration.Value() != "26w" {
		t.Errorf("26w → %q, want to stay at the longest", m.duration.Value())
	}
	m.duration.SetValue("1d")
	m = press(m, "left")
	if m.duration.Value() != "1d" {
		t.Errorf("1d ← %q", m.duration.Value())
	}
	for i := 0; i < 40; i++ {
		m = press(m, "right")
		r, err := model.ParseDuration(m.duration.Value())
		if err != nil || !model.ValidDuration(r.MinDays) {
			t.Fatalf("stepped to %q (%v)", m.duration.Value(), err)
		}
	}
	m.SetFocus(Count)
	m = press(m, "ctrl+u", "64", "+", "+")
	if m.count.Value() != "64" {
		t.Errorf("count stepped past 64: %q", m.count.Value())
	}
}

// The fuzzy filter, choosing types with space, and "all regions that sell the chosen types".
func TestTypesAndRegions(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m = press(m, "/", "b200")
	if len(m.typeMatches) == 0 || m.catalog[m.typeMatches[0]].Name != "p6-b200.48xlarge" {
		t.Fatalf("b200 matches %v", m.typeMatches)
	}
	m = press(m, "space", "esc")
	if m.typeFilter.Value() != "" || len(m.typeMatches) != len(m.catalog) {
		t.Errorf("esc left the filter %q", m.typeFilter.Value())
	}
	if got := m.ChosenTypes(); len(got) != 2 || got[0] != "p5.48xlarge" || got[1] != "p6-b200.48xlarge" {
		t.Errorf("chosen %v", got)
	}
	if v := ansi.Strip(m.View(60, 60, true)); !strings.Contains(v, "p6-b200.48xlarge 8×B200 179G  1/1") {
		t.Errorf("the list does not show accelerators and chosen regions selling:\n%s", v)
	}
	m.SetFocus(Regions)
	m = press(m, "a")
	want := model.RegionsSelling("p5.48xlarge", "p6-b200.48xlarge")
	if got := m.ChosenRegions(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("all selling: %v, want %v", got, want)
	}
	// Unchoosing one region leaves the others.
	m = press(m, "down", "space")
	if got := m.ChosenRegions(); len(got) != len(want)-1 || got[0] == m.regions[0] {
		t.Errorf("after unchoosing %s: %v", m.regions[0], got)
	}
	if m.Typing() {
		t.Error("the region list counts as typing, so q would not quit")
	}
	m.SetFocus(Types)
	m = press(m, "/")
	if !m.Typing() {
		t.Error("the type filter does not count as typing")
	}
}

func TestSetQuery(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	in := model.Query{InstanceTypes: []string{"p5e.48xlarge"}, Count: 3, Durations: model.DurationRange{MinDays: 21, MaxDays: 21},
		Start: now.Add(48 * time.Hour), End: now.AddDate(0, 0, 40), Regions: []string{"us-east-2", "us-west-2"}}
	m.SetQuery(in)
	out, ok := m.Query()
	if !ok {
		t.Fatalf("%v", m.Errors())
	}
	if out.Count != 3 || out.Durations != in.Durations || !out.Start.Equal(in.Start) || !out.End.Equal(in.End) ||
		strings.Join(out.Regions, ",") != "us-east-2,us-west-2" || strings.Join(out.InstanceTypes, ",") != "p5e.48xlarge" {
		t.Errorf("round trip: %+v", out)
	}
}

func TestViewFitsAnySize(t *testing.T) {
	m := New(theme.New(true), clock, "us-east-1")
	for w := 0; w < 120; w += 7 {
		for h := 0; h < 60; h += 5 {
			v := m.View(w, h, true)
			if n := strings.Count(v, "\n") + 1; v != "" && n > h {
				t.Fatalf("%dx%d: %d lines", w, h, n)
			}
		}
	}
}

// The type list is where the program starts: until / opens its filter, the keys of the
// whole program (q, ?, the screen digits) are not typed into it, and j/k move.
func TestTypeFilterOpensWithSlash(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	if m.Typing() {
		t.Fatal("the type list counts as typing before /, so q and 2 would be letters")
	}
	for _, k := range []string{"2", "q", "?"} {
		var used bool
		m, _, used = m.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k})
		if used || m.typeFilter.Value() != "" {
			t.Errorf("%s went into the list (used %v, filter %q)", k, used, m.typeFilter.Value())
		}
	}
	m = press(m, "j", "j")
	if m.typeCursor != 2 {
		t.Errorf("j j moved the cursor to %d", m.typeCursor)
	}
	m = press(m, "/", "h200")
	if !m.Typing() || m.typeFilter.Value() != "h200" {
		t.Fatalf("after /: typing %v, filter %q", m.Typing(), m.typeFilter.Value())
	}
	var used bool
	m, _, used = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !used || m.Typing() || m.typeFilter.Value() != "h200" {
		t.Errorf("enter in the filter: used %v (false: a search would start), typing %v, filter %q", used, m.Typing(), m.typeFilter.Value())
	}
	if _, _, used = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); used {
		t.Error("a second enter does not reach the caller, which searches")
	}
	m = press(m, "/", "esc")
	if m.Typing() || m.typeFilter.Value() != "" {
		t.Errorf("esc: typing %v, filter %q", m.Typing(), m.typeFilter.Value())
	}
	m = press(m, "/", "tab")
	if m.Filtering() || m.Focus() != Count {
		t.Errorf("tab out of the filter: filtering %v, focus %v", m.Filtering(), m.Focus())
	}
}

// An UltraServer's accelerators ("72×GB200 185G") are the longest entry: its line keeps
// the regions column in line with the others and within the 38 cells of the wide form.
func TestTypeListColumnsInLine(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	v := ansi.Strip(m.View(38, 60, true))
	col := -1
	for _, l := range strings.Split(v, "\n") {
		if !strings.Contains(l, "[ ]") && !strings.Contains(l, "[x]") || strings.Contains(l, "sells") || strings.Contains(l, "all regions") {
			continue // the region list has its own columns
		}
		i := strings.LastIndex(l, "1/1")
		if i < 0 {
			i = strings.LastIndex(l, "0/1")
		}
		if i < 0 {
			t.Errorf("no regions column: %q", l)
			continue
		}
		if at := ansi.StringWidth(l[:i]); col < 0 {
			col = at
		} else if at != col {
			t.Errorf("regions column at %d, want %d: %q", at, col, l)
		}
	}
	if !strings.Contains(v, "u-p6e-gb200x72") {
		t.Errorf("no UltraServer in the list:\n%s", v)
	}
}

// The region list moves with j/k as the type list above it does (they did nothing there).
func TestRegionListMovesWithJK(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m.SetFocus(Regions)
	m = press(m, "j", "j", "space")
	if got := m.ChosenRegions(); strings.Join(got, ",") != m.regions[1]+",us-east-1" {
		t.Errorf("j j space chose %v, want %s and us-east-1", got, m.regions[1])
	}
	m = press(m, "k", "space")
	if got := m.ChosenRegions(); strings.Join(got, ",") != strings.Join([]string{m.regions[0], m.regions[1], "us-east-1"}, ",") {
		t.Errorf("k space chose %v", got)
	}
	if m.Focus() != Regions {
		t.Errorf("focus %v, want the regions", m.Focus())
	}
}

// AWS's 8 weeks bound a block's start; a window may end a block's length later. The note
// under the dates says so, instead of "8 weeks ahead: …" under the end, which read as the
// end's limit.
func TestLatestStartNote(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	latest := now.Add(model.MaxLeadTime).Format("Jan 02 15:04")
	if v := ansi.Strip(m.View(60, 60, true)); !strings.Contains(v, "latest start: "+latest+" UTC (8 weeks ahead)") || strings.Contains(v, "8 weeks ahead:") {
		t.Errorf("the form at 60 columns:\n%s", v)
	}
	if v := ansi.Strip(m.View(36, 60, true)); !strings.Contains(v, "latest start: "+latest+" UTC") {
		t.Errorf("the form at 36 columns:\n%s", v)
	}
	// The end may go past it by the block's length.
	m = press(m, "tab", "tab", "tab", "ctrl+u", "+57d")
	if _, ok := m.Query(); !ok {
		t.Errorf("a 2-day search ending 8 weeks and a day ahead (after the latest start) is refused: %v", m.Errors())
	}
}

// The arrows step from the text in the field as typed, read by the field's own syntax,
// whether or not the source sells that length: from an unsold length → gives the next
// sold length above it and ← the one below, never a step from the value before the edit.
func TestStepsFromTheTypedText(t *testing.T) {
	for _, tc := range []struct {
		plans       bool
		typed       string
		right, left string
	}{
		{false, "15d", "3w", "14d"},
		{false, "2w", "3w", "13d"},
		{false, "360h", "3w", "14d"},
		{false, "2d-15d", "2d-3w", "2d-14d"},
		{true, "15d", "16d", "14d"},
		{true, "200d", "26w", "26w"},
	} {
		m := New(theme.New(false), clock, "us-east-1")
		if tc.plans {
			m = press(setField(m, Source, ""), "right")
		}
		for _, dir := range []string{"right", "left"} {
			got := press(setField(m, Duration, tc.typed), dir).duration.Value()
			want := map[string]string{"right": tc.right, "left": tc.left}[dir]
			if got != want {
				t.Errorf("plans=%v: typed %q then %s gives %q, want %q", tc.plans, tc.typed, dir, got, want)
			}
		}
	}
	// The count steps from what is typed too.
	m := New(theme.New(false), clock, "us-east-1")
	if got := press(setField(m, Count, "17"), "right").count.Value(); got != "18" {
		t.Errorf("count typed 17 then → gives %q, want 18", got)
	}
}

// The focus moves through the fields in the order they are drawn: each tab lands on a
// field drawn below the one before, shift+tab walks back the same way, and neither moves
// past the form's first or last field (the screen moves to the pane before or after).
func TestFocusOrderIsTheDrawnOrder(t *testing.T) {
	names := [numFields]string{Source: "Source", Types: "Types", Count: "Count", Start: "Start", End: "End", Duration: "Duration", Regions: "Regions"}
	labelLine := func(m Model) (Field, int) {
		for i, l := range strings.Split(ansi.Strip(m.View(80, 1000, true)), "\n") {
			for f, n := range names {
				if strings.HasPrefix(l, "›"+n+" ") {
					return Field(f), i
				}
			}
		}
		t.Fatalf("no focused label in:\n%s", ansi.Strip(m.View(80, 1000, true)))
		return 0, 0
	}
	m := New(theme.New(false), clock, "us-east-1")
	if m.Focus() != Types {
		t.Fatalf("the form opens on %s, want the type list", names[m.Focus()])
	}
	for m.Focus() != 0 {
		var used bool
		if m, _, used = m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}); !used {
			t.Fatalf("shift+tab from %s left the form", names[m.Focus()])
		}
	}
	if _, _, used := m.Update(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}); used || !m.AtFirst() {
		t.Error("shift+tab from the first field stayed in the form")
	}
	f, line := labelLine(m)
	if f != m.Focus() || line != 0 {
		t.Errorf("the first field in focus order, %s, is drawn at line %d (focused label %s)", names[m.Focus()], line, names[f])
	}
	var seen []Field
	for {
		seen = append(seen, m.Focus())
		next, _, used := m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
		if !used {
			break
		}
		nf, nl := labelLine(next)
		if nf != next.Focus() || nl <= line {
			t.Errorf("tab from %s to %s: drawn at line %d, the field before at %d", names[m.Focus()], names[next.Focus()], nl, line)
		}
		m, line = next, nl
	}
	if len(seen) != int(numFields) || !m.AtLast() {
		t.Errorf("tab visited %v, want every field once", seen)
	}
	// The arrows move between fields in the same order.
	m.SetFocus(Types)
	if m = press(m, "up"); m.Focus() != Source {
		t.Errorf("↑ from the top of the type list: %s, want the source drawn above it", names[m.Focus()])
	}
	if m = press(m, "down"); m.Focus() != Types {
		t.Errorf("↓ from the source: %s, want the types drawn below it", names[m.Focus()])
	}
	if m = press(m, "shift+tab", "up"); m.Focus() != Source {
		t.Errorf("↑ from the first field moved to %s", names[m.Focus()])
	}
}

// A form taller than its pane opens at its top and scrolls only as far as the focused line
// needs; the lines cut above and below are counted, and the counts add up to the form.
func TestScrollOpensAtTheTopAndCountsWhatIsCut(t *testing.T) {
	base := New(theme.New(false), clock, "us-east-1")
	lines := func(m Model) int { return len(strings.Split(m.View(60, 1000, true), "\n")) } // a focused field shows its hint
	moreRE := func(l, dir string) int {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(l), dir+" %d more", &n); err != nil {
			return -1
		}
		return n
	}
	for h := 3; h < lines(base)+8; h++ {
		m := base
		for {
			full := lines(m)
			v := strings.Split(ansi.Strip(m.View(60, h, true)), "\n")
			if len(v) != min(h, full) {
				t.Fatalf("height %d: %d lines of %d", h, len(v), full)
			}
			if len(v) < h {
				if strings.Contains(strings.Join(v, "\n"), "more ") {
					t.Errorf("height %d: a form that fits counts lines cut", h)
				}
				if m.AtLast() {
					break
				}
				m = press(m, "tab")
				continue
			}
			above, below := moreRE(v[0], "↑"), moreRE(v[h-1], "↓")
			shown := h - max(0, min(above, 1)) - max(0, min(below, 1))
			if above < 0 {
				above = 0
			}
			if below < 0 {
				below = 0
			}
			if above+shown+below != full {
				t.Errorf("height %d, focus %d: %d above + %d shown + %d below ≠ %d lines", h, m.Focus(), above, shown, below, full)
			}
			focused := false
			for _, l := range v {
				focused = focused || strings.HasPrefix(l, "›")
			}
			if !focused {
				t.Errorf("height %d, focus %d: the focused line is cut:\n%s", h, m.Focus(), strings.Join(v, "\n"))
			}
			if m.Focus() == Types && h >= 8 && !strings.HasPrefix(v[0], " Source") {
				t.Errorf("height %d: the form opens scrolled past its first field:\n%s", h, strings.Join(v, "\n"))
			}
			if m.AtLast() {
				break
			}
			m = press(m, "tab")
		}
	}
}

// The n/m after each type is explained under the types' label whenever the rows show it,
// at every width the form is drawn at; a form too narrow for the counts does not speak of them.
func TestTypeCountsAreExplained(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	count := regexp.MustCompile(`\d+/\d+$`)
	for _, w := range []int{30, 38, 44, 60, 80} {
		v := ansi.Strip(m.View(w, 60, true))
		shows := false
		for _, l := range strings.Split(v, "\n") {
			if (strings.Contains(l, "[ ]") || strings.Contains(l, "[x]")) && strings.Contains(l, "×") {
				shows = shows || count.MatchString(strings.TrimRight(l, " "))
			}
		}
		explained := strings.Contains(v, "n/m:")
		if shows != explained {
			t.Errorf("width %d: counts shown %v, explained %v:\n%s", w, shows, explained, v)
		}
		if w >= 38 && !shows {
			t.Errorf("width %d: no counts", w)
		}
	}
}
