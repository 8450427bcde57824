package search

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// round runs one watch round on m as the backend would answer it with offs, without a
// backend: the timer's tick, then the stream.
func round(t *testing.T, m shown, offs []model.Offering) shown {
	t.Helper()
	m = m.update(WatchTickMsg{Gen: m.watch.gen})
	if !m.search.running || !m.search.round {
		t.Fatalf("the watch's tick started no round (running %v, round %v, flash %q)", m.search.running, m.search.round, m.flash)
	}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	events = append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
	return m.update(EventsMsg{ID: m.search.id, Events: events, Closed: true})
}

// w watches the last search: not before there is one, not from a text field; the header says
// when the next round runs, and w again stops it.
func TestWatchToggle(t *testing.T) {
	base := update(unsized(), tea.WindowSizeMsg{Width: 160, Height: 48})
	m := update(base, keyMsg("shift+tab"), keyMsg("shift+tab"), keyMsg("w")) // the source, then the detail pane
	if m.watch.on || !strings.Contains(m.flash, "Nothing to watch yet") {
		t.Errorf("w before any search: on=%v flash %q", m.watch.on, m.flash)
	}

	m = withResults(base, uitest.SyntheticOfferings(50))
	// In the duration field w is a letter, and in the table's filter too.
	typed := update(m, keyMsg("shift+tab"), keyMsg("shift+tab"), keyMsg("w"))
	if typed.watch.on || !typed.form.Typing() || typed.form.Focus() != searchform.Duration {
		t.Errorf("w in the duration field watched (on=%v, typing=%v)", typed.watch.on, typed.form.Typing())
	}
	filtered := update(m, keyMsg("/"), keyMsg("w"))
	if filtered.watch.on || filtered.Table().FilterText() != "w" {
		t.Errorf("w in the filter: on=%v filter %q", filtered.watch.on, filtered.Table().FilterText())
	}

	m = update(m, keyMsg("w"))
	if !m.watch.on || len(m.watch.seen) != 50 {
		t.Fatalf("w: on=%v, %d offerings seen; want on, the search's 50", m.watch.on, len(m.watch.seen))
	}
	if h := m.header(); !strings.Contains(h, "watching · next 09:05 UTC") {
		t.Errorf("the header does not say the watch is on and when it runs next: %q", h)
	}
	if !strings.Contains(m.view(), "Watching this search: it runs again every 5m") {
		t.Errorf("no word of the watch under the panes:\n%s", m.view())
	}
	narrow := update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	if h := narrow.header(); !strings.Contains(h, "watch 09:05") {
		t.Errorf("the narrow header drops the watch: %q", h)
	}
	gen := m.watch.gen
	m = update(m, keyMsg("w"))
	if m.watch.on || strings.Contains(m.header(), "watch") || !strings.Contains(m.flash, "Stopped watching") {
		t.Errorf("w again: on=%v header %q flash %q", m.watch.on, m.header(), m.flash)
	}
	// The timer set before stopping finds nothing to do.
	if m = update(m, WatchTickMsg{Gen: gen}); m.search.running {
		t.Error("a round ran after the watch stopped")
	}
}

