package offerings

import (
	"cmp"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
)

// fraction is an exact ratio taken once per row from pricing's figure: num/den in lowest
// terms with den > 0, compared in integer arithmetic without allocating, or its big.Rat when
// too large for int64. A float alone would make two nearly equal break-evens equal, or put
// them the wrong way round.
type fraction struct {
	num   int64
	den   int64
	exact *big.Rat // only when num or den does not fit in an int64
	// f is the nearest float64: rounding keeps two values in order or makes them equal,
	// never reverses them, so a sort compares f first and the exact value on a tie.
	f float64
}

// ok reports whether there is a figure (an on-demand price to compare with): a present
// fraction has a positive denominator or its big.Rat, and the zero fraction neither, so no
// flag takes room in each of 10,000 rows.
func (a fraction) ok() bool { return a.den != 0 || a.exact != nil }

func fractionOf(q pricing.Ratio) fraction {
	if !q.Valid() {
		return fraction{}
	}
	return fractionOfRat(q.Rat())
}

// fractionOfRat takes r, which it may keep.
func fractionOfRat(r *big.Rat) fraction {
	f, _ := r.Float64()
	n, d := r.Num(), r.Denom() // big.Rat keeps lowest terms and a positive denominator
	if n.IsInt64() && d.IsInt64() && n.Int64() != math.MinInt64 {
		return fraction{num: n.Int64(), den: d.Int64(), f: f}
	}
	return fraction{exact: r, f: f}
}

// negatedFraction is -q: the cost against on-demand is the savings turned round.
func negatedFraction(q pricing.Ratio) fraction {
	if !q.Valid() {
		return fraction{}
	}
	r := q.Rat()
	return fractionOfRat(r.Neg(r))
}

// cmp orders two present fractions exactly: -1, 0 or +1.
func (a fraction) cmp(b fraction) int {
	if a.exact != nil || b.exact != nil {
		return a.rat().Cmp(b.rat())
	}
	sa, sb := sign(a.num), sign(b.num)
	if sa != sb || sa == 0 {
		return cmp.Compare(sa, sb)
	}
	// |a.num|·b.den against |b.num|·a.den in 128 bits: both products fit, none overflows.
	ahi, alo := bits.Mul64(abs(a.num), uint64(b.den))
	bhi, blo := bits.Mul64(abs(b.num), uint64(a.den))
	r := cmp.Compare(ahi, bhi)
	if r == 0 {
		r = cmp.Compare(alo, blo)
	}
	return r * sa
}

func (a fraction) rat() *big.Rat {
	if a.exact != nil {
		return a.exact
	}
	return big.NewRat(a.num, a.den)
}

func sign(n int64) int { return cmp.Compare(n, 0) }

// abs is |n| for n > MinInt64, which fractionOfRat keeps out.
func abs(n int64) uint64 {
	if n < 0 {
		return uint64(-n)
	}
	return uint64(n)
}

// breakEvenKey is the row's break-even: its exact utilization, and whether the block can
// beat on-demand at all within the hours it can run. Both are pricing's, so the order
// follows what break-even means there.
type breakEvenKey struct {
	never bool
	u     fraction
}

func newBreakEvenKey(c pricing.Comparison) breakEvenKey {
	u := fractionOf(c.BreakEvenUtilization)
	return breakEvenKey{never: u.ok() && !c.CanWin, u: u}
}

func (a breakEvenKey) cmp(b breakEvenKey) int {
	if a.never != b.never {
		if a.never {
			return 1
		}
		return -1
	}
	return a.u.cmp(b.u)
}

// The table's order by column c (table.Model's): rows without a figure to sort by after the
// rest in both directions (Group), then the column (reversed when descending), then start,
// fee and id (tieBreak), so that equal keys keep one order whatever the order of arrival.
// Inserting a page compares rows; a sort of the whole table uses SortKeys, its image.

func tieBreak(a, b *row) int {
	if r := cmp.Compare(timeKey(a.o.Start), timeKey(b.o.Start)); r != 0 {
		return r
	}
	if r := a.o.Fee.Cmp(b.o.Fee); r != 0 {
		return r
	}
	return strings.Compare(a.o.ID, b.o.ID)
}

// hasFigure reports whether a row has the figure of a column: the pricing columns lack one
// without an on-demand price.
func hasFigure(r *row, c Column) bool {
	switch c {
	case ColOnDemand:
		return r.hasOD
	case ColVsOnDemand:
		return r.vsOD.ok()
	case ColBreakEven:
		return r.breakEven.u.ok()
	}
	return true
}

func cmpColumn(a, b *row, c Column) int {
	switch c {
	case ColRegion:
		return strings.Compare(a.o.Region, b.o.Region)
	case ColSource:
		return cmp.Compare(a.o.Source, b.o.Source)
	case ColAZ:
		return strings.Compare(a.o.AvailabilityZone, b.o.AvailabilityZone)
	case ColType:
		return strings.Compare(a.o.InstanceType, b.o.InstanceType)
	case ColCount:
		return cmp.Compare(a.o.Count, b.o.Count)
	case ColStart:
		return cmp.Compare(timeKey(a.o.Start), timeKey(b.o.Start))
	case ColEnd:
		return cmp.Compare(timeKey(a.o.End), timeKey(b.o.End))
	case ColDuration:
		return cmp.Compare(a.o.Minutes(), b.o.Minutes())
	case ColFee:
		return a.o.Fee.Cmp(b.o.Fee)
	case ColRate:
		return a.rate.Cmp(b.rate)
	case ColAccRate:
		return a.accRate.Cmp(b.accRate)
	case ColOnDemand:
		return a.odHourly.Cmp(b.odHourly)
	case ColVsOnDemand:
		return a.vsOD.cmp(b.vsOD)
	case ColBreakEven:
		return a.breakEven.cmp(b.breakEven)
	}
	return 0
}

