package model

import (
	"testing"
	"time"
)

func TestPaceNote(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	east := RegionProgress{Region: "us-east-1", Done: 2, Left: 30, Wait: 2500 * time.Millisecond, End: now.Add(200 * time.Second)}
	west := RegionProgress{Region: "us-west-2", Done: 1, Left: 1, End: now.Add(5 * time.Second)}
	if got, want := PaceNote([]RegionProgress{west, east}, now), "waiting 3s for AWS's rate · done in ~3m (us-east-1)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// The slowest region has a token in hand; another waits.
	east.Wait, west.Wait = 0, time.Second
	if got, want := PaceNote([]RegionProgress{west, east}, now), "waiting for AWS's rate · done in ~3m (us-east-1)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// Not paced (no estimate), or nothing left: no note.
	if got := PaceNote([]RegionProgress{{Region: "us-east-1", Done: 1, Left: 4}}, now); got != "" {
		t.Errorf("unpaced: %q", got)
	}
	if got := PaceNote([]RegionProgress{{Region: "us-east-1", Done: 5}}, now); got != "" {
		t.Errorf("finished: %q", got)
	}
}
