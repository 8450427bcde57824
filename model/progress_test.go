package model

import (
	"testing"
	"time"
)

func TestPaceNote(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// us-east-1: 30 left, half a token, 0.15/s: the next call in 3⅓s, the last 196⅔s on.
	east := RegionProgress{Region: "us-east-1", Done: 2, Left: 30, Tokens: 0.5, Rate: 0.15, At: now}
	west := RegionProgress{Region: "us-west-2", Done: 1, Left: 1, Tokens: 1, Rate: 0.15, At: now}
	if got, want := PaceNote([]RegionProgress{west, east}, now), "waiting 4s for AWS's rate · done in ~3m (us-east-1)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// The slowest region has a token in hand; another waits.
	east.Tokens, west.Tokens = 1.5, 0
	if got, want := PaceNote([]RegionProgress{west, east}, now), "waiting for AWS's rate · done in ~3m (us-east-1)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// Not paced (no estimate), or nothing left: no note.
	if got := PaceNote([]RegionProgress{{Region: "us-east-1", Done: 1, Left: 4}}, now); got != "" {
		t.Errorf("unpaced: %q", got)
	}
	if got := PaceNote([]RegionProgress{{Region: "us-east-1", Done: 5, Rate: 0.15, At: now}}, now); got != "" {
		t.Errorf("finished: %q", got)
	}
}

// With no new step, the wait and the end count down on the clock they are read by, the
// end never comes before the wait, and the busiest region decides: a search of 95 s
// never reads "waiting 24s … done in ~0s".
func TestPaceCountsDownOnAFakeClock(t *testing.T) {
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// 24 calls left in one region, none in hand, one call every 4 s: 96 s of calls.
	busy := RegionProgress{Region: "us-east-1", Done: 6, Left: 24, Tokens: 0, Rate: 0.25, At: at}
	idle := RegionProgress{Region: "eu-west-1", Done: 9, Left: 1, Tokens: 0.5, Rate: 2, At: at}
	ps := []RegionProgress{idle, busy}
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{0, "waiting 4s for AWS's rate · done in ~2m (us-east-1)"},
		{3 * time.Second, "waiting 1s for AWS's rate · done in ~2m (us-east-1)"},
		{40 * time.Second, "done in ~56s (us-east-1)"},
		{90 * time.Second, "done in ~6s (us-east-1)"},
		{2 * time.Minute, "last calls in flight (us-east-1)"},
	} {
		if got := PaceNote(ps, at.Add(c.after)); got != c.want {
			t.Errorf("after %v: %q, want %q", c.after, got, c.want)
		}
	}
	for s := 0; s <= 100; s++ {
		wait, left, _ := busy.Pace(at.Add(time.Duration(s) * time.Second))
		if left < wait {
			t.Fatalf("after %ds: done in %v before the wait of %v", s, left, wait)
		}
		if want := max(96*time.Second-time.Duration(s)*time.Second, 0); left != want {
			t.Fatalf("after %ds: %v left, want %v (24 calls over 0.25/s, less the time gone)", s, left, want)
		}
	}
	if slow, done, left, _ := Slowest(ps, at); slow.Region != "us-east-1" || done != 15 || left != 25 {
		t.Errorf("slowest %s, %d done, %d left", slow.Region, done, left)
	}
}
