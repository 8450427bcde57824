package report

import (
	"fmt"
	"math"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Hours is a number of hours that may be unknown: unknown is never zero.
type Hours struct {
	Value float64
	Known bool
}

func knownHours(h float64) Hours { return Hours{Value: h, Known: true} }

// Cost is an amount that may be unknown or undefined (a cost per hour of nothing used).
type Cost struct {
	Value model.Money
	Known bool
}

func knownCost(m model.Money) Cost { return Cost{Value: m, Known: true} }

// Row is one reservation in the report. Its figures are inside the report's window
// [From, To), and for a reservation that straddles the window:
//
//   - Paid is the payments made in the window (what the spend groups add up), whichever
//     hours they bought.
//   - Cost is the reservation's whole fee (every payment, whenever made) times the share of
//     its reserved hours that falls in the window: the whole fee when the window covers
//     the reservation, pro rata by reserved hours otherwise. The cost per used accelerator-
//     hour, the saving against on-demand and the cost of the idle hours are all reckoned
//     from Cost and the use in the window, so that the three agree with each other.
//
// Cost is unknown when any payment of the reservation is of unknown amount, or none is on
// record; the figures made from it are then unknown too.
type Row struct {
	Account      string
	Region       string
	Source       model.Source
	ID           string
	Name         string
	InstanceType string
	Count        int
	Start, End   time.Time
	State        model.BlockState
	Tags         map[string]string
	// Group is the reservations its purchase made, this one among them (Reservation.Group).
	Group []string

	// Unit is what Count and the hours count: "instance", or "UltraServer" when the type is
	// an UltraServer type (the catalog's figures for it are per UltraServer).
	Unit string
	// AcceleratorsPerUnit is from the catalog; 0 when the type is not in it.
	AcceleratorsPerUnit int

	// ReservedHours are the unit-hours reserved inside the window; WholeReservedHours over
	// the reservation's whole window, extensions included.
	ReservedHours, WholeReservedHours float64
	// UsedHours are the unit-hours used inside the window; unknown when nothing publishes
	// the reservation's use (UseWhy says why).
	UsedHours Hours
	UseWhy    string
	// AcceleratorHours are the accelerator-hours used.
	AcceleratorHours Hours
	// IdleHours are ReservedHours not used.
	IdleHours Hours

	// Paid is what was paid for it in the window.
	Paid Amount
	// Fee is every payment of the reservation on record, whenever made.
	Fee Amount
	// Cost is the share of Fee for the hours reserved in the window (see above).
	Cost Cost
	// CostPerAcceleratorHour is Cost ÷ AcceleratorHours; unknown when nothing was used.
	CostPerAcceleratorHour Cost
	// OnDemandHourly is one unit's on-demand price an hour; OnDemandCost is the used hours
	// at that price; Saving is OnDemandCost − Cost, negative when the reservation cost more.
	OnDemandHourly Cost
	OnDemandCost   Cost
	Saving         Cost
	// IdleCost is Cost × IdleHours ÷ ReservedHours.
	IdleCost Cost
}

// UsedShare is UsedHours ÷ ReservedHours (0–1); ok is false when use is unknown or nothing
// was reserved in the window.
func (r Row) UsedShare() (float64, bool) {
	if !r.UsedHours.Known || r.ReservedHours <= 0 {
		return 0, false
	}
	return math.Min(1, r.UsedHours.Value/r.ReservedHours), true
}

// Label names the reservation for a person: a plan's name, a block's id.
func (r Row) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return r.ID
}

// GroupMark is the row's place among the reservations its purchase made, "1 of 2"; "" when
// the purchase made only this one (or it is not among Group's ids: a row that stands for
// the whole purchase).
func (r Row) GroupMark() string {
	if len(r.Group) < 2 {
		return ""
	}
	for i, id := range r.Group {
		if id == r.ID {
			return fmt.Sprintf("%d of %d", i+1, len(r.Group))
		}
	}
	return ""
}

// Capacity is "p5.48xlarge × 2".
func (r Row) Capacity() string { return fmt.Sprintf("%s × %d", r.InstanceType, r.Count) }

