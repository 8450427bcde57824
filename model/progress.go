package model

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// RegionProgress is how far a search has gone in one region at At: its calls done and
// left, and its request bucket then (the tokens in hand and the refill per second). The
// wait and the end are not stored: Pace computes them at the moment they are shown, so
// that they count down between steps and every front end reads them by one rule.
type RegionProgress struct {
	Region string
	Done   int
	Left   int
	// Tokens and Rate are the region's bucket at At; Rate is 0 when calls are not paced
	// (no bucket known, so no estimate).
	Tokens float64
	Rate   float64
	At     time.Time
}

// Pace is the one rule of a paced region's estimate at now: wait is how long until its
// bucket allows the next call (0 with a token in hand), left how long until its last call
// can be made: the tokens in hand at At go at once, every further call one refill later,
// counted from At. Calls in flight count as left (their token is already spent), so the
// estimate errs long. ok is false when the region is not paced or has nothing left.
func (p RegionProgress) Pace(now time.Time) (wait, left time.Duration, ok bool) {
	if p.Rate <= 0 || p.Left <= 0 {
		return 0, 0, false
	}
	elapsed := max(now.Sub(p.At), 0)
	after := func(calls float64) time.Duration {
		return max(time.Duration(calls/p.Rate*float64(time.Second))-elapsed, 0)
	}
	if p.Tokens < 1 {
		wait = after(1 - p.Tokens)
	}
	return wait, after(max(float64(p.Left)-max(p.Tokens, 0), 0)), true
}

// Line reads "us-east-1 12/40 calls · waiting 6s for AWS's rate · done in ~3m" at now.
func (p RegionProgress) Line(now time.Time) string {
	s := fmt.Sprintf("%s %d/%d calls", p.Region, p.Done, p.Done+p.Left)
	if p.Left == 0 {
		return s + " · done"
	}
	if wait, left, ok := p.Pace(now); ok {
		s += " · " + paceWords(wait, left)
	}
	return s
}

// paceWords reads "waiting 6s for AWS's rate · done in ~3m", or "last calls in flight"
// once every call left has its token: the end is then the calls' own time, not the rate's.
func paceWords(wait, left time.Duration) string {
	var s string
	if wait > 0 {
		s = "waiting " + waitWords(wait) + " for AWS's rate · "
	}
	if left < time.Second {
		return s + "last calls in flight"
	}
	return s + "done in ~" + roughDuration(left)
}

// waitWords is a wait rounded up: a fraction of a second still reads as one.
func waitWords(d time.Duration) string {
	return roughDuration(time.Duration(math.Ceil(d.Seconds())) * time.Second)
}

// roughDuration reads 6s, 3m, 1h05m: a wait or estimate, never more exact than it is.
func roughDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Round(time.Minute).Minutes()))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// Slowest is the progress of the region whose calls end last at now (the search's end:
// the busiest region decides), and the calls done and left over all regions; ok is false
// when there is none.
func Slowest(ps []RegionProgress, now time.Time) (slowest RegionProgress, done, left int, ok bool) {
	var end time.Duration
	for _, p := range ps {
		done += p.Done
		left += p.Left
		_, e, _ := p.Pace(now)
		if !ok || e > end || (e == end && p.Left > slowest.Left) {
			slowest, end, ok = p, e, true
		}
	}
	return slowest, done, left, ok
}

// PaceNote is what a search's status line adds while AWS's rate holds it back: the wait
// and the estimated end of the slowest region ("waiting 6s for AWS's rate · done in ~3m
// (us-east-1)"); "" when no region is paced or none has calls left.
func PaceNote(ps []RegionProgress, now time.Time) string {
	slow, _, left, ok := Slowest(ps, now)
	if !ok || left == 0 {
		return ""
	}
	wait, end, paced := slow.Pace(now)
	if !paced {
		return ""
	}
	if wait == 0 && slices.ContainsFunc(ps, func(p RegionProgress) bool {
		w, _, _ := p.Pace(now)
		return w > 0
	}) {
		return "waiting for AWS's rate · " + paceWords(0, end) + " (" + slow.Region + ")"
	}
	return paceWords(wait, end) + " (" + slow.Region + ")"
}
