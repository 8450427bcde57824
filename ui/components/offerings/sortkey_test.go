package offerings

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/theme"
)

// fraction.cmp agrees with big.Rat on random pairs, on pairs a float cannot tell apart and
// on figures too large for int64.
func TestFractionCmpIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rat := func(n, d int64) *big.Rat { return big.NewRat(n, d) }
	var pairs [][2]*big.Rat
	for range 2000 {
		pairs = append(pairs, [2]*big.Rat{
			rat(rng.Int64N(1<<62)-1<<61, 1+rng.Int64N(1<<62)),
			rat(rng.Int64N(1<<62)-1<<61, 1+rng.Int64N(1<<62)),
		})
	}
	// n/d against (n·k+1)/(d·k): mostly the same float, a different fraction.
	ties := 0
	for range 200 {
		n, d, k := 1<<19+rng.Int64N(1<<19), 1+rng.Int64N(1<<20), int64(1)<<42
		a, b := rat(n, d), rat(n*k+1, d*k)
		fa, _ := a.Float64()
		if fb, _ := b.Float64(); fa == fb {
			ties++
		}
		pairs = append(pairs, [2]*big.Rat{a, b}, [2]*big.Rat{b, a}, [2]*big.Rat{new(big.Rat).Neg(a), new(big.Rat).Neg(b)})
	}
	if ties < 150 {
		t.Fatalf("only %d of 200 close pairs are one float: the case tests little", ties)
	}
	huge, _ := new(big.Rat).SetString("123456789012345678901234567890/7")
	pairs = append(pairs, [2]*big.Rat{huge, rat(math.MaxInt64, 1)}, [2]*big.Rat{rat(-3, 7), huge}, [2]*big.Rat{rat(0, 1), rat(-1, math.MaxInt64)})
	for _, p := range pairs {
		a, b := fractionOfRat(new(big.Rat).Set(p[0])), fractionOfRat(new(big.Rat).Set(p[1]))
		if got, want := a.cmp(b), p[0].Cmp(p[1]); got != want {
			t.Errorf("%s against %s: %d, want %d", p[0].RatString(), p[1].RatString(), got, want)
		}
		if a.f > b.f && p[0].Cmp(p[1]) < 0 || a.f < b.f && p[0].Cmp(p[1]) > 0 {
			t.Errorf("the floats of %s and %s are in the wrong order", p[0].RatString(), p[1].RatString())
		}
	}
}

// refCompare is the table's order as it is defined, written apart from the table's own code
// from what pricing.Compare says of each offering (big.Rat for the fractions): rows without
// an on-demand figure last in both directions, blocks that never beat on-demand after those
// that can, then start, fee and id.
func refCompare(cmps map[string]pricing.Comparison, c Column, desc bool) func(a, b model.Offering) int {
	return func(a, b model.Offering) int {
		ca, cb := cmps[a.ID], cmps[b.ID]
		has := func(x pricing.Comparison) bool {
			switch c {
			case ColOnDemand:
				return !x.NoOnDemand
			case ColVsOnDemand:
				return x.SavingsPercent.Valid()
			case ColBreakEven:
				return x.BreakEvenUtilization.Valid()
			}
			return true
		}
		if has(ca) != has(cb) {
			if has(ca) {
				return -1
			}
			return 1
		}
		r := 0
		if has(ca) {
			switch c {
			case ColRegion:
				r = strings.Compare(a.Region, b.Region)
			case ColAZ:
				r = strings.Compare(a.AvailabilityZone, b.AvailabilityZone)
			case ColType:
				r = strings.Compare(a.InstanceType, b.InstanceType)
			case ColCount:
				r = a.Count - b.Count
			case ColStart:
				r = a.Start.Compare(b.Start)
			case ColEnd:
				r = a.End.Compare(b.End)
			case ColDuration:
				r = int(a.Minutes() - b.Minutes())
			case ColFee:
				r = a.Fee.Cmp(b.Fee)
			case ColRate:
				r = a.InstanceHourlyRate().Cmp(b.InstanceHourlyRate())
			case ColAccRate:
				r = a.AcceleratorHourlyRate().Cmp(b.AcceleratorHourlyRate())
			case ColOnDemand:
				r = ca.InstanceOnDemandHourly(a).Cmp(cb.InstanceOnDemandHourly(b))
			case ColVsOnDemand:
				r = cb.SavingsPercent.Rat().Cmp(ca.SavingsPercent.Rat()) // more saved: cheaper
			case ColBreakEven:
				switch {
				case ca.CanWin != cb.CanWin && ca.CanWin:
					r = -1
				case ca.CanWin != cb.CanWin:
					r = 1
				default:
					r = ca.BreakEvenUtilization.Rat().Cmp(cb.BreakEvenUtilization.Rat())
				}
			}
		}
		if desc {
			r = -r
		}
		if r != 0 {
			return r
		}
		if r := a.Start.Compare(b.Start); r != 0 {
			return r
		}
		if r := a.Fee.Cmp(b.Fee); r != 0 {
			return r
		}
		return strings.Compare(a.ID, b.ID)
	}
}

