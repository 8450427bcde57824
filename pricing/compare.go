package pricing

import (
	"fmt"
	"math/big"

	"github.com/gpublock/gpublock/model"
)

// Comparison sets one offering against on-demand. Money fields are exact or rounded to the
// micro-dollar where they are rates; Fee is the offering's own total and is never rebuilt
// from a rate.
type Comparison struct {
	Offering model.Offering
	// Unit is what rates are per: "instance", or "UltraServer" for UltraServer types (whose
	// catalog rates are per UltraServer-hour). Units is how many the block holds.
	Unit  string
	Units int64

	BlockMinutes  int64 // the whole block
	UsableMinutes int64 // until instances are terminated, model.TerminationLead before the end

	Fee               model.Money // the upfront fee: the total, exact
	EffectiveHourly   model.Money // fee per unit-hour of the block
	UsableHourly      model.Money // fee per unit-hour that can actually run
	AcceleratorHourly model.Money // fee per accelerator-hour of the block

	// OnDemand is the catalog row used; its Status says price, none (not sold on-demand) or
	// unknown. Zero when the catalog has no row for the type and region.
	OnDemand       Row
	OnDemandHourly model.Money // per unit-hour; zero when NoOnDemand
	// NoOnDemand is set when there is no on-demand price to compare with; NoOnDemandReason
	// says why in a sentence. Nothing below is then present.
	NoOnDemand       bool
	NoOnDemandReason string

	OnDemandBlockCost  model.Money // every unit on-demand for the whole block
	OnDemandUsableCost model.Money // every unit on-demand for the usable part
	// BreakEvenUtilization = fee ÷ (on-demand $/h × units × usable hours): the share of the
	// usable hours (instances stop model.TerminationLead before the end) that must be used
	// for the block to cost less than the same hours on-demand. Above 1 the block never wins;
	// this is the one break-even every screen, chart and export shows and sorts by.
	BreakEvenUtilization Ratio
	// BreakEvenHours = fee ÷ (on-demand $/h × units): the hours of use at which the costs meet.
	BreakEvenHours Ratio
	// SavingsPercent = (1 − BreakEvenUtilization) × 100: what the block saves against its
	// usable hours on-demand, in percent; negative when the block costs more.
	SavingsPercent Ratio
	// CanWin: the break-even point falls within the usable hours (BreakEvenUtilization ≤ 1).
	CanWin bool

	Source string // of the on-demand figure
	AsOf   string // its date, as precise as its source

	// Published is the newest published Capacity Block effective rate for the type and
	// region, if any (HasPublished).
	Published    Row
	HasPublished bool
	// SavingsPlans holds the known 1-year and 3-year rates, per unit-hour.
	SavingsPlans []Row
}

// Compare prices an offering against the catalog's on-demand figure for its type and region.
// A nil catalog means the embedded one.
func Compare(cat *Catalog, o model.Offering) Comparison {
	return compare(cat, o, int64(model.TerminationLead.Minutes()))
}

// CompareExtension prices an extension (as ExtensionOffering.AsOffering gives it) against
// on-demand. All its hours are usable: the 30 minutes lost at the end move with the end,
// so the extension turns the old end's lost minutes into usable ones and loses as many at
// the new end.
func CompareExtension(cat *Catalog, o model.Offering) Comparison {
	return compare(cat, o, 0)
}

