// Package program is what every screen and dialog of the terminal UI shares: the program's
// context, the backend, the terminal's size, the theme, the clock, the time zone and who the
// calls are made as. The root model owns the one Context and hands the same pointer to each
// screen and dialog (as gh-dash's ProgramContext does), so that a resize, a theme change, a
// clock sync or the identity's answer is seen by all of them at once. Only the root's Update
// writes it; views only read it.
package program

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// Context is the UI's shared state.
type Context struct {
	// Ctx is the parent of every call; the program cancels it on exit.
	Ctx     context.Context
	Backend source.Backend
	// Simulated: the backend is the emulator (the header says SIMULATED, launches get its
	// images). ReadOnly: nothing can be bought, extended or launched.
	Simulated bool
	ReadOnly  bool

	Theme theme.Theme
	// Width and Height are the terminal's; 0 until the first size message.
	Width, Height int

	Clock    *Clock
	Location *time.Location // the local time zone shown beside UTC
	// Wall is the wall clock a person's reactions are timed by (the spend dialogs' dwell
	// before a typed word counts), never the backend's, which the emulator runs fast or
	// moves. nil: time.Now.
	Wall func() time.Time

	Identity Identity
	// NotifyOff: new block warnings and a watched search's news are shown silently, without
	// the bell and the desktop notification. One switch (n) on every screen.
	NotifyOff bool
}

// Now is the UI's time (the backend's, once connected).
func (c *Context) Now() time.Time { return c.Clock.Now() }

// Account is the account the calls are made in, "" until it is known.
func (c *Context) Account() string {
	if c.Identity.Known && c.Identity.Err == nil {
		return c.Identity.Account
	}
	return ""
}

// Caps is what source s can do. Without a backend nothing can be sent, and the checks stay
// on: a dry run is tried (and fails, saying so) rather than skipped.
func (c *Context) Caps(s model.Source) source.Caps {
	if c.Backend == nil {
		return source.Caps{DryRun: true, Launch: true}
	}
	return c.Backend.Caps(s)
}

// Identity is who the calls are made as: Known once the identity call answered, with Err
// when it failed.
type Identity struct {
	source.Identity
	Known bool
	Err   error
}

// Clock is the UI's time, which a backend with a clock of its own can replace once
// connected. skew is how far the backend's clock was from it at the last look (Sync): the
// emulator's clock can be moved while the UI runs.
type Clock struct {
	now   func() time.Time
	skew  time.Duration
	syncs int
}

// NewClock is a clock reading now (time.Now when nil).
func NewClock(now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{now: now}
}

func (c *Clock) Now() time.Time { return c.now().Add(c.skew) }

// Sync sets the clock to the backend's time t, read just now.
func (c *Clock) Sync(t time.Time) { c.skew, c.syncs = t.Sub(c.now()), c.syncs+1 }

// Syncs counts the Syncs so far: the root moves the time the screens show when a screen's
// update synced the clock, before the next frame draws.
func (c *Clock) Syncs() int { return c.syncs }

// Replace reads a new time source from now on (the backend's, once connected).
func (c *Clock) Replace(now func() time.Time) { c.now, c.skew = now, 0 }
