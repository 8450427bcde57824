package cloudwatchsim

import (
	"slices"
	"time"
)

// Source is the EC2 state the metrics are read from. Its methods are called with the
// emulator's core locked, at the emulator's time now.
type Source interface {
	// Region is the state of a region, made on first use as EC2's is.
	Region(name string) Region
}

// Region is what CloudWatch knows of one region's EC2 state: its Capacity Reservations
// and how many instances used them when.
type Region interface {
	// Reservations are the region's Capacity Reservations, in no particular order.
	Reservations(now time.Time) []Reservation
	// Reservation is the reservation with this id; false when the region has none such.
	Reservation(id string, now time.Time) (Reservation, bool)
	// Use is the time-weighted average number of instances in reservation id over
	// [from, to), exact for any span.
	Use(id string, now time.Time) func(from, to time.Time) float64
}

// Reservation is a Capacity Reservation as its metrics see it.
type Reservation struct {
	ID string
	// Count is the instances it holds: its TotalInstanceCount.
	Count int
	// From and To are the span it publishes metrics in, as of now; Publishes is false
	// when there is none (a block not paid, not begun, or whose payment failed).
	From, To  time.Time
	Publishes bool
}

// sampleEvery is how often Capacity Reservations send their metrics to CloudWatch: "every
// five minutes" (EC2 User Guide, "Monitor Capacity Reservations usage with CloudWatch
// metrics"), which also says a reservation active for less than five minutes has none.
const sampleEvery = 5 * time.Minute

// sample is one of the values a reservation sent to CloudWatch: the metric over the five
// minutes from at.
type sample struct {
	at time.Time
	v  float64
}

// samples are reservation r's values of metric in [from, to), one per five minutes of the
// clock, each the exact time-weighted average over its five minutes, for the five-minute
// spans wholly inside the span it publishes in (a span not yet over has sent nothing).
func (c *cwCall) samples(r Reservation, metric string, from, to time.Time) []sample {
	if !r.Publishes {
		return nil
	}
	first := ceilTo(maxTime(from, r.From), sampleEvery)
	var use func(from, to time.Time) float64
	var out []sample
	for t := first; t.Before(to) && !t.Add(sampleEvery).After(r.To); t = t.Add(sampleEvery) {
		if use == nil && metric != metricTotal {
			use = c.rs.Use(r.ID, c.now)
		}
		total := float64(r.Count)
		var v float64
		switch metric {
		case metricTotal:
			v = total
		case metricUsed:
			v = use(t, t.Add(sampleEvery))
		case metricAvailable:
			v = total - use(t, t.Add(sampleEvery))
		case metricUtilization:
			v = 100 * use(t, t.Add(sampleEvery)) / total
		}
		out = append(out, sample{t, v})
	}
	return out
}

// ceilTo rounds t up to a multiple of d since the epoch.
func ceilTo(t time.Time, d time.Duration) time.Time {
	f := t.Truncate(d)
	if f.Before(t) {
		return f.Add(d)
	}
	return f
}

func maxTime(ts ...time.Time) time.Time { return slices.MaxFunc(ts, time.Time.Compare) }
