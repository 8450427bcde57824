package model

import (
	"fmt"
	"time"
)

// The formatting of times, durations and money that the commands and the screens share, so
// that both write the same fact in the same words. Countdowns that update live (Span,
// PreciseSpan) carry seconds; those printed once (ShortSpan) stop at minutes.

// ShortSpan writes a duration the way an on-call person reads it in a listing printed once:
// 2d 3h, 5h 20m, 45m (rounded to the minute).
func ShortSpan(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	}
	return fmt.Sprintf("%dm", mins)
}

// PreciseSpan is how long until something a dialog waits for: days, hours and minutes,
// with seconds under a day; "now" once it is due.
func PreciseSpan(d time.Duration) string {
	if d <= 0 {
		return "now"
	}
	d = d.Round(time.Second)
	days := int(d / (24 * time.Hour))
	d -= time.Duration(days) * 24 * time.Hour
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %02dh %02dm", days, h, m)
	case h > 0:
		return fmt.Sprintf("%dh %02dm %02ds", h, m, s)
	}
	return fmt.Sprintf("%dm %02ds", m, s)
}

// Plural writes a count with its noun: "1 year", "3 years".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// HoursMinutes writes a length in minutes: "48 hours", or "5 h 35 min" off the hour.
func HoursMinutes(minutes int64) string {
	if minutes%60 == 0 {
		return fmt.Sprintf("%d hours", minutes/60)
	}
	return fmt.Sprintf("%d h %02d min", minutes/60, minutes%60)
}

// ExactFee is a fee as people read it, with the exact amount when cents round it; the
// currency is USD when AWS names none.
func ExactFee(m Money, currency string) string {
	if currency == "" {
		currency = "USD"
	}
	s := m.Dollars() + " " + currency
	if MoneyFromCents(m.Cents()).Cmp(m) != 0 {
		s += " (exactly $" + m.String() + ")"
	}
	return s
}

// BothTimes writes a time in UTC and, where loc differs from it there, in loc beside it:
// "2026-12-03 11:30 UTC · 2026-12-03 03:30 PST". A nil loc writes UTC alone.
func BothTimes(t time.Time, loc *time.Location) string {
	u := t.UTC().Format(LayoutMinuteZone)
	if !LocalDiffers(t, loc) {
		return u
	}
	return u + " · " + t.In(loc).Format(LayoutMinuteZone)
}

// ShortCountdown is Countdown to the minute, for a listing printed once.
func (b Block) ShortCountdown(now time.Time) string { return b.countdown(now, ShortSpan) }

// PlanCountdown is ShortCountdown for a training plan, whose jobs stop at its end, and its
// status in SageMaker's words once it is over.
func (b Block) PlanCountdown(now time.Time) string {
	switch {
	case now.Before(b.Start):
		return "starts in " + ShortSpan(b.Start.Sub(now))
	case now.Before(b.End):
		return "ends in " + ShortSpan(b.End.Sub(now)) + " (its jobs stop then)"
	}
	return PlanStatus(b.State)
}

// TerminationCell is when AWS terminates the block's instances, in UTC to the minute; a
// block that will not run has nothing to terminate ("—").
func (b Block) TerminationCell() string {
	if b.WillNotRun() {
		return "—"
	}
	return b.TerminationAt().UTC().Format(LayoutMinute)
}

// Length writes an offering's length with FormatLength.
func (o Offering) Length() string { return FormatLength(o.Minutes()) }

// FormatLength is the one short form of a reservation's length, for every table, cell and
// line that names one: "2d", "3w" for whole days; exact hours beside the days otherwise
// ("2d16h" for 64 hours, never "2d"); "5h35m" under a day; and, for a near-term block that
// starts off the 11:30 boundary, the hour it rounds to marked "~" ("~1d2h").
func FormatLength(mins int64) string {
	if mins > 0 && mins%(24*60) == 0 {
		return FormatDays(int(mins / (24 * 60)))
	}
	if mins < 24*60 {
		if mins%60 == 0 {
			return fmt.Sprintf("%dh", mins/60)
		}
		return fmt.Sprintf("%dh%02dm", mins/60, mins%60)
	}
	approx := ""
	if mins%60 != 0 {
		approx = "~"
	}
	hours := (mins + 30) / 60
	if hours%24 == 0 {
		return fmt.Sprintf("%s%dd", approx, hours/24)
	}
	return fmt.Sprintf("%s%dd%dh", approx, hours/24, hours%24)
}
