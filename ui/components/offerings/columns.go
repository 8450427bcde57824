package offerings

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Column is a column of the table.
type Column int

const (
	ColRegion Column = iota
	ColAZ
	ColType
	ColCount
	ColStart
	ColEnd
	ColDuration
	ColFee
	ColRate
	ColAccRate
	ColOnDemand   // on-demand $ per hour of the same type and region
	ColVsOnDemand // the block's cost against the same hours on-demand, in percent
	ColBreakEven  // break-even utilization with a small bar
	numColumns
)

type columnDef struct {
	title   string
	name    string // in help and the status line
	sortKey string
	width   int
	right   bool
	keep    int // narrow tables drop the columns of lowest keep first
}

// keep orders the columns for narrow tables: at 80 columns the table keeps zone, type,
// count, start, fee and break-even, the figures a choice is made on.
//
// The widths fit the longest values: region and AZ names (a Local Zone AZ is cut),
// p6-b200.48xlarge, and a fee of up to $99,999,999.99 (64 instances for 26 weeks), which is
// never cut.
var columns = [numColumns]columnDef{
	ColRegion:     {"Region", "region", "R", 14, false, 10},
	ColAZ:         {"AZ", "availability zone", "Z", 15, false, 90},
	ColType:       {"Type", "instance type", "T", 16, false, 80},
	ColCount:      {"N", "instance count", "N", 3, true, 50},
	ColStart:      {"Start UTC", "start", "S", 12, false, 100},
	ColEnd:        {"End UTC", "end", "E", 12, false, 60},
	ColDuration:   {"Length", "duration", "D", 6, true, 40},
	ColFee:        {"Upfront fee", "upfront fee", "F", 14, true, 100},
	ColRate:       {"$/inst-h", "$ per instance-hour", "H", 9, true, 30},
	ColAccRate:    {"$/acc-h", "$ per accelerator-hour", "A", 8, true, 70},
	ColOnDemand:   {"OD $/h", "on-demand $ per hour", "O", 10, true, 35},
	ColVsOnDemand: {"vs OD", "cost vs on-demand", "V", 6, true, 45},
	ColBreakEven:  {"Break-even", "break-even utilization", "B", 11, true, 75},
}

// noPrice fills the pricing cells of an offering without an on-demand price: a dash, never
// a guessed number; the detail and the chart say why.
const noPrice = "—"

// breakEvenBarWidth is the bar of the break-even cell, after "58% ".
const breakEvenBarWidth = 5

// row is one offering with its cells formatted once, when it arrives, so that drawing a
// frame only pads strings.
type row struct {
	o model.Offering
	// vs is the offering against on-demand, computed once on arrival (its Offering left
	// zero: o is the one copy). Behind a pointer so that growing the rows copies little; the
	// sort keys are kept beside it so that sorting reads no further than the row.
	vs       *pricing.Comparison
	odHourly model.Money
	hasOD    bool
	be       pricing.Ratio // break-even utilization; absent without an on-demand price
	rate     model.Money
	accRate  model.Money
	cells    [numColumns]string
	text     string // lower-case cells, for the filter
}

const timeLayout = "Jan 02 15:04"

func newRow(o model.Offering, cat *pricing.Catalog) row {
	c := pricing.Compare(cat, o)
	c.Offering = model.Offering{}
	r := row{o: o, vs: &c, odHourly: c.OnDemandHourly, hasOD: !c.NoOnDemand, be: c.BreakEvenUtilization,
		rate: o.HourlyRate(), accRate: o.AcceleratorHourlyRate()}
	r.cells = [numColumns]string{
		ColRegion:   o.Region,
		ColAZ:       o.AvailabilityZone,
		ColType:     o.InstanceType,
		ColCount:    strconv.Itoa(o.Count),
		ColStart:    o.Start.UTC().Format(timeLayout),
		ColEnd:      o.End.UTC().Format(timeLayout),
		ColDuration: FormatLength(o),
		ColFee:      o.Fee.Dollars(),
		ColRate:     r.rate.Rate(),
		ColAccRate:  r.accRate.Rate(),
	}
	if o.Currency != "" && o.Currency != "USD" {
		r.cells[ColFee] = o.Fee.String() + " " + o.Currency
	}
	r.cells[ColOnDemand], r.cells[ColVsOnDemand], r.cells[ColBreakEven] = pricingCells(c)
	r.text = strings.ToLower(strings.Join(r.cells[:], " ") + " " + o.ID)
	return r
}

