package report

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Untagged is the group of the reservations that do not carry a tag key.
const Untagged = "(untagged)"

// Report is what Build makes of an Input: what was paid in [From, To), grouped, and per
// reservation what it cost against what it was used. Every figure a chart draws (Months,
// Reservations' ReservedHours and UsedHours) is a field here, so that the SVG, the table
// and a terminal screen draw the same numbers.
type Report struct {
	From, To time.Time
	Now      time.Time
	TagKeys  []string

	// Paid is every payment made in [From, To).
	Paid Amount
	// Months are the calendar months (UTC) that [From, To) touches, oldest first, each with
	// what was paid in it: the spend chart's bars. A month without payments is there, at zero.
	Months    []Month
	ByAccount []Group
	BySource  []Group
	// ByTag has one entry per TagKeys, in their order.
	ByTag []TagSpend
	// Payments are every payment made in [From, To), oldest first.
	Payments []PaymentRow
	// UnknownAmounts are the payments among them whose amount no one can say: counted in
	// Paid.Unknown, never as zero.
	UnknownAmounts []PaymentRow

	// Reservations are those whose window overlaps [From, To) or that were paid for in it,
	// by start: the use chart's bars.
	Reservations []Row
	// Use sums the reservations' hours in the window.
	Use UseSummary

	// Problems are what could not be read, from the Input.
	Problems []string
}

// Amount is money paid: the sum of the payments whose amount is known, and how many
// were of unknown amount (left out of Known, never counted as zero).
type Amount struct {
	Known    model.Money
	Payments int // every payment counted, known or not
	Unknown  int // those of unknown amount
}

// Complete: every payment's amount is known, so Known is the whole amount.
func (a Amount) Complete() bool { return a.Unknown == 0 }

func (a *Amount) add(p Payment) {
	a.Payments++
	if p.Known {
		a.Known = a.Known.Add(p.Amount)
	} else {
		a.Unknown++
	}
}

// Month is one calendar month (UTC) of payments.
type Month struct {
	Start time.Time // its first instant, UTC
	Label string    // 2026-11
	Amount
	// BySource has every source of model.Sources, in that order, those without payments at
	// zero, so that the stacks of every month are in the same order.
	BySource []SourceAmount
}

// SourceAmount is what was paid for one source's reservations.
type SourceAmount struct {
	Source model.Source
	Amount
}

// Group is what was paid for the reservations of one account, source or tag value.
type Group struct {
	Key string
	// Untagged marks the group of the reservations without the tag (Key is Untagged then).
	Untagged bool
	Amount
}

// TagSpend is what was paid by the values of one tag key.
type TagSpend struct {
	Key    string
	Values []Group // by value; the untagged last
}

// PaymentRow is one payment with the reservation it paid for.
type PaymentRow struct {
	Payment
	ReservationID string
	Name          string
	Account       string
	Region        string
	Source        model.Source
}

// UseSummary adds up the reservations' instance-hours inside the window.
type UseSummary struct {
	// ReservedHours and UsedHours are of the reservations whose use is known.
	ReservedHours, UsedHours float64
	// UnknownReservedHours are the reserved hours of the reservations whose use is unknown.
	UnknownReservedHours float64
	UnknownReservations  int
}

