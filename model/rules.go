package model

import "time"

// The business rules of Capacity Blocks (reference §0 and §3).
const (
	MinCount            = 1
	MaxCount            = 64  // instances in one block
	MaxAccountInstances = 256 // instances across an account's blocks
	MaxLeadTime         = 8 * 7 * 24 * time.Hour

	// TerminationLead: instances are terminated from this long before the end.
	TerminationLead = 30 * time.Minute
	// WarningLead: AWS's EventBridge expiration warning fires this long before the end.
	WarningLead = 40 * time.Minute

	// Blocks end (and by default start) at 11:30 UTC.
	BoundaryHour   = 11
	BoundaryMinute = 30
)

// UsableMinutes is how much of a reservation lasting lengthMinutes a job can use: its
// instances are terminated from TerminationLead before the end (reference: "Thirty minutes
// before the reservation expires, we begin to terminate any instances that are still
// running"). A job of H hours needs a reservation with H usable hours. Training plans are
// held to the same lead: SageMaker stops their jobs at the end, "possibly earlier", and
// the safer reading is the shorter.
func UsableMinutes(lengthMinutes int64) int64 {
	return max(0, lengthMinutes-int64(TerminationLead/time.Minute))
}

// LatestEnd is the latest end of a search window: a block may start up to MaxLeadTime
// ahead (AWS's rule is on the start), and one that starts then ends its length later.
func LatestEnd(now time.Time, maxDays int) time.Time {
	return now.Add(MaxLeadTime + time.Duration(max(maxDays, 0))*24*time.Hour)
}

// MaxReservationDays is the longest AWS lets a reservation last, of either source: a
// Capacity Block with its extensions, a training plan, and so one extension: 182 days
// (26 weeks).
const MaxReservationDays = 182

// AWS sells reservations, and extends them, by 1 to dailyUpTo whole days, then by whole
// weeks from weeklyFrom days to MaxReservationDays.
const (
	dailyUpTo  = 14
	weeklyFrom = 21
)

// ValidDurationDays lists every duration AWS sells, in days: 1–14 in whole days, then
// 21 to MaxReservationDays in whole weeks.
func ValidDurationDays() []int {
	var out []int
	for d := 1; d <= dailyUpTo; d++ {
		out = append(out, d)
	}
	for d := weeklyFrom; d <= MaxReservationDays; d += 7 {
		out = append(out, d)
	}
	return out
}

// ValidDuration reports whether a block of this many days can be bought.
func ValidDuration(days int) bool {
	return (days >= 1 && days <= dailyUpTo) || (days >= weeklyFrom && days <= MaxReservationDays && days%7 == 0)
}

// DurationsBetween returns the valid durations from min to max days, both included.
func DurationsBetween(min, max int) []int {
	var out []int
	for _, d := range ValidDurationDays() {
		if d >= min && d <= max {
			out = append(out, d)
		}
	}
	return out
}

// NextBoundary returns the first 11:30 UTC at or after t.
func NextBoundary(t time.Time) time.Time {
	t = t.UTC()
	b := time.Date(t.Year(), t.Month(), t.Day(), BoundaryHour, BoundaryMinute, 0, 0, time.UTC)
	if b.Before(t) {
		b = b.AddDate(0, 0, 1)
	}
	return b
}
