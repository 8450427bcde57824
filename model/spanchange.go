package model

import "time"

// SpanChangesAt is the first moment after now at which Span of the time between now and t
// reads otherwise: each second under an hour, each minute under a day, each hour beyond.
// A screen that shows countdowns redraws then, and not before.
func SpanChangesAt(t, now time.Time) time.Time {
	// Span rounds to the second: its text follows the whole units of d+½s.
	const half = 500 * time.Millisecond
	d := t.Sub(now)
	if d > 0 {
		// Counting down: the text changes as d+½s falls below its unit's multiple.
		d += half
		rem := d % spanUnit(d-half)
		return now.Add(rem + time.Millisecond)
	}
	// Counting up ("ended 3h ago"): it changes as -d+½s reaches its next multiple.
	d = -d + half
	u := spanUnit(d - half)
	return now.Add(u - d%u)
}

// spanUnit is the smallest change Span shows of a duration d.
func spanUnit(d time.Duration) time.Duration {
	switch {
	case d < time.Hour:
		return time.Second
	case d < 24*time.Hour:
		return time.Minute
	}
	return time.Hour
}

// CountdownsChangeAt is the first moment after now at which anything said of b by the
// clock changes: a countdown to its start, end, termination or extension cutoff, a
// warning's lead in rules reached, its payment pending too long, or the time since it
// ended. Of the moments passed, only the end is still counted from.
func (b Block) CountdownsChangeAt(now time.Time, rules WarnRules) time.Time {
	moments := []time.Time{b.Start, b.End, b.TerminationAt(), b.ExtendBy()}
	for _, l := range rules.Leads {
		moments = append(moments, b.End.Add(-l))
	}
	if !b.Created.IsZero() {
		moments = append(moments, b.Created.Add(PaymentPendingTooLong))
	}
	var next time.Time
	for _, t := range moments {
		if !t.After(now) && !t.Equal(b.End) {
			continue
		}
		if c := SpanChangesAt(t, now); next.IsZero() || c.Before(next) {
			next = c
		}
	}
	return next
}