// Build makes the report of in. It is pure: the same Input makes the same Report.
//
// Payments are counted in the month (UTC), account, source and tags of their reservation
// when made in [From, To); one without a time counts as made at its reservation's start.
// The per-reservation rows cover the reservations overlapping [From, To) and those paid
// for in it; their figures are described on Row. Hours are counted up to Now when the
// window ends later: hours still to come are neither used nor idle.
func Build(in Input) Report {
	r := Report{From: in.From.UTC(), To: in.To.UTC(), Now: in.Now.UTC(), TagKeys: slices.Clone(in.TagKeys),
		Problems: slices.Clone(in.Problems)}
	r.Months = months(r.From, r.To)
	until := r.To
	if !r.Now.IsZero() && r.Now.Before(until) {
		until = r.Now
	}
	accounts, sources := map[string]*Amount{}, map[model.Source]*Amount{}
	tags := make([]map[string]*Amount, len(in.TagKeys))
	for i := range tags {
		tags[i] = map[string]*Amount{}
	}
	for _, res := range in.Reservations {
		paidIn := false
		for _, p := range res.Payments {
			if p.At.IsZero() {
				p.At = res.Start
			}
			if !r.inWindow(p.At) {
				continue
			}
			paidIn = true
			row := PaymentRow{Payment: p, ReservationID: res.ID, Name: res.Name, Account: res.Account, Region: res.Region, Source: res.Source}
			r.Payments = append(r.Payments, row)
			if !p.Known {
				r.UnknownAmounts = append(r.UnknownAmounts, row)
			}
			r.Paid.add(p)
			r.addToMonth(p, res.Source)
			bucket(accounts, res.Account).add(p)
			bucket(sources, res.Source).add(p)
			for i, k := range in.TagKeys {
				v, ok := res.Tags[k]
				if !ok {
					v = "\x00" + Untagged // sorts apart from a value that reads the same
				}
				bucket(tags[i], v).add(p)
			}
		}
		if paidIn || Relevant(res, r.From, r.To, r.Now) {
			row := buildRow(res, r.From, r.To, until)
			r.Reservations = append(r.Reservations, row)
			if row.UsedHours.Known {
				r.Use.ReservedHours += row.ReservedHours
				r.Use.UsedHours += row.UsedHours.Value
			} else {
				r.Use.UnknownReservedHours += row.ReservedHours
				r.Use.UnknownReservations++
			}
		}
	}
	r.ByAccount = groups(accounts, func(k string) Group { return Group{Key: k} })
	for _, s := range model.Sources() {
		if a, ok := sources[s]; ok {
			r.BySource = append(r.BySource, Group{Key: s.Name(), Amount: *a})
		}
	}
	for i, k := range in.TagKeys {
		r.ByTag = append(r.ByTag, TagSpend{Key: k, Values: groups(tags[i], func(v string) Group {
			if u, ok := strings.CutPrefix(v, "\x00"); ok {
				return Group{Key: u, Untagged: true}
			}
			return Group{Key: v}
		})})
	}
	slices.SortStableFunc(r.Payments, comparePayments)
	slices.SortStableFunc(r.UnknownAmounts, comparePayments)
	slices.SortStableFunc(r.Reservations, func(a, b Row) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.Account, b.Account), cmp.Compare(a.Region, b.Region), cmp.Compare(a.ID, b.ID))
	})
	return r
}

func (r *Report) inWindow(t time.Time) bool { return inWindow(t, r.From, r.To, r.Now) }

// inWindow: t is in [from, to), or is now itself when the window ends now, so that what was
// paid the instant the report is read (a clock that has not moved since) is counted.
func inWindow(t, from, to, now time.Time) bool {
	if t.Before(from) {
		return false
	}
	return t.Before(to) || (!now.IsZero() && t.Equal(now) && !to.Before(now))
}

// Relevant reports whether res belongs in a report of [from, to) read at now: its window
// overlaps [from, to), or it was paid for in it (a payment without a time counts as made
// at its start).
func Relevant(res Reservation, from, to, now time.Time) bool {
	if res.Start.Before(to) && res.End.After(from) {
		return true
	}
	for _, p := range res.Payments {
		if p.At.IsZero() {
			p.At = res.Start
		}
		if inWindow(p.At, from, to, now) {
			return true
		}
	}
	return false
}

func (r *Report) addToMonth(p Payment, s model.Source) {
	at := p.At.UTC()
	for i := range r.Months {
		m := &r.Months[i]
		if m.Start.Year() == at.Year() && m.Start.Month() == at.Month() {
			m.add(p)
			for j := range m.BySource {
				if m.BySource[j].Source == s {
					m.BySource[j].add(p)
				}
			}
			return
		}
	}
}

// months are the calendar months [from, to) touches.
func months(from, to time.Time) []Month {
	var out []Month
	if !from.Before(to) {
		return nil
	}
	for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); m.Before(to); m = m.AddDate(0, 1, 0) {
		mo := Month{Start: m, Label: m.Format(model.LayoutMonth)}
		for _, s := range model.Sources() {
			mo.BySource = append(mo.BySource, SourceAmount{Source: s})
		}
		out = append(out, mo)
	}
	return out
}

func bucket[K comparable](m map[K]*Amount, k K) *Amount {
	a, ok := m[k]
	if !ok {
		a = &Amount{}
		m[k] = a
	}
	return a
}

// groups are m's amounts by key, sorted; the untagged group last.
func groups(m map[string]*Amount, mk func(string) Group) []Group {
	out := make([]Group, 0, len(m))
	for k, a := range m {
		g := mk(k)
		g.Amount = *a
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Group) int {
		if a.Untagged != b.Untagged {
			if a.Untagged {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.Key, b.Key)
	})
	return out
}

func comparePayments(a, b PaymentRow) int {
	return cmp.Or(a.At.Compare(b.At), cmp.Compare(a.ReservationID, b.ReservationID), cmp.Compare(a.Kind, b.Kind))
}