// pricingCells writes the on-demand rate, the cost against on-demand ("-44%": 44% less
// than the same hours on-demand) and the break-even utilization with its bar ("58% ███░░").
func pricingCells(c pricing.Comparison) (od, vs, be string) {
	if c.NoOnDemand {
		return noPrice, noPrice, noPrice
	}
	od = c.OnDemandHourly.Rate()
	if !c.BreakEvenUtilization.Valid() {
		return od, noPrice, noPrice
	}
	// (u − 1) × 100, rounded half away from zero.
	v := math.Round(-c.SavingsPercent.Float64())
	switch {
	case v > 0:
		vs = fmt.Sprintf("+%.0f%%", v)
	case v < 0:
		vs = fmt.Sprintf("%.0f%%", v)
	default:
		vs = "0%"
	}
	be = fmt.Sprintf("%d%% %s", c.BreakEvenPercent(), pricing.BreakEvenBar(c, breakEvenBarWidth))
	return od, vs, be
}

// FormatLength writes a block's length: "2d", "3w" for whole days; "~1d2h" or "5h35m" for a
// near-term block that starts off the 11:30 boundary (the detail pane has the exact length).
func FormatLength(o model.Offering) string {
	mins := o.Minutes()
	if mins%(24*60) == 0 {
		return model.FormatDays(int(mins / (24 * 60)))
	}
	if mins < 24*60 {
		return fmt.Sprintf("%dh%02dm", mins/60, mins%60)
	}
	hours := (mins + 30) / 60
	if hours%24 == 0 {
		return fmt.Sprintf("~%dd", hours/24)
	}
	return fmt.Sprintf("~%dd%dh", hours/24, hours%24)
}

// compare orders two rows by a column, then by start, fee and id so that equal keys keep
// one order whatever the order of arrival.
func compare(a, b *row, c Column) int {
	var r int
	switch c {
	case ColRegion:
		r = strings.Compare(a.o.Region, b.o.Region)
	case ColAZ:
		r = strings.Compare(a.o.AvailabilityZone, b.o.AvailabilityZone)
	case ColType:
		r = strings.Compare(a.o.InstanceType, b.o.InstanceType)
	case ColCount:
		r = cmp.Compare(a.o.Count, b.o.Count)
	case ColStart:
		r = a.o.Start.Compare(b.o.Start)
	case ColEnd:
		r = a.o.End.Compare(b.o.End)
	case ColDuration:
		r = cmp.Compare(a.o.Minutes(), b.o.Minutes())
	case ColFee:
		r = a.o.Fee.Cmp(b.o.Fee)
	case ColRate:
		r = a.rate.Cmp(b.rate)
	case ColAccRate:
		r = a.accRate.Cmp(b.accRate)
	case ColOnDemand:
		r = a.odHourly.Cmp(b.odHourly)
	case ColVsOnDemand, ColBreakEven:
		// The cost against on-demand is (u − 1) × 100, so both follow the exact utilization.
		r = a.be.Cmp(b.be)
	}
	return r
}

// pricingColumn reports whether a column can lack a figure (no on-demand price).
func pricingColumn(c Column) bool { return c == ColOnDemand || c == ColVsOnDemand || c == ColBreakEven }

// missingLast puts rows without a figure to sort by after the rest, in either direction;
// ok is false when both rows have it (or neither), and the column decides.
func missingLast(a, b *row, c Column) (r int, ok bool) {
	var ha, hb bool
	switch c {
	case ColOnDemand:
		ha, hb = a.hasOD, b.hasOD
	case ColVsOnDemand, ColBreakEven:
		ha, hb = a.be.Valid(), b.be.Valid()
	default:
		return 0, false
	}
	switch {
	case ha == hb:
		return 0, false
	case ha:
		return -1, true
	}
	return 1, true
}

func tieBreak(a, b *row) int {
	if r := a.o.Start.Compare(b.o.Start); r != 0 {
		return r
	}
	if r := a.o.Fee.Cmp(b.o.Fee); r != 0 {
		return r
	}
	return strings.Compare(a.o.ID, b.o.ID)
}
