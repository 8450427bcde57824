package model

import (
	"strings"
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

// --warn-within measures to the moment asked: by default the extension cutoff (an hour
// before the end), else the termination's start (30 minutes before) or the end; a block past
// its moment but still running is named too.
func TestWarnMomentWithin(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	blocks := []Block{
		{ReservationID: "soon", State: StateActive, End: now.Add(30 * time.Minute)},
		{ReservationID: "edge", State: StateActive, End: now.Add(45 * time.Minute)},
		{ReservationID: "later", State: StateActive, End: now.Add(105 * time.Minute)},
		{ReservationID: "far", State: StateActive, End: now.Add(106 * time.Minute)},
		{ReservationID: "scheduled", State: StateScheduled, End: now.Add(10 * time.Minute)},
		{ReservationID: "over", State: StateActive, End: now.Add(-time.Minute)},
	}
	def, err := ParseWarnMoment("")
	if err != nil || def != WarnOfExtensionCutoff {
		t.Fatalf("the default moment is %v (%v), want the extension cutoff, the earliest", def, err)
	}
	for _, c := range []struct {
		moment string
		want   string
	}{
		{"extension-cutoff", "soon,edge,later"}, // cutoffs at -30m, -15m, +45m; far's at +46m
		{"termination", "soon,edge"},            // terminations at now, +15m; later's at +75m
		{"end", "soon,edge"},
	} {
		m, err := ParseWarnMoment(c.moment)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, b := range m.Within(blocks, now, 45*time.Minute) {
			ids = append(ids, b.ReservationID)
		}
		if strings.Join(ids, ",") != c.want {
			t.Errorf("%s within 45m = %v, want %s", c.moment, ids, c.want)
		}
	}
	// The moments, earliest first, are those AWS states: an hour and 30 minutes before the end.
	b := Block{End: now}
	if WarnOfExtensionCutoff.At(b) != now.Add(-ExtendCutoff) || WarnOfTermination.At(b) != now.Add(-30*time.Minute) || WarnOfEnd.At(b) != now {
		t.Error("the moments are not AWS's")
	}
	// At 50 minutes left, a 45-minute check to the termination's start (20 minutes away)
	// fires, where one to the end would not: the case.
	late := []Block{{State: StateActive, End: now.Add(50 * time.Minute)}}
	if len(WarnOfTermination.Within(late, now, 45*time.Minute)) != 1 || len(WarnOfEnd.Within(late, now, 45*time.Minute)) != 0 {
		t.Error("termination vs end at 50 minutes left")
	}
	if _, err := ParseWarnMoment("soon"); err == nil || !strings.Contains(err.Error(), "extension-cutoff, termination, end") {
		t.Errorf("a bad moment: %v", err)
	}
}
