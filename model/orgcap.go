package model

import (
	"fmt"
	"slices"
	"time"
)

// MaxOrganizationInstances is AWS's cap on the Capacity Block instances held on any one
// date: "up to 256 instances across Capacity Blocks" (EC2 User Guide), counted across the
// organization's accounts, per day. It is the one documented figure, which the emulator
// holds one account to (MaxAccountInstances).
const MaxOrganizationInstances = MaxAccountInstances

// DayCount is the Capacity Block instances held on one UTC date.
type DayCount struct {
	Date      time.Time // midnight UTC
	Instances int
}

// Held is what Capacity Blocks hold toward the organization's cap: the instances on each
// UTC date that has any, in date order.
type Held []DayCount

// holdsInstances reports whether a block counts toward the cap: a Capacity Block that is
// bought or being paid for and has not ended. A training plan is SageMaker's, not counted.
func holdsInstances(b Block) bool {
	if b.Source != SourceCapacityBlock {
		return false
	}
	switch b.State {
	case StatePaymentPending, StateScheduled, StateActive:
		return true
	}
	return false
}

// BlockInstances is the instances a block holds: an UltraServer listed by its own type
// counts its member instances.
func BlockInstances(b Block) int {
	if t, ok := LookupType(b.InstanceType); ok && t.UltraServer {
		return b.TotalCount * t.Instances
	}
	return b.TotalCount
}

// OfferingInstances is the instances an offering would add: an UltraServer offering's
// count is of UltraServers, each of its catalog type's Instances.
func OfferingInstances(o Offering) int {
	name := o.UltraServerType
	if name == "" {
		name = o.InstanceType
	}
	if t, ok := LookupType(name); ok && t.UltraServer {
		n := o.UltraServerCount
		if n == 0 {
			n = o.Count
		}
		return max(1, n) * t.Instances
	}
	return o.Count
}

// utcDates are the UTC dates the window [start, end) touches, each at midnight: a block
// held for any part of a day holds its instances on that day.
func utcDates(start, end time.Time) []time.Time {
	if !end.After(start) {
		return nil
	}
	day := start.UTC().Truncate(24 * time.Hour)
	last := end.UTC().Add(-time.Nanosecond).Truncate(24 * time.Hour)
	var out []time.Time
	for ; !day.After(last); day = day.AddDate(0, 0, 1) {
		out = append(out, day)
	}
	return out
}

// InstancesHeld counts, per UTC date, the instances of the blocks that hold any toward the
// cap (payment-pending, scheduled, active); an extension still being paid for counts to its
// end, since it will hold the instances once paid.
func InstancesHeld(blocks []Block) Held {
	byDay := map[time.Time]int{}
	for _, b := range blocks {
		if !holdsInstances(b) {
			continue
		}
		n := BlockInstances(b)
		for _, d := range utcDates(b.Start, b.HeldEnd()) {
			byDay[d] += n
		}
	}
	out := make(Held, 0, len(byDay))
	for d, n := range byDay {
		out = append(out, DayCount{Date: d, Instances: n})
	}
	slices.SortFunc(out, func(a, b DayCount) int { return a.Date.Compare(b.Date) })
	return out
}

// On is the instances held on the UTC date of t.
func (h Held) On(t time.Time) int {
	day := t.UTC().Truncate(24 * time.Hour)
	for _, d := range h {
		if d.Date.Equal(day) {
			return d.Instances
		}
	}
	return 0
}

// Peak is the date, from the UTC date of from on, with the most instances held (the
// earliest of equals); ok is false when no date from then on holds any.
func (h Held) Peak(from time.Time) (DayCount, bool) {
	day := from.UTC().Truncate(24 * time.Hour)
	var peak DayCount
	for _, d := range h {
		if !d.Date.Before(day) && d.Instances > peak.Instances {
			peak = d
		}
	}
	return peak, peak.Instances > 0
}

// Line states the peak against the cap, as the blocks screen and `gpublock blocks` print
// it: "organization: at most 200 of 256 Capacity Block instances on 2026-12-14".
func (h Held) Line(now time.Time) string {
	peak, ok := h.Peak(now)
	if !ok {
		return fmt.Sprintf("organization: no Capacity Block instances held from %s on (AWS's cap: %d on any date)",
			now.UTC().Format(time.DateOnly), MaxOrganizationInstances)
	}
	return fmt.Sprintf("organization: at most %d of %d Capacity Block instances on %s", peak.Instances, MaxOrganizationInstances,
		peak.Date.Format(time.DateOnly))
}

