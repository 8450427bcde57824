package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// An alternative in the window searched keeps the form's "now" and "+4w": the form took
// the alternative's resolved times, and searching again minutes later was refused because
// the start had passed. An alternative of another window still sets its dates.
func TestAlternativeKeepsTheRelativeWindow(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = withResults(m, nil)
	same := m.search.Query()
	same.Count = 44
	later := m.search.Query()
	later.Start, later.End = later.End, later.End.AddDate(0, 0, 14)
	m.search.SetAlternatives([]Suggestion{{Description: "44 instead of 1", Query: same, Offerings: 1}, {Description: "later window", Query: later, Offerings: 2}})

	now = now.Add(10 * time.Minute)
	mm, _ := m.takeAlternative(0)
	got := mm.(Model)
	if q := got.search.Query(); q.Count != 44 || !q.Start.Equal(now) || !q.End.Equal(now.AddDate(0, 0, 28)) {
		t.Errorf("the alternative searched %d from %s to %s; want 44 from now (%s) for 4 weeks", q.Count, q.Start, q.End, now)
	}
	now = now.Add(10 * time.Minute)
	if q, ok := got.search.Form().Query(); !ok || !q.Start.Equal(now) || q.Count != 44 {
		t.Errorf("10 minutes later the form gives %+v (valid %v, errors %v); want 44 from now", q, ok, got.search.Form().Errors())
	}

	mm, _ = m.takeAlternative(1)
	got = mm.(Model)
	if q, ok := got.search.Form().Query(); !ok || !q.Start.Equal(later.Start) || !q.End.Equal(later.End) {
		t.Errorf("the later window's alternative gives %s → %s (valid %v), want %s → %s", q.Start, q.End, ok, later.Start, later.End)
	}
}
