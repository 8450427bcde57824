package search

import (
	"testing"

	"github.com/gpublock/gpublock/ui/internal/uitest"
)

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