// timeKey is a time in nanoseconds since 1970, which orders as time.Time.Compare from the
// year 1678 to 2262; times outside are held at its ends (equal there, ordered by fee and id).
func timeKey(t time.Time) int64 {
	switch {
	case t.Before(minTimeKey):
		return math.MinInt64
	case t.After(maxTimeKey):
		return math.MaxInt64
	}
	return t.UnixNano()
}

var (
	minTimeKey = time.Unix(0, math.MinInt64)
	maxTimeKey = time.Unix(0, math.MaxInt64)
)

// SortKeys is the image of the order by column c in one integer copied out of each row, so
// that the generic table sorts a small contiguous slice (a radix sort) instead of reaching
// into rows spread over megabytes. It is exact for every column but the fractions, whose
// float keeps their order or ties; a tie of those is sorted by Compare.
func (schema) SortKeys(rows []row, view []int, col int) (table.Keys[row], bool) {
	c := Column(col)
	exact := func(key func(r *row) uint64) (table.Keys[row], bool) {
		return table.Keys[row]{Key: key, Exact: true}, true
	}
	switch c {
	case ColRegion, ColAZ, ColType:
		t := &textKeys{c: c, ids: map[string]uint64{}}
		return table.Keys[row]{Key: t.key, Order: t.order, Exact: true}, true
	case ColSource:
		return exact(func(r *row) uint64 { return ordered(int64(r.o.Source)) })
	case ColCount:
		return exact(func(r *row) uint64 { return ordered(int64(r.o.Count)) })
	case ColStart:
		return exact(func(r *row) uint64 { return ordered(timeKey(r.o.Start)) })
	case ColEnd:
		return exact(func(r *row) uint64 { return ordered(timeKey(r.o.End)) })
	case ColDuration:
		return exact(func(r *row) uint64 { return ordered(r.o.Minutes()) })
	case ColFee:
		return exact(func(r *row) uint64 { return ordered(r.o.Fee.Micros()) })
	case ColRate:
		return exact(func(r *row) uint64 { return ordered(r.rate.Micros()) })
	case ColAccRate:
		return exact(func(r *row) uint64 { return ordered(r.accRate.Micros()) })
	case ColOnDemand:
		return exact(func(r *row) uint64 { return ordered(r.odHourly.Micros()) })
	case ColVsOnDemand:
		// Equal floats may hold different fractions: those runs are ordered exactly.
		return table.Keys[row]{Key: func(r *row) uint64 { return orderedFloat(r.vsOD.f) }}, true
	case ColBreakEven:
		return table.Keys[row]{Key: func(r *row) uint64 {
			// The verdict above the utilization, which gives up its lowest bit for it.
			key := orderedFloat(r.breakEven.u.f) >> 1
			if r.breakEven.never {
				key |= 1 << 63
			}
			return key
		}}, true
	}
	return table.Keys[row]{}, false
}

// textKeys numbers a text column's values in the order the rows are read, and orders the
// distinct ones (a few dozen regions, zones or types) once every row has been read: one
// lookup a row, where ranking them first took a second pass over every row.
type textKeys struct {
	c      Column
	ids    map[string]uint64
	vals   []string // by number
	last   string
	lastID uint64
	ranks  []uint64 // by number: the place of its value in order
}

func (t *textKeys) key(r *row) uint64 {
	s := textOf(r, t.c)
	// Rows arrive a region and a type at a time, and the table reads them in that order.
	if len(t.vals) > 0 && s == t.last {
		return t.lastID
	}
	id, ok := t.ids[s]
	if !ok {
		id = uint64(len(t.vals))
		t.ids[s] = id
		t.vals = append(t.vals, s)
	}
	t.last, t.lastID = s, id
	return id
}

func (t *textKeys) order(id uint64) uint64 {
	if t.ranks == nil {
		byText := make([]int, len(t.vals))
		for i := range byText {
			byText[i] = i
		}
		slices.SortFunc(byText, func(a, b int) int { return strings.Compare(t.vals[a], t.vals[b]) })
		t.ranks = make([]uint64, len(t.vals))
		for place, id := range byText {
			t.ranks[id] = uint64(place)
		}
	}
	return t.ranks[id]
}

func textOf(r *row, c Column) string {
	switch c {
	case ColRegion:
		return r.o.Region
	case ColAZ:
		return r.o.AvailabilityZone
	}
	return r.o.InstanceType
}

// ordered maps int64 onto uint64 keeping the order.
func ordered(n int64) uint64 { return table.OrderedInt(n) }

// orderedFloat maps a float onto uint64 keeping the order (−0 and +0 apart, which only a
// tie decided exactly could meet: pricing's zero is +0).
func orderedFloat(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}