// randomOfferings mixes types and regions (some without an on-demand price), few starts and
// fees (many ties), lengths off the day, and pairs whose break-evens a float cannot tell
// apart.
func randomOfferings(rng *rand.Rand, n int) []model.Offering {
	cat := model.Catalog()
	out := make([]model.Offering, 0, n+4)
	for i := range n {
		t := cat[rng.IntN(len(cat))]
		r := t.Regions[rng.IntN(len(t.Regions))]
		start := time.Date(2026, 12, 2+rng.IntN(5), 11, 30, 0, 0, time.UTC)
		minutes := (1 + rng.IntN(14)) * 24 * 60
		if rng.IntN(4) == 0 {
			minutes -= rng.IntN(600) // a near-term block that starts off the boundary
		}
		count := 1 + rng.IntN(8)
		fee := model.MoneyFromMicros(int64(1+rng.IntN(40)) * 250_000_000 * int64(count) * int64(minutes/(24*60)+1))
		out = append(out, model.Offering{
			ID: fmt.Sprintf("cbr-%04d", i), Region: r, AvailabilityZone: r + string(rune('a'+rng.IntN(3))),
			InstanceType: t.Name, Count: count, Start: start, End: start.Add(time.Duration(minutes) * time.Minute),
			DurationHours: minutes / 60, DurationMinutes: minutes % 60, Fee: fee, Currency: "USD",
		})
	}
	return append(out, closeBreakEvens()...)
}

// closeBreakEvens are pairs of 64-instance blocks of about 26 weeks, of lengths m1 and m2
// minutes and fees f1 and f2 with f1·u2 − f2·u1 = ±1 (u = m − 30, the usable minutes): their break-evens differ by about
// 10⁻¹⁹ of themselves, below a float's resolution. In one pair the exact order is the order
// of the tie-breaks (start, then fee), in the other its reverse, so that in either direction
// one pair is ordered by the exact value alone.
func closeBreakEvens() []model.Offering {
	start := time.Date(2026, 12, 9, 11, 30, 0, 0, time.UTC)
	mk := func(id string, fee, minutes int64) model.Offering {
		return model.Offering{ID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
			Count: 64, Start: start, End: start.Add(time.Duration(minutes) * time.Minute),
			DurationHours: int(minutes / 60), DurationMinutes: int(minutes % 60), Fee: model.MoneyFromMicros(fee), Currency: "USD"}
	}
	// pair solves f1·m2 − f2·m1 = d for f1 near $7.7M (half the block's hours on-demand).
	// The break-even is over the usable minutes (the last 30 are not), so the equation is
	// in those: f1·u2 − f2·u1 = d with u = m − 30.
	pair := func(id string, m1, m2, d int64) []model.Offering {
		u1, u2 := m1-30, m2-30
		inv := new(big.Int).ModInverse(big.NewInt(u2), big.NewInt(u1)).Int64() // u2⁻¹ mod u1
		f1 := (inv*d%u1+u1)%u1 + (7_700_000_000_000/u1)*u1
		f2 := (f1*u2 - d) / u1
		return []model.Offering{mk(id+"-1", f1, m1), mk(id+"-2", f2, m2)}
	}
	// The longer block has the larger fee: +1 makes its break-even the higher, −1 the lower.
	return append(pair("close-a", 262079, 262073, 1), pair("close-b", 262081, 262075, -1)...)
}