func compare(cat *Catalog, o model.Offering, leadMinutes int64) Comparison {
	if o.Source == model.SourceTrainingPlan {
		return comparePlan(o)
	}
	if cat == nil {
		cat = Embedded()
	}
	c := Comparison{Offering: o, Unit: "instance", Units: int64(o.Count), Fee: o.Fee}
	if t, ok := model.LookupType(o.InstanceType); ok && t.UltraServer {
		c.Unit, c.Units = "UltraServer", int64(o.UltraServerCount)
		if c.Units == 0 {
			c.Units = 1
		}
	}
	c.BlockMinutes = o.Minutes()
	c.UsableMinutes = max(0, c.BlockMinutes-leadMinutes)
	if c.Units > 0 && c.BlockMinutes > 0 {
		if c.Unit == "instance" {
			c.EffectiveHourly = o.HourlyRate()
		} else {
			c.EffectiveHourly = o.Fee.MulRat(60, c.Units*c.BlockMinutes)
		}
		c.AcceleratorHourly = o.AcceleratorHourlyRate()
	}
	// The instance-minutes a job can use: the count × the usable length, or each
	// segment's own, for an offering made of segments.
	usable := c.Units * c.UsableMinutes
	if o.Segmented() {
		usable = o.UsableInstanceMinutes(leadMinutes)
	}
	if c.Units > 0 && usable > 0 {
		c.UsableHourly = o.Fee.MulRat(60, usable)
	}
	c.Published, c.HasPublished = cat.CapacityBlockRate(o.InstanceType, o.Region)
	c.SavingsPlans = cat.SavingsPlans(o.InstanceType, o.Region)

	row, ok := cat.OnDemand(o.InstanceType, o.Region)
	c.OnDemand = row
	c.Source, c.AsOf = row.Source, row.Date
	switch {
	case !ok:
		c.NoOnDemand = true
		c.NoOnDemandReason = fmt.Sprintf("no on-demand price known for %s in %s", o.InstanceType, o.Region)
		return c
	case row.Status == StatusNone:
		c.NoOnDemand = true
		c.NoOnDemandReason = fmt.Sprintf("no on-demand price to compare with: %s sold only as Capacity Blocks (%s, %s)", o.InstanceType, row.Source, row.Date)
		return c
	case o.Segmented() && !o.SegmentTypesAgree():
		c.NoOnDemand = true
		c.NoOnDemandReason = "no single on-demand price to compare with: the offering's segments are of several instance types"
		return c
	case !row.HasPrice():
		c.NoOnDemand = true
		c.NoOnDemandReason = fmt.Sprintf("no on-demand price known for %s in %s; try gpublock prices --refresh", o.InstanceType, o.Region)
		return c
	}
	c.OnDemandHourly = row.Hourly
	if c.Units <= 0 || c.UsableMinutes <= 0 || usable <= 0 {
		// Nothing to divide by: an offering without instances or usable time compares with
		// nothing.
		return c
	}
	c.OnDemandBlockCost = c.OnDemandCostAt(c.BlockMinutes)
	c.OnDemandUsableCost = c.OnDemandCostAt(c.UsableMinutes)
	if o.Segmented() {
		c.OnDemandBlockCost = row.Hourly.MulRat(o.InstanceMinutes(), 60)
		c.OnDemandUsableCost = row.Hourly.MulRat(usable, 60)
	}

	fee := big.NewInt(o.Fee.Micros())
	rate := big.NewInt(row.Hourly.Micros())
	units := big.NewInt(c.Units)
	// u = 60·fee ÷ (rate · units · minutes); hours = fee ÷ (rate · units)
	num := new(big.Int).Mul(fee, big.NewInt(60))
	den := new(big.Int).Mul(rate, units)
	c.BreakEvenHours = newRatio(fee, den)
	c.BreakEvenUtilization = newRatio(num, new(big.Int).Mul(rate, big.NewInt(usable)))
	s := new(big.Rat).Sub(big.NewRat(1, 1), c.BreakEvenUtilization.r)
	c.SavingsPercent = Ratio{s.Mul(s, big.NewRat(100, 1))}
	c.CanWin = c.BreakEvenUtilization.CmpInt(1) <= 0
	return c
}

// OnDemandCostAt is what every unit of the block costs on-demand for minutes of use,
// rounded to the micro-dollar.
func (c Comparison) OnDemandCostAt(minutes int64) model.Money {
	if c.NoOnDemand {
		return model.Money{}
	}
	return c.OnDemandHourly.MulRat(c.Units*minutes, 60)
}

// SavingsPlanCostAt is what every unit costs at a Savings Plans rate for minutes of use.
func (c Comparison) SavingsPlanCostAt(plan Row, minutes int64) model.Money {
	return plan.Hourly.MulRat(c.Units*minutes, 60)
}

