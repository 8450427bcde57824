package offerings

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/components/table"
)

// Column is a column of the table.
type Column int

const (
	ColRegion Column = iota
	ColSource        // Capacity Block or Training Plan: shown while the table holds a plan
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
	keep    int  // narrow tables drop the columns of lowest keep first
	core    bool // kept at every width, narrowed to their values before any is dropped
}

// The priority of the columns, written once here: what a choice is made on is core and kept
// at every width (80, 120 and 200 columns alike), narrowed to its values: the upfront fee,
// the rate per instance-hour, the break-even against on-demand, the start, the length, the
// type and the zone (which names the region; the first core column dropped should a long
// type name leave no room). What a narrow table drops first, lowest keep first: the rate
// per accelerator-hour, the on-demand rate, the end (start and length say it), the region
// (the zone says it), the cost against on-demand and the count (every row has the count
// searched). The source, shown only while
// the table holds a plan, is core: without it a plan and a block look alike. A sort by any
// column shows that column (the table keeps the sorted column).
//
// The widths fit the longest values: region and AZ names (a Local Zone AZ is cut),
// p6-b200.48xlarge, and a fee of up to $99,999,999.99 (64 instances for 26 weeks), which is
// never cut.
var columns = [numColumns]columnDef{
	ColRegion:     {"Region", "region", "R", 14, false, 60, false},
	ColSource:     {"Source", "source", "K", 7, false, 99, true},
	ColAZ:         {"AZ", "availability zone", "Z", 15, false, 86, true},
	ColType:       {"Type", "instance type", "T", 16, false, 90, true},
	ColCount:      {"N", "instance count", "N", 3, true, 72, false},
	ColStart:      {"Start UTC", "start", "S", 12, false, 94, true},
	ColEnd:        {"End UTC", "end", "E", 12, false, 50, false},
	ColDuration:   {"Length", "duration", "D", 7, true, 92, true},
	ColFee:        {"Upfront fee", "upfront fee", "F", 14, true, 100, true},
	ColRate:       {"$/inst-h", "$ per instance-hour", "H", 9, true, 98, true},
	ColAccRate:    {"$/acc-h", "$ per accelerator-hour", "A", 8, true, 40, false},
	ColOnDemand:   {"OD $/h", "on-demand $ per hour", "O", 10, true, 45, false},
	ColVsOnDemand: {"vs OD", "cost vs on-demand", "V", 6, true, 70, false},
	ColBreakEven:  {"Break-even", "break-even utilization", "B", 11, true, 96, true},
}

// specs are the columns as the generic table reads them.
func specs() []table.Spec {
	out := make([]table.Spec, numColumns)
	for c, d := range columns {
		out[c] = table.Spec{Title: d.title, Name: d.name, SortKey: d.sortKey, Width: d.width, Right: d.right, Keep: d.keep, Core: d.core}
	}
	return out
}

// specsFor are the columns of a table whose rows differ in length (mixedLengths) or hold a
// training plan (plans).
func specsFor(mixedLengths, plans bool) []table.Spec {
	s := specs()
	s[ColSource].Hidden, s[ColDuration].Keep = columnRules(mixedLengths, plans)
	return s
}

// columnRules are the columns that follow the rows: a table of Capacity Blocks alone has
// no source column (the form says the source). The length is core whatever the rows hold,
// so rows that differ only in length never look like one block at several prices.
func columnRules(mixedLengths, plans bool) (sourceHidden bool, lengthKeep int) {
	return !plans, columns[ColDuration].keep
}

// columnsFollowRows applies columnRules to the rows held, and then the rule of the rows'
// values. Of several rows, a column of what was asked (region, zone, type, count, length)
// whose cell is the same on every row tells none apart: it is dropped first at narrow
// widths (the form says it, and the detail). The region, the type and the length, when
// they differ, are core, kept at every width so that rows never differ on screen only by
// their fee; the zone and the count, when they differ, keep their place.
func (m *Model) columnsFollowRows() {
	hidden, keep := columnRules(m.mixed, m.plans > 0)
	m.t.SetHidden(int(ColSource), hidden)
	m.t.SetKeep(int(ColDuration), keep)
	for _, c := range []Column{ColRegion, ColAZ, ColType, ColCount, ColDuration} {
		d := columns[c]
		keep, core := d.keep, d.core
		switch {
		case m.t.Len() < 2:
		case !m.varies[c]:
			keep, core = d.keep-100, false
		case c == ColAZ || c == ColCount:
		default:
			// Above every figure but the fee: without them rows read as one at many prices.
			keep, core = columns[ColFee].keep-1, true
		}
		if c != ColDuration || keep != d.keep {
			m.t.SetKeep(int(c), keep) // the length's keep is columnRules' unless it drops
		}
		m.t.SetCore(int(c), core)
	}
}

// visibleColumns picks the columns that fit width, dropping those of lowest keep first.
func visibleColumns(width int) []Column { return visibleColumnsFor(width, false, false) }

