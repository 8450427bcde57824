package model

import (
	"testing"
	"time"
)

func TestWatchedAtMovesAPassedStart(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	q := Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Regions: []string{"us-east-1"},
		Durations: DurationRange{MinDays: 1, MaxDays: 1}, Start: now.Add(-2 * time.Hour), End: now.Add(14 * 24 * time.Hour)}
	got, err := q.WatchedAt(now)
	if err != nil || !got.Start.Equal(now) || !got.End.Equal(q.End) {
		t.Fatalf("WatchedAt = %v – %v, %v; want the start moved to now", got.Start, got.End, err)
	}
	later := now.Add(48 * time.Hour)
	if ahead, err := (Query{InstanceTypes: q.InstanceTypes, Count: 1, Regions: q.Regions, Durations: q.Durations,
		Start: later, End: q.End}).WatchedAt(now); err != nil || !ahead.Start.Equal(later) {
		t.Errorf("a start ahead moved: %v, %v", ahead.Start, err)
	}
	// Once the window has passed, the watch is over.
	if _, err := q.WatchedAt(q.End.Add(time.Hour)); err == nil {
		t.Error("a window that has passed was accepted")
	}
}

func TestSeenOfferings(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	a := Offering{ID: "cb-a", Start: now.Add(time.Hour)}
	b := Offering{ID: "cb-b", Start: now.Add(48 * time.Hour)}
	seen := SeenOfferings{}
	if !seen.Mark(a) || seen.Mark(a) || !seen.Seen("cb-a") {
		t.Fatal("an offering is news once")
	}
	fresh := seen.Fresh([]Offering{a, b, b})
	if len(fresh) != 1 || fresh[0].ID != "cb-b" {
		t.Fatalf("Fresh = %+v, want cb-b alone", fresh)
	}
	seen.Forget(now.Add(2 * time.Hour))
	if seen.Seen("cb-a") || !seen.Seen("cb-b") {
		t.Errorf("after a's start: %v; want a forgotten and b kept", seen)
	}
}

func TestEndingWithin(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	blocks := []Block{
		{ReservationID: "soon", State: StateActive, End: now.Add(30 * time.Minute)},
		{ReservationID: "edge", State: StateActive, End: now.Add(45 * time.Minute)},
		{ReservationID: "later", State: StateActive, End: now.Add(2 * time.Hour)},
		{ReservationID: "scheduled", State: StateScheduled, End: now.Add(10 * time.Minute)},
		{ReservationID: "over", State: StateActive, End: now.Add(-time.Minute)},
	}
	got := EndingWithin(blocks, now, 45*time.Minute)
	if len(got) != 2 || got[0].ReservationID != "soon" || got[1].ReservationID != "edge" {
		t.Errorf("EndingWithin = %+v, want soon and edge", got)
	}
}