// buildRow is res's row; payments count in [from, to), hours in [from, until): a window that
// ends after the backend's now has no hours yet beyond it, neither used nor idle.
func buildRow(res Reservation, from, to, until time.Time) Row {
	row := Row{Account: res.Account, Region: res.Region, Source: res.Source, ID: res.ID, Name: res.Name,
		InstanceType: res.InstanceType, Count: res.Count, Start: res.Start.UTC(), End: res.End.UTC(), State: res.State,
		Tags: res.Tags, UseWhy: res.Use.Why, Group: res.Group}
	row.Unit, row.AcceleratorsPerUnit = unitOf(res.InstanceType)
	row.WholeReservedHours = res.ReservedHours
	if row.WholeReservedHours <= 0 {
		row.WholeReservedHours = float64(res.Count) * res.End.Sub(res.Start).Hours()
	}
	row.ReservedHours = reservedInWindow(res, row.WholeReservedHours, from, until)
	if res.Use.Known {
		used := math.Max(0, res.Use.UsedHours)
		row.UsedHours = knownHours(used)
		row.IdleHours = knownHours(math.Max(0, row.ReservedHours-used))
		if row.AcceleratorsPerUnit > 0 {
			row.AcceleratorHours = knownHours(used * float64(row.AcceleratorsPerUnit))
		}
	} else if row.UseWhy == "" {
		row.UseWhy = "its use is not known"
	}
	for _, p := range res.Payments {
		row.Fee.add(p)
		at := p.At
		if at.IsZero() {
			at = res.Start
		}
		if !at.Before(from) && at.Before(to) {
			row.Paid.add(p)
		}
	}
	resSecs, wholeSecs := seconds(row.ReservedHours), seconds(row.WholeReservedHours)
	if row.Fee.Payments > 0 && row.Fee.Complete() && wholeSecs > 0 {
		row.Cost = knownCost(row.Fee.Known.MulRat(min(resSecs, wholeSecs), wholeSecs))
	}
	if res.OnDemandKnown {
		row.OnDemandHourly = knownCost(res.OnDemandHourly)
	}
	if !row.UsedHours.Known {
		return row
	}
	usedSecs := seconds(row.UsedHours.Value)
	if row.OnDemandHourly.Known {
		row.OnDemandCost = knownCost(row.OnDemandHourly.Value.MulRat(usedSecs, 3600))
	}
	if !row.Cost.Known {
		return row
	}
	if row.OnDemandCost.Known {
		row.Saving = knownCost(row.OnDemandCost.Value.Sub(row.Cost.Value))
	}
	if row.AcceleratorHours.Known && usedSecs > 0 {
		row.CostPerAcceleratorHour = knownCost(row.Cost.Value.MulRat(3600, usedSecs*int64(row.AcceleratorsPerUnit)))
	}
	if resSecs > 0 {
		row.IdleCost = knownCost(row.Cost.Value.MulRat(min(seconds(row.IdleHours.Value), resSecs), resSecs))
	}
	return row
}

// reservedInWindow is the backend's figure of the hours reserved inside the window, or,
// when it gave none for a reservation that overlaps the window, the whole reservation's
// hours spread evenly over its window (exact for a Capacity Block, whose count is the
// same throughout).
func reservedInWindow(res Reservation, whole float64, from, to time.Time) float64 {
	if res.Use.ReservedHours > 0 {
		return res.Use.ReservedHours
	}
	span := res.End.Sub(res.Start)
	if span <= 0 {
		return 0
	}
	lo, hi := res.Start, res.End
	if from.After(lo) {
		lo = from
	}
	if to.Before(hi) {
		hi = to
	}
	if !hi.After(lo) {
		return 0
	}
	return whole * float64(hi.Sub(lo)) / float64(span)
}

// seconds are hours as whole seconds: the money made from hours is then integer arithmetic
// on micro-dollars (MulRat), rounded once.
func seconds(h float64) int64 { return int64(math.Round(h * 3600)) }

// unitOf is what a reservation of the type counts, and its accelerators per unit, from the
// catalog. An UltraServer type (u-p6e-gb200x72) counts UltraServers, whose accelerators the
// catalog gives per UltraServer; a member type (p6e-gb200.36xlarge: how EC2 lists an
// UltraServer block's capacity reservation) counts instances, each a share of its
// UltraServer's accelerators. A training plan's ml.* type is the EC2 type's.
func unitOf(instanceType string) (unit string, accelerators int) {
	name := model.EC2Type(instanceType)
	if t, ok := model.LookupType(name); ok {
		if t.UltraServer {
			return "UltraServer", t.Accelerators
		}
		return "instance", t.Accelerators
	}
	for _, t := range model.Catalog() {
		if t.UltraServer && t.MemberType == name && t.Instances > 0 {
			return "instance", t.Accelerators / t.Instances
		}
	}
	return "instance", 0
}
