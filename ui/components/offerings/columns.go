package offerings

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
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

// The widths fit the longest values: region and AZ names (a Local Zone AZ is cut),
// p6-b200.48xlarge, and a fee of up to $99,999,999.99 (64 instances for 26 weeks), which is
// never cut.
var columns = [numColumns]columnDef{
	ColRegion:   {"Region", "region", "R", 14, false, 1},
	ColAZ:       {"AZ", "availability zone", "Z", 15, false, 9},
	ColType:     {"Type", "instance type", "T", 16, false, 8},
	ColCount:    {"N", "instance count", "N", 3, true, 5},
	ColStart:    {"Start UTC", "start", "S", 12, false, 10},
	ColEnd:      {"End UTC", "end", "E", 12, false, 6},
	ColDuration: {"Length", "duration", "D", 6, true, 4},
	ColFee:      {"Upfront fee", "upfront fee", "F", 14, true, 10},
	ColRate:     {"$/inst-h", "$ per instance-hour", "H", 9, true, 3},
	ColAccRate:  {"$/acc-h", "$ per accelerator-hour", "A", 8, true, 7},
}

// row is one offering with its cells formatted once, when it arrives, so that drawing a
// frame only pads strings.
type row struct {
	o       model.Offering
	rate    model.Money
	accRate model.Money
	cells   [numColumns]string
	text    string // lower-case cells, for the filter
}

const timeLayout = "Jan 02 15:04"

func newRow(o model.Offering) row {
	r := row{o: o, rate: o.HourlyRate(), accRate: o.AcceleratorHourlyRate()}
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
	r.text = strings.ToLower(strings.Join(r.cells[:], " ") + " " + o.ID)
	return r
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
	}
	return r
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