// neverBeforeCan are a 1-day block at 99% of its hours on-demand, which cannot win (its
// instances stop 30 minutes before the end), and a 14-day block at 99.5%, which can: by
// utilization alone the first would come first.
func neverBeforeCan(t testing.TB) []model.Offering {
	od, ok := pricing.Embedded().OnDemand("p5.48xlarge", "us-east-1")
	if !ok || !od.HasPrice() {
		t.Fatal("no on-demand price for p5.48xlarge in us-east-1 in the embedded catalog")
	}
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	mk := func(id string, days int, perMille int64) model.Offering {
		fee := od.Hourly.MulRat(int64(days)*24*perMille, 1000)
		return model.Offering{ID: id, Region: "us-east-1", AvailabilityZone: "us-east-1b", InstanceType: "p5.48xlarge",
			Count: 1, Start: start, End: start.AddDate(0, 0, days), DurationHours: days * 24, Fee: fee, Currency: "USD"}
	}
	return []model.Offering{mk("never-1d", 1, 990), mk("can-14d", 14, 995)}
}

// Every column in both directions orders the table as the definition does, whether the
// rows were sorted at once or inserted page by page, and whatever a float would say.
func TestSortMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	offs := append(randomOfferings(rng, 300), neverBeforeCan(t)...)

	probe := New(theme.New(false))
	probe.Add(closeBreakEvens())
	var rows []*row
	for r := range probe.t.All() {
		rows = append(rows, r)
	}
	for i := 0; i < len(rows); i += 2 {
		a, b := rows[i], rows[i+1]
		if a.breakEven.u.f != b.breakEven.u.f || a.breakEven.u.cmp(b.breakEven.u) == 0 || a.vsOD.f != b.vsOD.f {
			t.Fatalf("%s and %s are not a float tie of two different break-evens: %v %v", a.o.ID, b.o.ID, a.breakEven.u, b.breakEven.u)
		}
	}

	cmps := make(map[string]pricing.Comparison, len(offs))
	for _, o := range offs {
		cmps[o.ID] = pricing.Compare(pricing.Embedded(), o)
	}
	m := New(theme.New(false))
	m.Add(offs)
	for c := range numColumns {
		for _, desc := range []bool{false, true} {
			name := fmt.Sprintf("%s desc=%v", ColumnName(c), desc)
			want := slices.Clone(offs)
			slices.SortFunc(want, refCompare(cmps, c, desc))

			m.t.SetSort(int(c), desc)
			if got := viewIDs(m); !slices.Equal(got, offIDs(want)) {
				t.Errorf("%s, sorted: first difference at %s", name, firstDiff(got, offIDs(want)))
			}

			// Page by page into a table already sorted so.
			p := New(theme.New(false))
			p.t.SetSort(int(c), desc)
			shuffled := slices.Clone(offs)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			for i := 0; i < len(shuffled); i += 6 {
				p.Add(shuffled[i:min(i+6, len(shuffled))])
			}
			if got := viewIDs(p); !slices.Equal(got, offIDs(want)) {
				t.Errorf("%s, inserted: first difference at %s", name, firstDiff(got, offIDs(want)))
			}
		}
	}
}

// Sorting by break-even puts every block that can beat on-demand before every one that
// never can, and those without an on-demand price last, in both directions; the never
// rows come first when reversed.
func TestBreakEvenGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := New(theme.New(false))
	m.Add(append(randomOfferings(rng, 400), neverBeforeCan(t)...))
	m = press(m, "B")
	group := func(c pricing.Comparison) int {
		switch {
		case !c.BreakEvenUtilization.Valid():
			return 2
		case !c.CanWin:
			return 1
		}
		return 0
	}
	for _, desc := range []bool{false, true} {
		seen := map[int]bool{}
		last := -1
		for i := range m.Visible() {
			g := group(m.RowComparison(i))
			seen[g] = true
			want := g
			if desc && g < 2 {
				want = 1 - g // reversed: never, then can
			}
			if want < last {
				t.Fatalf("desc=%v: row %d (%s) is in group %d after group %d", desc, i, m.Row(i).ID, g, last)
			}
			last = want
		}
		if len(seen) != 3 {
			t.Fatalf("the offerings do not cover the three groups: %v", seen)
		}
		m = press(m, "B")
	}
}

func viewIDs(m Model) []string {
	out := make([]string, m.Visible())
	for i := range out {
		out[i] = m.Row(i).ID
	}
	return out
}

func offIDs(offs []model.Offering) []string {
	out := make([]string, len(offs))
	for i, o := range offs {
		out[i] = o.ID
	}
	return out
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%d: %s, want %s", i, a[i], b[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}
