package pricing

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// Age says how old the row's figure is at now, no more precisely than the source dates it:
// "20 days", "~2 months", "~1 year", "3 years".
func (r Row) Age(now time.Time) string {
	t := r.Time()
	if t.IsZero() {
		return "unknown"
	}
	now = now.UTC()
	switch {
	case len(r.Date) == len("2006"):
		n := now.Year() - t.Year()
		switch {
		case n == 0:
			return "this year"
		case n < 0:
			return "in the future"
		}
		return "~" + model.Plural(n, "year", "years")
	case len(r.Date) == len("2006-01"):
		if now.Year() == t.Year() && now.Month() == t.Month() {
			return "this month"
		}
		n := (now.Year()*12 + int(now.Month())) - (t.Year()*12 + int(t.Month()))
		switch {
		case n < 0:
			return "in the future"
		case n >= 24:
			return "~" + model.Plural(n/12, "year", "years")
		}
		return "~" + model.Plural(n, "month", "months")
	}
	if now.Before(t) {
		return "in " + humanAge(t.Sub(now))
	}
	return humanAge(now.Sub(t))
}

func humanAge(d time.Duration) string {
	days := int(d / (24 * time.Hour))
	switch {
	case days < 1:
		return "today"
	case days < 60:
		return model.Plural(days, "day", "days")
	case days < 730:
		return model.Plural(int(float64(days)/30.44+0.5), "month", "months")
	}
	return model.Plural(int(float64(days)/365.25), "year", "years")
}
