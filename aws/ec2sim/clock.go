package ec2sim

import (
	"sync"
	"time"
)

// clock is the emulator's own time: it runs at speed × real time from a base that tests
// and demos can move.
type clock struct {
	mu    sync.Mutex
	base  time.Time // emulator time at anchor
	real  time.Time // real time at the last move
	speed float64
	now   func() time.Time // real clock, replaceable in tests of the clock itself
}

func newClock(start time.Time, speed float64) *clock {
	if speed <= 0 {
		speed = 1
	}
	c := &clock{speed: speed, now: time.Now}
	r := c.now()
	if start.IsZero() {
		start = r
	}
	c.base, c.real = start.UTC(), r
	return c
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *clock) nowLocked() time.Time {
	elapsed := c.now().Sub(c.real)
	return c.base.Add(time.Duration(float64(elapsed) * c.speed))
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.real = t.UTC(), c.now()
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.real = c.nowLocked().Add(d), c.now()
}
