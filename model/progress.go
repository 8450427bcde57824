package model

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// RegionProgress is how far a search has gone in one region: its calls done and left,
// the wait AWS's request bucket imposes before the next call, and when the last call
// should end at that bucket's refill. The front ends only print it.
type RegionProgress struct {
	Region string
	Done   int
	Left   int
	// Wait is how long until the region's bucket allows its next call: 0 when a token is
	// in hand, nothing is left, or calls are not paced.
	Wait time.Duration
	// End is the estimated end of the region's calls; zero when calls are not paced (no
	// bucket known, so no estimate).
	End time.Time
}

// Line reads "us-east-1 12/40 calls · waiting 6s for AWS's rate · done in ~3m" at now.
func (p RegionProgress) Line(now time.Time) string {
	s := fmt.Sprintf("%s %d/%d calls", p.Region, p.Done, p.Done+p.Left)
	if p.Left == 0 {
		return s + " · done"
	}
	if p.Wait > 0 {
		// Rounded up: a wait of a fraction of a second still reads as one.
		s += " · waiting " + roughDuration(time.Duration(math.Ceil(p.Wait.Seconds()))*time.Second) + " for AWS's rate"
	}
	if !p.End.IsZero() {
		s += " · done in ~" + roughDuration(max(p.End.Sub(now), 0))
	}
	return s
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

// Slowest is the progress of the region whose calls end last (the search's end), and the
// calls done and left over all regions; ok is false when there is none.
func Slowest(ps []RegionProgress) (slowest RegionProgress, done, left int, ok bool) {
	for _, p := range ps {
		done += p.Done
		left += p.Left
		if !ok || p.End.After(slowest.End) || (p.End.Equal(slowest.End) && p.Left > slowest.Left) {
			slowest, ok = p, true
		}
	}
	return slowest, done, left, ok
}

// PaceNote is what a search's status line adds while AWS's rate holds it back: the wait
// and the estimated end of the slowest region ("waiting 6s for AWS's rate · done in ~3m
// (us-east-1)"); "" when no region is paced or none has calls left.
func PaceNote(ps []RegionProgress, now time.Time) string {
	slow, _, left, ok := Slowest(ps)
	if !ok || left == 0 || slow.End.IsZero() {
		return ""
	}
	var s string
	switch {
	case slow.Wait > 0:
		s = "waiting " + roughDuration(time.Duration(math.Ceil(slow.Wait.Seconds()))*time.Second) + " for AWS's rate · "
	case slices.ContainsFunc(ps, func(p RegionProgress) bool { return p.Left > 0 && p.Wait > 0 }):
		s = "waiting for AWS's rate · "
	}
	return s + "done in ~" + roughDuration(max(slow.End.Sub(now), 0)) + " (" + slow.Region + ")"
}
