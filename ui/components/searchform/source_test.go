package searchform

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// setField types a value into a text field of the form, as a person would.
func setField(m Model, f Field, v string) Model {
	m.SetFocus(f)
	return press(m, "ctrl+u", v)
}

// Each source's rules are checked as you type, in that source's words: plans reserve powers
// of two and last any whole number of days up to 182; blocks hold 1–64 and last 1–14 days or
// whole weeks. Searching both, what one source refuses is said, and the other searched.
func TestSourceRules(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m.SetFocus(Source)
	m = press(m, "right")
	q, ok := m.Query()
	if !ok || !slices.Equal(q.Sources, []model.Source{model.SourceTrainingPlan}) || !slices.Equal(q.Targets, []string{model.TargetTrainingJob}) {
		t.Fatalf("after → on the source: %v %v (%v)", q.Sources, q.Targets, m.Errors())
	}
	m = press(m, "t")
	if q, _ := m.Query(); !slices.Equal(q.Targets, []string{model.TargetHyperPodCluster}) {
		t.Errorf("t gives targets %v, want hyperpod-cluster", q.Targets)
	}

	// The arrows step through what plans sell: 1, 2, 4, … instances.
	m.SetFocus(Count)
	if m = press(m, "right", "right"); m.count.Value() != "4" {
		t.Errorf("→ → from 1 on a plans' count gives %s, want 4", m.count.Value())
	}
	m = setField(m, Count, "3")
	if e := m.Errors()[Count]; !strings.Contains(e, "Training Plans reserve 1, 2, 4, 8, 16, 32 or 64 instances, not 3") {
		t.Errorf("a count of 3 for plans: %q", e)
	}
	m = setField(m, Count, "4")
	m = setField(m, Duration, "20d")
	q, ok = m.Query()
	if !ok || q.Durations != (model.DurationRange{MinDays: 20, MaxDays: 20}) {
		t.Errorf("20 days for plans: %v %v", q.Durations, m.Errors())
	}
	m = setField(m, Duration, "200d")
	if e := m.Errors()[Duration]; !strings.Contains(e, "1 to 182 whole days") {
		t.Errorf("200 days for plans: %q", e)
	}
	m = setField(m, Duration, "2d-30d")
	if e := m.Errors()[Duration]; !strings.Contains(e, "at most 14") {
		t.Errorf("a sweep of 29 lengths for plans: %q", e)
	}

	// Blocks alone: 20 days is not sold.
	m = setField(m, Duration, "20d")
	m.SetFocus(Source)
	m = press(m, "left")
	if e := m.Errors()[Duration]; e == "" {
		t.Errorf("20 days for Capacity Blocks passed: %+v", m.Errors())
	}
	// Both: a count plans refuse is a note, not an error, and blocks are searched.
	m = setField(m, Duration, "2d")
	m = setField(m, Count, "3")
	m.SetFocus(Source)
	m = press(m, "right", "right")
	q, ok = m.Query()
	if !ok || len(q.Sources) != 2 {
		t.Fatalf("both, count 3: %v %v", q.Sources, m.Errors())
	}
	if n := m.Notes()[Count]; !strings.Contains(n, "not 3") || !strings.Contains(n, "only Capacity Blocks are searched") {
		t.Errorf("both, count 3: the note %q", n)
	}
	if v := ansi.Strip(m.View(60, 80, true)); !strings.Contains(v, "‹ Blocks and Plans ›") || !strings.Contains(v, "only Capacity Blocks are searched") {
		t.Errorf("the form does not show the choice and the note:\n%s", v)
	}
}

// Searching both sources, the count's note names the plans' counts whole: beside the
// field where it fits, else on a line of its own under it, never cut.
func TestCountNoteOfBothSourcesWhole(t *testing.T) {
	m := bothSources(t)
	for _, w := range []int{36, 38, 60, 80} {
		v := ansi.Strip(m.View(w, 80, true))
		flat := strings.Join(strings.Fields(v), " ")
		if !strings.Contains(flat, "of 1–64") || !strings.Contains(flat, "plans: 1, 2, 4, 8, 16, 32 or 64") {
			t.Errorf("%d columns: the count's note is cut:\n%s", w, v)
		}
	}
}

// Both sources and a length one of them does not sell: the search is sent, to the source
// that sells it (model.SplitQuery), and the form says which source is skipped and why.
func TestBothSourcesSearchTheOneThatSellsTheLength(t *testing.T) {
	m := bothSources(t)
	m = setField(m, Duration, "15d")
	q, ok := m.Query()
	if !ok || len(q.Sources) != 2 || q.Durations != (model.DurationRange{MinDays: 15, MaxDays: 15}) {
		t.Fatalf("both, 15d: not sent: %v %v", q, m.Errors())
	}
	if n := m.Notes()[Duration]; !strings.Contains(n, "not 15 days") || !strings.Contains(n, "only Training Plans are searched") {
		t.Errorf("both, 15d: the note %q", n)
	}
	for _, w := range []int{80, 120, 200} {
		flat := strings.Join(strings.Fields(ansi.Strip(m.View(w, 60, true))), " ")
		if !strings.Contains(flat, "only Training Plans are searched") {
			t.Errorf("%d columns: the form does not say which source is searched:\n%s", w, m.View(w, 60, true))
		}
	}
	m = setField(m, Duration, "200d")
	if _, ok := m.Query(); ok || !strings.Contains(m.Errors()[Duration], "not 200") {
		t.Errorf("both, 200d: sent, or no error: %v", m.Errors())
	}
}

// The footer's keys for a field are keys that do something there: t steps the target only
// once plans are chosen, and each key named changes the field.
func TestFieldKeysWork(t *testing.T) {
	m := New(theme.New(false), clock, "us-east-1")
	m.SetFocus(Source)
	if keysNamed(m.FieldKeys(), "t") {
		t.Error("the footer offers t with Capacity Blocks alone, where it does nothing")
	}
	if before, _ := m.Query(); press(m, "t").sources != m.sources || !slices.Equal(before.Targets, nil) {
		t.Error("t changed the form with Capacity Blocks alone")
	}
	m = press(m, "right")
	if !keysNamed(m.FieldKeys(), "t") || !keysNamed(m.FieldKeys(), "←/→") {
		t.Errorf("with plans chosen the footer lacks t or ←/→: %v", m.FieldKeys())
	}
	if got := press(m, "left"); got.sources.choice != 0 {
		t.Errorf("← from plans gives choice %d, want blocks (0)", got.sources.choice)
	}
	m.SetFocus(Count)
	if !keysNamed(m.FieldKeys(), "←/→") || !keysNamed(m.FieldKeys(), "+") {
		t.Errorf("the count's footer lacks ←/→ or +: %v", m.FieldKeys())
	}
}

func keysNamed(bs []key.Binding, name string) bool {
	for _, b := range bs {
		if b.Help().Key == name {
			return true
		}
	}
	return false
}

// bothSources is a new form whose source is set to search both sources.
func bothSources(t *testing.T) Model {
	t.Helper()
	m := New(theme.New(false), clock, "us-east-1")
	m.SetFocus(Source)
	for range 3 {
		if q, _ := m.Query(); len(q.Sources) == 2 {
			break
		}
		m = press(m, "right")
	}
	if q, _ := m.Query(); len(q.Sources) != 2 {
		t.Fatalf("no source setting searches both: %v", q.Sources)
	}
	return m
}