// HeldSpan is consecutive UTC dates, From to To (both included), each holding Instances.
type HeldSpan struct {
	From, To  time.Time
	Instances int
}

// Spans are what is held per date from now's UTC date on, consecutive dates holding the same
// number joined into one span; dates that hold none are left out.
func (h Held) Spans(now time.Time) []HeldSpan {
	day := now.UTC().Truncate(24 * time.Hour)
	var out []HeldSpan
	for _, d := range h {
		if d.Date.Before(day) || d.Instances == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Instances == d.Instances && out[n-1].To.AddDate(0, 0, 1).Equal(d.Date) {
			out[n-1].To = d.Date
			continue
		}
		out = append(out, HeldSpan{From: d.Date, To: d.Date, Instances: d.Instances})
	}
	return out
}

// SpanLines are the spans as the table under `gpublock blocks` prints them, one per line:
// "2026-12-02 to 2026-12-04   200 of 256".
func (h Held) SpanLines(now time.Time) []string {
	var out []string
	for _, sp := range h.Spans(now) {
		when := sp.From.Format(time.DateOnly)
		if !sp.To.Equal(sp.From) {
			when += " to " + sp.To.Format(time.DateOnly)
		}
		out = append(out, fmt.Sprintf("%-24s %4d of %d", when, sp.Instances, MaxOrganizationInstances))
	}
	return out
}

// IncompleteNote follows the organization's figures when an account or a region could not
// be listed.
const IncompleteNote = " (the list is incomplete: the figures may be low)"

// CapPass is a purchase that would take the organization past the cap: on Date, the
// instances already held and those the offering adds; Dates is how many dates of its
// window pass the cap.
type CapPass struct {
	Date         time.Time
	Held, Adding int
	Dates        int
	Cap          int
}

// WouldPass reports whether buying o would hold more than the cap on any UTC date of its
// window, with the date that would be furthest past it (the earliest of equals). A training
// plan offering is not a Capacity Block and never passes it.
func WouldPass(held Held, o Offering) (CapPass, bool) {
	if o.Source != SourceCapacityBlock {
		return CapPass{}, false
	}
	add := OfferingInstances(o)
	p := CapPass{Adding: add, Cap: MaxOrganizationInstances}
	worst := -1
	for _, d := range utcDates(o.Start, o.End) {
		n := held.On(d)
		if n+add <= MaxOrganizationInstances {
			continue
		}
		p.Dates++
		if n > worst {
			worst, p.Date, p.Held = n, d, n
		}
	}
	return p, p.Dates > 0
}

// Warning is the sentence a purchase confirmation shows before the typed word. It stays a
// warning: AWS decides, and the listing may not be the organization's whole set.
func (p CapPass) Warning() string {
	more := ""
	if p.Dates > 1 {
		more = " (and on " + Plural(p.Dates-1, "other date", "other dates") + " of its window)"
	}
	return fmt.Sprintf("ORGANIZATION CAP: on %s the organization's Capacity Blocks hold %d instances; this adds %d, %d in all, "+
		"past AWS's %d across the organization%s. AWS may refuse the purchase.",
		p.Date.Format(time.DateOnly), p.Held, p.Adding, p.Held+p.Adding, p.Cap, more)
}

// CapNote is what a purchase's confirmation says of the cap before the typed word: the
// warning when o would pass it (passes), else the most held on a date of its window and
// what o adds. A training plan offering has none.
func CapNote(held Held, o Offering) (note string, passes bool) {
	if o.Source != SourceCapacityBlock {
		return "", false
	}
	if p, ok := WouldPass(held, o); ok {
		return p.Warning(), true
	}
	var peak DayCount
	for _, d := range utcDates(o.Start, o.End) {
		if n := held.On(d); n > peak.Instances || peak.Date.IsZero() {
			peak = DayCount{Date: d, Instances: n}
		}
	}
	add := OfferingInstances(o)
	return fmt.Sprintf("at most %d of the organization's %d Capacity Block instances are held on a date of its window (%s); this adds %d, %d in all",
		peak.Instances, MaxOrganizationInstances, peak.Date.Format(time.DateOnly), add, peak.Instances+add), false
}
