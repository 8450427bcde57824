package model

import (
	"testing"
	"time"
)

// A screen that redraws only at the moments SpanChangesAt names shows, at every second of a
// fake day and more, the text Span gives then, for a countdown to a moment and from one; and
// it redraws no more often than the text changes.
func TestSpanChangesAtIsWhenSpanChanges(t *testing.T) {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for _, at := range []time.Time{start.Add(25*time.Hour + 30*time.Minute + 17*time.Second), start.Add(-90 * time.Minute)} {
		drawn, shown := start, Span(at.Sub(start))
		next := SpanChangesAt(at, drawn)
		ticks, changes := 0, 0
		for s := 1; s <= 27*3600; s++ {
			now := start.Add(time.Duration(s) * time.Second)
			for !next.After(now) {
				ticks++
				drawn = next
				if text := Span(at.Sub(drawn)); text != shown {
					changes++
					shown = text
				}
				next = SpanChangesAt(at, drawn)
			}
			if want := Span(at.Sub(now)); shown != want {
				t.Fatalf("to %v at %v: the screen shows %q (drawn %v), want %q", at, now, shown, drawn, want)
			}
		}
		if changes < 100 || ticks > changes+1 {
			t.Errorf("to %v: %d redraws for %d changes of the text", at, ticks, changes)
		}
	}
}
