package report

import (
	"time"

	"github.com/gpublock/gpublock/model/report"
)

// window is the calendar months (UTC) the report covers: span months, the last of them
// back months before the backend's now; the latest window ends at now, as `gpublock
// report`'s default does, and one further back ends with its last month.
type window struct{ span, back int }

// The spans m switches between, and how far back < goes (ten years).
const (
	longSpan  = report.DefaultMonths
	shortSpan = 3
	maxBack   = 120
)

var defaultWindow = window{span: longSpan}

// at is [from, to) at the backend's now.
func (w window) at(now time.Time) (from, to time.Time) {
	to = now.UTC()
	if w.back > 0 {
		to = report.MonthsTo(to, w.back) // the first instant of the last month the window leaves out
	}
	return report.MonthsTo(to, w.span), to
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
