package ec2sim

import (
	"slices"
	"sort"
	"time"

	"github.com/gpublock/gpublock/aws/cloudwatchsim"
)

// The use of a reservation over time, which CloudWatch's AWS/EC2CapacityReservations
// metrics are made of. It is read from the instances the region keeps: an instance stays
// in the state (and the state file) after DescribeInstances stops showing it, so the use
// of a block that ended a week ago is still known.

// useCurve is the number of instances holding a slot of a reservation as a step function
// of time, with its running integral, so that the time-weighted average over any span is
// exact: (F(b) − F(a)) / (b − a), in instance-nanoseconds.
type useCurve struct {
	at    []time.Time // breakpoints, ascending
	count []int64     // instances from at[i] until at[i+1]
	integ []int64     // instance-nanoseconds before at[i]
}

// useOf is reservation r's use at now. An instance counts from its launch until it is
// terminated: pending and shutting-down included, as AvailableInstanceCount counts them,
// so that UsedInstanceCount + AvailableInstanceCount = TotalInstanceCount. Whether AWS
// counts a pending instance as used is not documented; it occupies the reservation.
func (rs *regionState) useOf(r *reservation, now time.Time) useCurve {
	type edge struct {
		t time.Time
		d int64
	}
	var edges []edge
	for _, in := range rs.Instances {
		if in.ReservationID != r.ID {
			continue
		}
		end := in.terminateAt(r, now).Add(instanceShutdown)
		if !end.After(in.Launched) {
			continue
		}
		edges = append(edges, edge{in.Launched, 1}, edge{end, -1})
	}
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].t.Before(edges[j].t) })
	var c useCurve
	var n, integ int64
	for _, e := range edges {
		if k := len(c.at); k > 0 && c.at[k-1].Equal(e.t) {
			n += e.d
			c.count[k-1] = n
			continue
		}
		if k := len(c.at); k > 0 {
			integ += c.count[k-1] * int64(e.t.Sub(c.at[k-1]))
		}
		n += e.d
		c.at, c.count, c.integ = append(c.at, e.t), append(c.count, n), append(c.integ, integ)
	}
	return c
}

// integral is the instance-nanoseconds before t.
func (c useCurve) integral(t time.Time) int64 {
	i := sort.Search(len(c.at), func(i int) bool { return c.at[i].After(t) }) - 1
	if i < 0 {
		return 0
	}
	return c.integ[i] + c.count[i]*int64(t.Sub(c.at[i]))
}

// average is the time-weighted number of instances in [a, b).
func (c useCurve) average(a, b time.Time) float64 {
	return float64(c.integral(b)-c.integral(a)) / float64(b.Sub(a))
}

// published is the span in which reservation r publishes its metrics, as of now: while it
// is active, from its start (or its payment, were that later) to its end (extensions paid
// included), and only up to now. A block not paid, or whose payment failed, is not active
// and publishes nothing.
func (r *reservation) published(now time.Time) (from, to time.Time, ok bool) {
	if !r.Paid(now) {
		return time.Time{}, time.Time{}, false
	}
	from, to = maxTime(r.Start, r.PaidAt), r.end(now)
	if now.Before(to) {
		to = now
	}
	return from, to, to.After(from)
}

// cwSource is the emulator's EC2 state as CloudWatch reads it (cloudwatchsim.Source).
type cwSource struct{ s *Server }

func (c cwSource) Region(name string) cloudwatchsim.Region { return cwRegion{c.s.region(name)} }

// cwRegion is a region's state as CloudWatch reads it (cloudwatchsim.Region).
type cwRegion struct{ rs *regionState }

func (c cwRegion) Reservations(now time.Time) []cloudwatchsim.Reservation {
	out := make([]cloudwatchsim.Reservation, len(c.rs.Reservations))
	for i, r := range c.rs.Reservations {
		out[i] = r.metrics(now)
	}
	return out
}

func (c cwRegion) Reservation(id string, now time.Time) (cloudwatchsim.Reservation, bool) {
	r := c.rs.reservation(id)
	if r == nil {
		return cloudwatchsim.Reservation{}, false
	}
	return r.metrics(now), true
}

func (c cwRegion) Use(id string, now time.Time) func(from, to time.Time) float64 {
	return c.rs.useOf(c.rs.reservation(id), now).average
}

// metrics is reservation r as its CloudWatch metrics see it, as of now.
func (r *reservation) metrics(now time.Time) cloudwatchsim.Reservation {
	from, to, ok := r.published(now)
	return cloudwatchsim.Reservation{ID: r.ID, Count: r.Count, From: from, To: to, Publishes: ok}
}

func maxTime(ts ...time.Time) time.Time { return slices.MaxFunc(ts, time.Time.Compare) }