// A round keeps the sort, the filter, the cursor and the marks on the offerings still
// offered, counts what is new, and says so in the table's title, the detail and the
// status line.
func TestWatchRoundKeepsCursorAndMarks(t *testing.T) {
	offs := uitest.SyntheticOfferings(300)
	m := withResults(unsized(), offs[:200])
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48}, keyMsg("F"))
	m = update(m, keyMsg("m"), keyMsg("j"), keyMsg("j"), keyMsg("m"))
	for range 37 {
		m = update(m, keyMsg("j"))
	}
	sel, _ := m.Table().Selected()
	marked := m.Table().Marked()
	m = update(m, keyMsg("w"))

	// The next answer: 21 offerings gone (the first marked one among them), 100 new ones,
	// in another order.
	gone := map[string]bool{marked[0].Offering.ID: true}
	for _, o := range offs[:200] {
		if len(gone) < 21 && o.ID != sel.ID && o.ID != marked[1].Offering.ID {
			gone[o.ID] = true
		}
	}
	var next []model.Offering
	for i := len(offs) - 1; i >= 0; i-- {
		if !gone[offs[i].ID] {
			next = append(next, offs[i])
		}
	}
	next = append(next, sel) // an offering answered twice is one row
	m = round(t, m, next)

	if got, _ := m.Table().Selected(); got.ID != sel.ID {
		t.Errorf("the cursor moved from %s to %s", sel.ID, got.ID)
	}
	if col, desc := m.Table().Sort(); col != offerings.ColFee || desc {
		t.Errorf("sort %v desc %v, want by fee ascending as before", col, desc)
	}
	if got := m.Table().Marked(); len(got) != 1 || got[0].Offering.ID != marked[1].Offering.ID {
		t.Errorf("marks after the round %v, want only %s (the other is gone)", got, marked[1].Offering.ID)
	}
	if m.Table().Len() != len(next)-1 || m.search.round && m.search.running {
		t.Errorf("the table holds %d rows, want %d; round still running: %v", m.Table().Len(), len(next)-1, m.search.running)
	}
	if n := len(m.watch.news.fresh); n != 100 {
		t.Fatalf("%d new offerings, want 100", n)
	}
	v := m.view()
	if !strings.Contains(v, "· 100 new") {
		t.Errorf("the table's title does not count the new offerings:\n%s", v)
	}
	if !strings.Contains(m.flash, "Watch: 100 new") || !strings.Contains(m.flash, "since 09:00 UTC") {
		t.Errorf("flash %q", m.flash)
	}
	// The detail of a new offering says so.
	for i := 0; i < m.Table().Visible(); i++ {
		if m.Table().Row(i).ID == offs[250].ID {
			m = update(m, keyMsg("g"))
			for range i {
				m = update(m, keyMsg("j"))
			}
		}
	}
	if !m.SelectedIsFresh() || !strings.Contains(m.view(), "· NEW") {
		t.Errorf("the detail of a new offering is not marked NEW:\n%s", m.view())
	}
	m = update(m, keyMsg("esc")) // esc does not stop the watch, nor, later, a round
	if !m.watch.on {
		t.Error("esc stopped the watch")
	}
	if !strings.Contains(m.view(), "Watch round 1 at 09:00 UTC: 100 new") {
		t.Errorf("the status line does not tell the round's news:\n%s", m.view())
	}

	// The same answer again: nothing new.
	m = round(t, m, next)
	if len(m.watch.news.fresh) != 0 || m.FreshCount() != 0 || !strings.Contains(m.view(), "Watch round 2 at 09:00 UTC: nothing new since 09:00 UTC") {
		t.Errorf("a second round of the same answer: %d new\n%s", len(m.watch.news.fresh), m.view())
	}
	// An offering that sold out and came back under its id is not news.
	m = round(t, m, next[1:])
	m = round(t, m, next)
	if len(m.watch.news.fresh) != 0 {
		t.Errorf("an offering that came back was new again: %v", m.watch.news.fresh)
	}

	// Everything sold: the table empties and the alternatives are looked for, once.
	m = round(t, m, nil)
	if m.Table().Len() != 0 || !m.extra.altsLoading || !strings.Contains(m.view(), "No offerings for") {
		t.Errorf("a round that found nothing: %d rows, alternatives loading %v\n%s", m.Table().Len(), m.extra.altsLoading, m.view())
	}
	id := m.extra.id
	if m = round(t, m, nil); m.extra.id != id {
		t.Error("a second empty round looked for the alternatives again")
	}
}

