package report

import "time"

// window is the calendar months (UTC) the report covers: span months, the last of them
// back months before the backend's now; the latest window ends at now, as `gpublock
// report`'s default does, and one further back ends with its last month.
type window struct{ span, back int }

// The spans m switches between, and how far back < goes (ten years).
const (
	longSpan  = 12
	shortSpan = 3
	maxBack   = 120
)

var defaultWindow = window{span: longSpan}

// at is [from, to) at the backend's now.
func (w window) at(now time.Time) (from, to time.Time) {
	now = now.UTC()
	// The month that holds the instant before now: a window read at a month's first instant
	// ends with the month before, as the command's does.
	last := now.Add(-time.Nanosecond)
	end := time.Date(last.Year(), last.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -w.back, 0)
	to = now
	if w.back > 0 {
		to = end.AddDate(0, 1, 0)
	}
	return end.AddDate(0, -(w.span - 1), 0), to
}

// toggleSpan switches between the last 12 and the last 3 months, keeping the last month.
func (w window) toggleSpan() window {
	if w.span == longSpan {
		w.span = shortSpan
	} else {
		w.span = longSpan
	}
	return w
}
