package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A search's offerings are held once, by the table: the search keeps no copy, nor does a
// watch round once its answer is in the table. The watch's baseline is the table's rows,
// unless they are an earlier search's.
func TestOffersHeldOnce(t *testing.T) {
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	offs := syntheticOfferings(60)
	m := withResults(base, offs[:50])
	if m.search().Got() != nil || m.search().Table().Len() != 50 {
		t.Fatalf("after a search: %d offerings kept by the search, %d rows; want none and 50", len(m.search().Got()), m.search().Table().Len())
	}

	m = update(m, keyMsg("w"))
	m = round(t, m, offs[10:60])
	if m.search().Got() != nil || m.search().Table().Len() != 50 || m.freshCount() != 10 {
		t.Errorf("after a round: %d kept by the search, %d rows, %d new; want none, 50 and 10", len(m.search().Got()), m.search().Table().Len(), m.freshCount())
	}

	// A search cancelled before any offering arrived leaves the last rows on screen, stale:
	// they are not its answer, so watching it has seen nothing yet.
	m = update(m, keyMsg("w")) // stop
	q, _ := m.search().Form().Query()
	mm, _ := m.startSearch(q)
	m = update(mm.(Model), keyMsg("esc"))
	m = update(m, searchEventsMsg{ID: m.search().SearchID(), Closed: true})
	if !m.search().Cancelled() || !m.search().Table().Stale() || m.search().Table().Len() != 50 {
		t.Fatalf("the cancelled search: cancelled %v, stale %v, %d rows", m.search().Cancelled(), m.search().Table().Stale(), m.search().Table().Len())
	}
	m = update(m, keyMsg("w"))
	if !m.search().Watching() || len(m.search().Seen()) != 0 {
		t.Errorf("watching the cancelled search: on %v, %d seen; want on and none", m.search().Watching(), len(m.search().Seen()))
	}
}
