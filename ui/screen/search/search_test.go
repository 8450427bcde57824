package search

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Cached rows show at once as stale, marked with their age, and the first fresh row
// replaces them all; only fresh rows count as found.
func TestCachedRowsShowStaleUntilTheFreshAnswer(t *testing.T) {
	m := startedSearch(t, false)
	asked := time.Now().Add(-4*time.Minute - time.Second)
	m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
		{Region: "us-east-1", Offerings: []model.Offering{offering(0), offering(1)}, CallsTotal: 2, CachedAt: asked}}})
	if m.Table().Len() != 2 || !m.Table().Stale() || m.search.found != 0 {
		t.Fatalf("cached: %d rows, stale %v, found %d", m.Table().Len(), m.Table().Stale(), m.search.found)
	}
	if line := m.progressLine(160); !strings.Contains(line, "cached 4m ago — refreshing") {
		t.Fatalf("the status does not say the rows are cached: %q", line)
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 1}
	m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
		{Region: "us-east-1", Offerings: []model.Offering{offering(1)}, Status: &st, CallsDone: 2, CallsTotal: 2}}, Closed: true})
	if m.Table().Len() != 1 || m.Table().Stale() || m.search.found != 1 {
		t.Fatalf("fresh: %d rows, stale %v, found %d", m.Table().Len(), m.Table().Stale(), m.search.found)
	}
	if line := m.progressLine(160); strings.Contains(line, "cached") {
		t.Fatalf("the status still says cached: %q", line)
	}
}

// A fresh answer with nothing leaves no cached row behind.
func TestCachedRowsGoWhenTheFreshAnswerIsEmpty(t *testing.T) {
	m := startedSearch(t, false)
	m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
		{Region: "us-east-1", Offerings: []model.Offering{offering(0)}, CallsTotal: 1, CachedAt: time.Now()}}})
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionEmpty}
	m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
		{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1}}, Closed: true})
	if m.Table().Len() != 0 {
		t.Fatalf("%d cached rows outlived an empty answer", m.Table().Len())
	}
}
