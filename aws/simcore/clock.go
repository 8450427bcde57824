package simcore

import (
	"sync"
	"time"
)

// Clock is the emulator's own time: it runs at speed × real time from a base that tests
// and demos can move.
type Clock struct {
	mu    sync.Mutex
	base  time.Time // emulator time at anchor
	real  time.Time // real time at the last move
	speed float64
	now   func() time.Time // real clock, replaceable in tests of the clock itself
}

// NewClock starts a clock at start (zero: now) running at speed (0 or less: 1).
func NewClock(start time.Time, speed float64) *Clock {
	if speed <= 0 {
		speed = 1
	}
	c := &Clock{speed: speed, now: time.Now}
	r := c.now()
	if start.IsZero() {
		start = r
	}
	c.base, c.real = start.UTC(), r
	return c
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	elapsed := c.now().Sub(c.real)
	return c.base.Add(time.Duration(float64(elapsed) * c.speed))
}

// Set moves the clock to t; it keeps running from there.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.real = t.UTC(), c.now()
}

// Advance moves the clock by d (back, when d < 0).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.real = c.nowLocked().Add(d), c.now()
}