// BlockCostPerUsedHour is the fee divided by the unit-hours used at a utilization u of the
// usable hours (0 < u ≤ 1), for display; ok is false at u ≤ 0.
func (c Comparison) BlockCostPerUsedHour(u float64) (float64, bool) {
	if u <= 0 || c.Units <= 0 || c.UsableMinutes <= 0 {
		return 0, false
	}
	return dollars(c.Fee) / (float64(c.Units) * u * float64(c.UsableMinutes) / 60), true
}

// BreakEvenPercent is the break-even utilization in whole percent, rounded up, so "at
// least N%" is true.
func (c Comparison) BreakEvenPercent() int64 { return c.BreakEvenUtilization.Ceil(100) }

// BreakEvenFloat is the break-even utilization as a float for JSON (0–1; above 1 the block
// never wins), and false when there is nothing to compare with.
func (c Comparison) BreakEvenFloat() (float64, bool) {
	return c.BreakEvenUtilization.Float64(), c.BreakEvenUtilization.Valid()
}

// Reading says in one line what the comparison means, e.g. "cheaper than on-demand if you
// use at least 58% of the 47.5 usable hours (28 hours)".
func (c Comparison) Reading() string {
	if c.NoOnDemand {
		return c.NoOnDemandReason
	}
	lead := int(model.TerminationLead.Minutes())
	stop := fmt.Sprintf(" (instances stop %d minutes before the end)", lead)
	if c.UsableMinutes == c.BlockMinutes {
		stop = "" // an extension: every added hour can be used
	}
	if c.Units > 0 && c.BlockMinutes > 0 && c.UsableMinutes <= 0 {
		return fmt.Sprintf("never cheaper than on-demand: instances stop %d minutes before the end, so no hour of it can be used", lead)
	}
	if !c.BreakEvenUtilization.Valid() {
		return "nothing to compare: the offering has no instances or no length"
	}
	usable := formatHours(big.NewRat(c.UsableMinutes, 60))
	if !c.CanWin {
		more := new(big.Rat).Neg(c.SavingsPercent.r)
		rounded := Ratio{more}.Round(1)
		pct := fmt.Sprintf("%d%%", rounded)
		if rounded == 0 {
			// under half a percent dearer would read "costs 0% more", which says nothing
			pct = "less than 1%"
		}
		return fmt.Sprintf("never cheaper than on-demand: it costs %s more than its %s usable hours on-demand%s", pct, usable, stop)
	}
	if c.BreakEvenHours.CmpInt(0) <= 0 {
		return "cheaper than on-demand from the first hour"
	}
	of := usable + " usable hours"
	if stop == "" {
		of = usable + " hours"
	}
	return fmt.Sprintf("cheaper than on-demand if you use at least %s of the %s (%s hours)",
		c.BreakEvenPercentText(), of, c.BreakEvenHoursText())
}

// BreakEvenPercentText and BreakEvenHoursText are the break-even as every table, chart,
// detail and command writes it, by one rule: rounded up, so that "at least" stays true, the
// utilization to the whole percent ("81%"), the hours to the tenth ("32.1"). Empty when
// there is nothing to compare.
func (c Comparison) BreakEvenPercentText() string {
	if !c.BreakEvenUtilization.Valid() {
		return ""
	}
	return fmt.Sprintf("%d%%", c.BreakEvenPercent())
}

// BreakEvenHoursText: see BreakEvenPercentText.
func (c Comparison) BreakEvenHoursText() string {
	if !c.BreakEvenHours.Valid() {
		return ""
	}
	return formatHours(c.BreakEvenHours.r)
}

// formatHours writes hours with at most one decimal, rounded up: "28", "40.5".
func formatHours(h *big.Rat) string {
	tenths := Ratio{h}.Ceil(10)
	if tenths%10 == 0 {
		return fmt.Sprintf("%d", tenths/10)
	}
	return fmt.Sprintf("%d.%d", tenths/10, tenths%10)
}

func dollars(m model.Money) float64 { return float64(m.Micros()) / 1e6 }