// w during a round stops it: the search before it is shown, and its late answer is dropped.
func TestWatchStopDuringRound(t *testing.T) {
	offs := uitest.SyntheticOfferings(40)
	m := withResults(unsized(), offs[:20])
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48}, keyMsg("w"), keyMsg("d"))
	m = update(m, WatchTickMsg{Gen: m.watch.gen})
	roundID := m.search.id
	if !strings.Contains(m.header(), "watching · searching…") {
		t.Errorf("header during a round: %q", m.header())
	}
	if !strings.Contains(m.view(), "Watch round: searching again") {
		t.Errorf("the status line does not say a round runs:\n%s", m.view())
	}
	m = update(m, keyMsg("esc")) // from the detail back to the results
	if !m.search.running || m.focus != PaneResults {
		t.Fatalf("esc cancelled the watch's round (running %v, focus %d)", m.search.running, m.focus)
	}
	m = update(m, keyMsg("w"))
	if m.watch.on || m.search.running || m.search.round || m.search.found != 20 {
		t.Fatalf("after w: on=%v running=%v round=%v found=%d", m.watch.on, m.search.running, m.search.round, m.search.found)
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 40}
	m = update(m, EventsMsg{ID: roundID, Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	if m.Table().Len() != 20 || m.search.found != 20 {
		t.Errorf("the stopped round's answer reached the table: %d rows, found %d", m.Table().Len(), m.search.found)
	}
}

// Each round reads the search's relative dates again; a search started while watching is
// the one watched from then on, and its own answer rings nothing.
func TestWatchRelativeDatesAndNewSearch(t *testing.T) {
	now := uitest.Now
	m := newShown(Options{WatchEvery: time.Hour}, func() time.Time { return now }, 160, 48)
	m = withResults(m, uitest.SyntheticOfferings(10)) // the default form: now → +4w
	m = update(m, keyMsg("w"))
	if !strings.Contains(m.header(), "next 10:00 UTC") {
		t.Errorf("header %q, want the next round an hour on", m.header())
	}
	now = now.Add(3 * time.Hour)
	m = update(m, WatchTickMsg{Gen: m.watch.gen})
	if q := m.Query(); !q.Start.Equal(now) || !q.End.Equal(now.AddDate(0, 0, 28)) {
		t.Errorf("the round searches %s → %s, want %s → +4w", q.Start, q.End, now)
	}

	// A new search in the middle of a round (submit, which needs a backend, ends so): the
	// round is dropped, the watch stays on the new search and takes its answer as seen.
	q, _ := m.form.Query()
	m = m.startFormSearch(q)
	if !m.watch.on || m.search.round || !m.search.running || !m.watch.next.IsZero() {
		t.Fatalf("r while watching: on=%v round=%v running=%v next=%v", m.watch.on, m.search.round, m.search.running, m.watch.next)
	}
	offs := uitest.SyntheticOfferings(30)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 30}
	m = update(m, EventsMsg{ID: m.search.id, Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	if len(m.watch.seen) != 30 || m.FreshCount() != 0 || m.watch.next.IsZero() {
		t.Errorf("after the new search: %d seen, %d new, next %v", len(m.watch.seen), m.FreshCount(), m.watch.next)
	}
	// A search whose window has passed stops the watch: ui/screen/search's
	// TestWatchStopsOnAPastWindow.
}

func TestNewsSentence(t *testing.T) {
	o := func(id, typ, region, fee string) model.Offering {
		return model.Offering{ID: id, InstanceType: typ, Region: region, Fee: model.MustMoney(fee)}
	}
	for _, tc := range []struct {
		offs []model.Offering
		want string
	}{
		{[]model.Offering{o("a", "p5.48xlarge", "us-east-1", "7015.92")}, "1 new p5.48xlarge offering in us-east-1 ($7,015.92)"},
		{[]model.Offering{o("a", "p5.48xlarge", "us-west-2", "9000"), o("b", "p5.48xlarge", "us-east-1", "7015.92"), o("c", "p5.48xlarge", "us-west-2", "8000")},
			"3 new p5.48xlarge offerings in us-east-1, us-west-2 (from $7,015.92)"},
		{[]model.Offering{o("a", "p5e.48xlarge", "eu-north-1", "1"), o("b", "p5.48xlarge", "us-east-1", "2"), o("c", "p5.48xlarge", "us-east-2", "3"), o("d", "p5.48xlarge", "ap-south-1", "4"), o("e", "p5.48xlarge", "us-west-2", "5")},
			"5 new p5.48xlarge, p5e.48xlarge offerings in ap-south-1, eu-north-1, us-east-1 and 2 more regions (from $1.00)"},
	} {
		if got := newsSentence(tc.offs); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// A search's offerings are held once, by the table: the search keeps no copy, nor does a
// watch round once its answer is in the table. The watch's baseline is the table's rows,
// unless they are an earlier search's.
func TestOffersHeldOnce(t *testing.T) {
	base := unsized().resize(160, 48)
	offs := uitest.SyntheticOfferings(60)
	m := withResults(base, offs[:50])
	if m.search.got != nil || m.Table().Len() != 50 {
		t.Fatalf("after a search: %d offerings kept by the search, %d rows; want none and 50", len(m.search.got), m.Table().Len())
	}

	m = update(m, keyMsg("w"))
	m = round(t, m, offs[10:60])
	if m.search.got != nil || m.Table().Len() != 50 || m.FreshCount() != 10 {
		t.Errorf("after a round: %d kept by the search, %d rows, %d new; want none, 50 and 10", len(m.search.got), m.Table().Len(), m.FreshCount())
	}

	// A search cancelled before any offering arrived leaves the last rows on screen, stale:
	// they are not its answer, so watching it has seen nothing yet.
	m = update(m, keyMsg("w")) // stop
	q, _ := m.form.Query()
	m = update(m.startSearch(q), keyMsg("esc"))
	m = update(m, EventsMsg{ID: m.search.id, Closed: true})
	if !m.search.cancelled || !m.Table().Stale() || m.Table().Len() != 50 {
		t.Fatalf("the cancelled search: cancelled %v, stale %v, %d rows", m.search.cancelled, m.Table().Stale(), m.Table().Len())
	}
	m = update(m, keyMsg("w"))
	if !m.watch.on || len(m.watch.seen) != 0 {
		t.Errorf("watching the cancelled search: on %v, %d seen; want on and none", m.watch.on, len(m.watch.seen))
	}
}

// A watched search whose window has passed (run from no form, so no relative date moves
// it) stops the watch at its next round and says why.
func TestWatchStopsOnAPastWindow(t *testing.T) {
	m := found(t, false, 3)
	m, _ = press(m, "w")
	if !m.watch.on {
		t.Fatal("w did not watch the search")
	}
	m.search.form = nil
	m.search.query.End = testNow.Add(-time.Hour)
	m, _ = m.update(WatchTickMsg{Gen: m.watch.gen})
	if m.watch.on || m.search.running || !strings.Contains(flashText(m), "Stopped watching: the search can no longer run: end") {
		t.Errorf("a past window: on=%v running=%v flash %q", m.watch.on, m.search.running, flashText(m))
	}
}
