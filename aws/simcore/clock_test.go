package simcore

import (
	"sync"
	"testing"
	"time"
)

// testStart is a Tuesday noon UTC, half an hour after the day's 11:30 boundary.
var testStart = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func TestClockSpeed(t *testing.T) {
	wall := testStart.Add(-time.Hour)
	var mu sync.Mutex
	c := NewClock(testStart, 60)
	c.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return wall }
	c.Set(testStart)
	mu.Lock()
	wall = wall.Add(time.Second)
	mu.Unlock()
	if got := c.Now(); !got.Equal(testStart.Add(time.Minute)) {
		t.Fatalf("a second at speed 60 moved the clock to %s", got)
	}
	c.Advance(2 * time.Hour)
	if got := c.Now(); !got.Equal(testStart.Add(2*time.Hour + time.Minute)) {
		t.Fatalf("after Advance: %s", got)
	}
	if _, err := New(Options{Speed: -1}); err == nil {
		t.Error("New accepted a negative speed")
	}
}
