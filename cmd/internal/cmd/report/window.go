package report

import (
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// window is --from and --to as given: each a day or a month, both included; zero when not
// given. Their defaults need the backend's now (resolve).
type window struct {
	from, to         time.Time // --from's first instant; the first instant after --to
	fromFlag, toFlag string
}

// firstMonth is the earliest month a window may start or end in: EC2 Capacity Blocks for ML
// were first sold at the end of October 2023 (SageMaker training plans came later), so
// nothing can have been paid before it. An older date is refused rather than read as "not
// given" (year 1 is Go's zero time) or sent to AWS as a window of two thousand years.
var firstMonth = time.Date(2023, 11, 1, 0, 0, 0, 0, time.UTC)

// parseWindow reads --from and --to before any call.
func parseWindow(from, to string) (window, error) {
	w := window{fromFlag: from, toFlag: to}
	var err error
	if from != "" {
		if w.from, _, err = parsePeriod("--from", from); err != nil {
			return w, err
		}
		if w.from.Before(firstMonth) {
			return w, tooEarly("--from", from)
		}
	}
	if to != "" {
		var start time.Time
		if start, w.to, err = parsePeriod("--to", to); err != nil {
			return w, err
		}
		if start.Before(firstMonth) {
			return w, tooEarly("--to", to)
		}
	}
	if from != "" && to != "" && !w.from.Before(w.to) {
		return w, cmdutil.Usagef("--from %s is after --to %s: the window would be empty", from, to)
	}
	return w, nil
}

func tooEarly(flag, s string) error {
	return cmdutil.Usagef("%s %s is before %s, when the first Capacity Blocks were sold: nothing can have been paid earlier; give %s or later",
		flag, s, firstMonth.Format(model.LayoutMonth), firstMonth.Format(model.LayoutMonth))
}

// parsePeriod reads a day (2026-11-01) or a month (2026-11), in UTC, as [start, end).
func parsePeriod(flag, s string) (start, end time.Time, err error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, t.AddDate(0, 0, 1), nil
	}
	if t, err := time.Parse("2006-01", s); err == nil {
		return t, t.AddDate(0, 1, 0), nil
	}
	return time.Time{}, time.Time{}, cmdutil.Usagef("%s %q: want a date such as 2026-11-01, or a month such as 2026-11", flag, s)
}

// resolve is the window [from, to) the report reads at the backend's now: --to defaults to
// now, and a later one ends now (capped reports it, when --to was given); --from defaults
// to the first day of the 12th calendar month back, --to's month included.
func (w window) resolve(now time.Time) (from, to time.Time, capped bool, err error) {
	to = w.to
	if to.IsZero() || to.After(now) {
		capped = !to.IsZero()
		to = now
	}
	from = w.from
	if from.IsZero() {
		from = report.MonthsTo(to, report.DefaultMonths)
	}
	if !from.Before(to) {
		return from, to, false, cmdutil.Usagef("--from %s is not before now (%s): nothing has been paid or used in that window yet",
			w.fromFlag, now.Format(model.LayoutMinuteZone))
	}
	return from, to, capped, nil
}