func visibleColumnsFor(width int, mixedLengths, plans bool) []Column {
	cols, _ := table.FitSpecs(specsFor(mixedLengths, plans), width, nil)
	out := make([]Column, len(cols))
	for i, c := range cols {
		out[i] = Column(c)
	}
	return out
}

// schema is how the generic table reads the rows: cells formatted once, exact keys.
type schema struct{}

func (schema) Cell(r *row, c int) string { return r.cell(Column(c)) }

// cell is the row's text in column c.
func (r *row) cell(c Column) string {
	start := uint16(0)
	if c > 0 {
		start = r.cellEnds[c-1]
	}
	return r.cells[start:r.cellEnds[c]]
}
func (schema) Text(r *row) string { return r.text }
func (schema) ID(r *row) string   { return r.o.ID }
func (schema) Tie(a, b *row) int  { return tieBreak(a, b) }

// Group puts the rows without the figure of the column (no on-demand price) after the
// rest in both directions.
func (schema) Group(r *row, c int) int {
	if hasFigure(r, Column(c)) {
		return 0
	}
	return 1
}

func (schema) Compare(a, b *row, c int) int {
	if !hasFigure(a, Column(c)) || !hasFigure(b, Column(c)) {
		return 0 // the group orders them; among themselves, the tie-break
	}
	return cmpColumn(a, b, Column(c))
}

// noPrice fills the pricing cells of an offering without an on-demand price: a dash, never
// a guessed number; the detail and the chart say why.
const noPrice = "—"

// breakEvenBarWidth is the bar of the break-even cell, after "58% ".
const breakEvenBarWidth = 5

// row is one offering with its cells formatted once, when it arrives, so that drawing a
// frame only pads strings, and its exact sort keys taken once (sortkey.go), so that a sort
// allocates nothing per comparison. The comparison with on-demand is not kept: the detail,
// the charts and the export compute it again from the same catalog (pricing.Compare is
// pure), a few microseconds a row, which more than halves the heap a row holds.
type row struct {
	o         model.Offering
	odHourly  model.Money
	breakEven breakEvenKey // absent without an on-demand price
	vsOD      fraction     // the cost against on-demand; absent likewise
	rate      model.Money
	accRate   model.Money
	// cells holds every cell's text, one after another, cell c ending at cellEnds[c]: one
	// string rather than one per cell keeps a row small (the table may hold 10,000).
	cells    string
	cellEnds [numColumns]uint16
	hasOD    bool   // here, beside the offsets, it takes no padding of its own
	text     string // lower-case words of the cells (no bars), for the filter
}

const timeLayout = "Jan 02 15:04"

func newRow(o model.Offering, cat *pricing.Catalog) row {
	c := pricing.Compare(cat, o)
	r := row{o: o, odHourly: c.InstanceOnDemandHourly(o), hasOD: !c.NoOnDemand,
		breakEven: newBreakEvenKey(c), vsOD: negatedFraction(c.SavingsPercent),
		rate: o.InstanceHourlyRate(), accRate: o.AcceleratorHourlyRate()}
	cells := [numColumns]string{
		ColRegion:   o.Region,
		ColSource:   o.Source.Short(),
		ColAZ:       o.ZoneCell(),
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
		cells[ColFee] = o.Fee.String() + " " + o.Currency
	}
	cells[ColOnDemand], cells[ColVsOnDemand], cells[ColBreakEven] = pricingCells(o, c)
	var b strings.Builder
	for i, s := range cells {
		// No cell is near this long; one from a malformed answer is cut rather than
		// overflowing the offsets.
		b.WriteString(s[:min(len(s), math.MaxUint16-b.Len())])
		r.cellEnds[i] = uint16(b.Len())
	}
	r.cells = b.String()
	// The filter's terms are words: a bar's characters only make the text longer.
	r.text = strings.ToLower(a11y.Words(strings.Join(cells[:], " ")) + " " + o.ID + " " + o.Zones())
	return r
}

// pricingCells writes the on-demand rate, the cost against on-demand ("-44%": 44% less
// than the same hours on-demand) and the break-even utilization with its bar ("58% ███░░"),
// or "never" for a block that cannot cost less than on-demand.
func pricingCells(o model.Offering, c pricing.Comparison) (od, vs, be string) {
	if c.NoOnDemand {
		return noPrice, noPrice, noPrice
	}
	od = c.InstanceOnDemandHourly(o).Rate() // per instance-hour, as the rate beside it
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
	if !c.CanWin {
		return od, vs, c.BreakEvenCell() // "never", as the detail, the dialog and the commands say
	}
	be = c.BreakEvenPercentText() + " " + pricing.BreakEvenBar(c, breakEvenBarWidth)
	return od, vs, be
}

// FormatLength writes a block's length as the model does (Offering.Length).
func FormatLength(o model.Offering) string { return o.Length() }
