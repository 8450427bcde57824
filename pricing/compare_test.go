package pricing

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func offering(typ, region string, count, hours, minutes int, fee string) model.Offering {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	return model.Offering{ID: "cbr-0123456789abcdef0", Region: region, AvailabilityZone: region + "a",
		InstanceType: typ, Count: count, Start: start,
		End:           start.Add(time.Duration(hours)*time.Hour + time.Duration(minutes)*time.Minute),
		DurationHours: hours, DurationMinutes: minutes, Fee: model.MustMoney(fee), Currency: "USD"}
}

func odRow(typ, region, rate string) Row {
	return Row{Kind: KindOnDemand, InstanceType: typ, Region: region, Status: StatusPrice,
		Hourly: model.MustMoney(rate), Source: "test", Date: "2026-11-01"}
}

func TestCompareReadingExample(t *testing.T) {
	c := Compare(nil, offering("p5.48xlarge", "us-east-1", 1, 48, 0, "1510.00"))
	if c.NoOnDemand {
		t.Fatalf("no on-demand: %s", c.NoOnDemandReason)
	}
	if c.OnDemandHourly != model.MustMoney("55.04") || c.Source != "Data Receipts GPU pricing dataset" || c.AsOf != "2026-11-09" {
		t.Errorf("on-demand = %v from %q on %q", c.OnDemandHourly, c.Source, c.AsOf)
	}
	want := "cheaper than on-demand if you use at least 58% of the 47.5 usable hours (27.5 hours)"
	if got := c.Reading(); got != want {
		t.Errorf("Reading = %q, want %q", got, want)
	}
	if c.OnDemandBlockCost != model.MustMoney("2641.92") || c.OnDemandUsableCost != model.MustMoney("2614.40") {
		t.Errorf("on-demand costs = %v, %v", c.OnDemandBlockCost, c.OnDemandUsableCost)
	}
	// the fee over the usable hours on-demand: 1510 ÷ 2614.40
	if c.BreakEvenUtilization.Rat().Cmp(big.NewRat(151000, 261440)) != 0 {
		t.Errorf("break-even = %s", c.BreakEvenUtilization)
	}
	if c.EffectiveHourly != model.MustMoney("31.458333") || c.AcceleratorHourly != model.MustMoney("3.932292") {
		t.Errorf("effective = %v, per accelerator = %v", c.EffectiveHourly, c.AcceleratorHourly)
	}
	if c.UsableHourly != model.MustMoney("31.789474") || c.UsableMinutes != 47*60+30 {
		t.Errorf("usable = %v over %d minutes", c.UsableHourly, c.UsableMinutes)
	}
	if got := c.SavingsPercent.Ceil(1); got != 43 { // 42.24…%
		t.Errorf("savings = %s%%", c.SavingsPercent)
	}
	if f, ok := c.BreakEvenFloat(); !ok || f < 0.5775 || f > 0.5776 {
		t.Errorf("BreakEvenFloat = %v, %v", f, ok)
	}
	if !c.HasPublished || c.Published.Hourly != model.MustMoney("41.528") {
		t.Errorf("published = %+v", c.Published)
	}
}

func TestCompareWithoutOnDemand(t *testing.T) {
	for _, tc := range []struct {
		o    model.Offering
		want string
	}{
		{offering("p6-b200.48xlarge", "eu-north-1", 2, 24, 0, "5455.97"), "no on-demand price to compare with: p6-b200.48xlarge sold only as Capacity Blocks (gpueconomics.com, 2025)"},
		{offering("trn2.48xlarge", "us-west-2", 1, 24, 0, "858.26"), "no on-demand price known for trn2.48xlarge in us-west-2"},
		{offering("p5.48xlarge", "mars-1", 1, 24, 0, "858.26"), "no on-demand price known for p5.48xlarge in mars-1"},
	} {
		c := Compare(Embedded(), tc.o)
		if !c.NoOnDemand || !strings.Contains(c.Reading(), tc.want) {
			t.Errorf("%s: NoOnDemand=%v reading %q, want %q", tc.o.InstanceType, c.NoOnDemand, c.Reading(), tc.want)
		}
		if c.BreakEvenUtilization.Valid() || c.BreakEvenHours.Valid() || !c.OnDemandHourly.IsZero() || !c.OnDemandCostAt(600).IsZero() {
			t.Errorf("%s: a comparison appeared without an on-demand price: %+v", tc.o.InstanceType, c)
		}
		if c.Fee != tc.o.Fee || c.EffectiveHourly.IsZero() {
			t.Errorf("%s: fee %v effective %v", tc.o.InstanceType, c.Fee, c.EffectiveHourly)
		}
	}
}

func TestCompareEdges(t *testing.T) {
	cat := NewCatalog(odRow("p5.48xlarge", "us-east-1", "50"), odRow("u-p6e-gb200x72", "us-east-1", "1000"))
	// dearer than on-demand even at full use
	c := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1440"))
	if c.CanWin || c.Reading() != "never cheaper than on-demand: it costs 23% more than its 23.5 usable hours on-demand (instances stop 30 minutes before the end)" {
		t.Errorf("dear block: CanWin=%v %q", c.CanWin, c.Reading())
	}
	// 8.24% dearer reads as 8%, as the table's "vs on-demand" column shows it, not 9%
	c = Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1271.82"))
	if !strings.Contains(c.Reading(), "costs 8% more") {
		t.Errorf("8.24%% dearer: %q", c.Reading())
	}
	// 0.2% dearer: rounding to whole percent would say "costs 0% more"
	c = Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1177.35"))
	if c.CanWin || !strings.Contains(c.Reading(), "costs less than 1% more than its 23.5 usable hours on-demand") {
		t.Errorf("0.2%% dearer: CanWin=%v %q", c.CanWin, c.Reading())
	}
	// a break-even inside the last 30 minutes is no break-even: above 100% of the usable hours
	c = Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1190"))
	if c.CanWin || c.BreakEvenPercent() <= 100 || !strings.Contains(c.Reading(), "never cheaper") {
		t.Errorf("late break-even: CanWin=%v %d%% %q", c.CanWin, c.BreakEvenPercent(), c.Reading())
	}
	// exactly at the usable end still wins
	c = Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1175"))
	if !c.CanWin || c.Reading() != "cheaper than on-demand if you use at least 100% of the 23.5 usable hours (23.5 hours)" {
		t.Errorf("edge break-even: CanWin=%v %q", c.CanWin, c.Reading())
	}
	// a near-term block with minutes
	c = Compare(cat, offering("p5.48xlarge", "us-east-1", 2, 40, 30, "2025"))
	if c.Reading() != "cheaper than on-demand if you use at least 51% of the 40 usable hours (20.3 hours)" {
		t.Errorf("minutes: %q", c.Reading())
	}
	// UltraServers are priced per UltraServer-hour
	u := offering("u-p6e-gb200x72", "us-east-1", 18, 24, 0, "12000")
	u.UltraServerType, u.UltraServerCount = "u-p6e-gb200x72", 1
	c = Compare(cat, u)
	if c.Unit != "UltraServer" || c.Units != 1 || c.EffectiveHourly != model.MustMoney("500") || c.BreakEvenPercent() != 52 {
		t.Errorf("UltraServer: %s×%d effective %v break-even %d%%", c.Unit, c.Units, c.EffectiveHourly, c.BreakEvenPercent())
	}
	// nonsense never panics and compares with nothing
	for _, o := range []model.Offering{
		offering("p5.48xlarge", "us-east-1", 0, 24, 0, "100"),
		offering("p5.48xlarge", "us-east-1", 1, 0, 0, "100"),
		{},
	} {
		c := Compare(cat, o)
		if c.BreakEvenUtilization.Valid() || c.CanWin || c.Reading() == "" {
			t.Errorf("degenerate %+v gave %+v", o, c)
		}
	}
	// a free block wins from the start
	if c := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "0")); c.Reading() != "cheaper than on-demand from the first hour" {
		t.Errorf("free: %q", c.Reading())
	}
}

// Generated cases: the break-even point is exactly where the two cost lines cross, and
// every total is exact.
func TestCompareProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 29))
	types := []string{"p4d.24xlarge", "p5.48xlarge", "p5.4xlarge", "trn1.32xlarge", "u-p6e-gb200x36"}
	for i := 0; i < 20000; i++ {
		typ := types[rng.IntN(len(types))]
		count := 1 + rng.IntN(64)
		hours := 24 * model.ValidDurationDays()[rng.IntN(len(model.ValidDurationDays()))]
		minutes := 0
		if rng.IntN(4) == 0 { // near-term: odd length
			hours, minutes = 1+rng.IntN(400), rng.IntN(60)
		}
		rate := model.MoneyFromMicros(1 + rng.Int64N(900_000_000))
		fee := model.MoneyFromCents(rng.Int64N(2_000_000_000))
		o := offering(typ, "us-east-1", count, hours, minutes, "0")
		o.Fee = fee
		if typ == "u-p6e-gb200x36" {
			o.UltraServerCount = 1 + rng.IntN(3)
		}
		cat := NewCatalog(Row{Kind: KindOnDemand, InstanceType: typ, Region: "us-east-1", Status: StatusPrice, Hourly: rate, Source: "gen", Date: "2026-11-01"})
		c := Compare(cat, o)
		if c.Fee != fee {
			t.Fatalf("case %d: fee %v, want %v", i, c.Fee, fee)
		}
		units := big.NewRat(c.Units, 1)
		rateR := new(big.Rat).SetFrac64(rate.Micros(), 1)
		feeR := new(big.Rat).SetFrac64(fee.Micros(), 1)
		odAt := func(m *big.Rat) *big.Rat { // exact on-demand micros for m hours
			v := new(big.Rat).Mul(rateR, units)
			return v.Mul(v, m)
		}
		// the lines cross at the break-even hours, exactly
		h := c.BreakEvenHours.Rat()
		if odAt(h).Cmp(feeR) != 0 {
			t.Fatalf("case %d: on-demand at break-even %s h = %s, fee %s", i, h.RatString(), odAt(h).RatString(), feeR.RatString())
		}
		// and on either side of it the cheaper line is the right one, minute by minute
		for _, m := range []int64{0, 1, c.UsableMinutes, c.BlockMinutes, rng.Int64N(c.BlockMinutes + 1)} {
			at := big.NewRat(m, 60)
			if got, want := odAt(at).Cmp(feeR), at.Cmp(h); got != want {
				t.Fatalf("case %d: at %d min on-demand vs fee %d, hours vs break-even %d", i, m, got, want)
			}
		}
		if c.UsableMinutes == 0 {
			if c.BreakEvenUtilization.Valid() || c.CanWin {
				t.Fatalf("case %d: a block without usable minutes has a break-even", i)
			}
			continue
		}
		// utilization × usable hours = break-even hours
		uh := new(big.Rat).Mul(c.BreakEvenUtilization.Rat(), big.NewRat(c.UsableMinutes, 60))
		if uh.Cmp(h) != 0 {
			t.Fatalf("case %d: u×hours %s ≠ %s", i, uh.RatString(), h.RatString())
		}
		// savings = 100 × (on-demand of the usable hours − fee) ÷ that, exactly
		usable := odAt(big.NewRat(c.UsableMinutes, 60))
		s := new(big.Rat).Quo(new(big.Rat).Sub(usable, feeR), usable)
		full := odAt(big.NewRat(c.BlockMinutes, 60))
		if s.Mul(s, big.NewRat(100, 1)).Cmp(c.SavingsPercent.Rat()) != 0 {
			t.Fatalf("case %d: savings %s", i, c.SavingsPercent)
		}
		// on-demand totals are exact to the micro-dollar, so to the cent
		if d := new(big.Rat).Sub(full, new(big.Rat).SetInt64(c.OnDemandBlockCost.Micros())); d.Abs(d).Cmp(big.NewRat(1, 2)) > 0 {
			t.Fatalf("case %d: on-demand block cost %v off by %s micro-dollars", i, c.OnDemandBlockCost, d.RatString())
		}
		// CanWin ⇔ break-even within the usable minutes
		if c.CanWin != (h.Cmp(big.NewRat(c.UsableMinutes, 60)) <= 0) {
			t.Fatalf("case %d: CanWin %v with break-even %s h and %d usable minutes", i, c.CanWin, h.RatString(), c.UsableMinutes)
		}
		// the rounded-up percent is the smallest whole percent at or above the exact one
		p := c.BreakEvenPercent()
		u100 := new(big.Rat).Mul(c.BreakEvenUtilization.Rat(), big.NewRat(100, 1))
		if big.NewRat(p, 1).Cmp(u100) < 0 || big.NewRat(p-1, 1).Cmp(u100) >= 0 {
			t.Fatalf("case %d: percent %d for %s", i, p, u100.FloatString(4))
		}
		// the effective rate, multiplied back, lands within rounding of the fee
		back := new(big.Rat).Mul(new(big.Rat).SetInt64(c.EffectiveHourly.Micros()), new(big.Rat).Mul(units, big.NewRat(c.BlockMinutes, 60)))
		slack := new(big.Rat).Mul(units, big.NewRat(c.BlockMinutes, 120))
		if d := new(big.Rat).Sub(back, feeR); d.Abs(d).Cmp(slack) > 0 {
			t.Fatalf("case %d: effective %v × %s×%d min is %s from the fee", i, c.EffectiveHourly, c.Unit, c.Units, d.FloatString(2))
		}
		if r := c.Reading(); r == "" || strings.Contains(r, "%!") {
			t.Fatalf("case %d: reading %q", i, r)
		}
	}
}

func TestRatioRound(t *testing.T) {
	cases := []struct {
		num, den, want int64
	}{{824, 100, 8}, {850, 100, 9}, {-850, 100, -9}, {-824, 100, -8}, {849, 100, 8}, {0, 1, 0}}
	for _, c := range cases {
		if got := (Ratio{big.NewRat(c.num, c.den)}).Round(1); got != c.want {
			t.Errorf("Round(%d/%d) = %d, want %d", c.num, c.den, got, c.want)
		}
	}
	if (Ratio{}).Round(1) != 0 {
		t.Error("an absent ratio rounds to 0")
	}
}

// A short block whose fee is below its whole length on-demand but above its usable hours
// (instances stop 30 minutes before the end) can never win, and every reading says so:
// the percent is above 100, the bar ends in "!", the reading says never, the export's
// utilization is above 1, and it sorts after any block that can win.
func TestShortBlockBreakEvenIsOneDefinition(t *testing.T) {
	cat := NewCatalog(odRow("p5.48xlarge", "us-east-1", "50"))
	// 4h15m at 89% of the whole block's on-demand cost (212.50): 189.13
	c := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 4, 15, "189.13"))
	if c.CanWin || c.BreakEvenPercent() <= 100 || !strings.HasSuffix(BreakEvenBar(c, 5), "!") || !strings.HasPrefix(c.Reading(), "never cheaper") {
		t.Errorf("4h15m: CanWin %v, %d%%, bar %q, %q", c.CanWin, c.BreakEvenPercent(), BreakEvenBar(c, 5), c.Reading())
	}
	if f, ok := c.BreakEvenFloat(); !ok || f <= 1 {
		t.Errorf("BreakEvenFloat = %v, %v: want above 1", f, ok)
	}
	winner := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 48, 0, "2370"))
	if !winner.CanWin || winner.BreakEvenUtilization.Cmp(c.BreakEvenUtilization) >= 0 {
		t.Errorf("a block that can win (%s) does not sort before one that cannot (%s)", winner.BreakEvenUtilization, c.BreakEvenUtilization)
	}
	// 30 minutes or less: no usable hour at all
	short := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 0, 30, "1"))
	if short.CanWin || !strings.HasPrefix(short.Reading(), "never cheaper") {
		t.Errorf("30 minutes: %v %q", short.CanWin, short.Reading())
	}
}

// An extension's hours are all usable: the minutes lost at the end move with the end.
func TestCompareExtensionCountsEveryAddedHour(t *testing.T) {
	cat := NewCatalog(odRow("p5.48xlarge", "us-east-1", "50"))
	o := offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1190")
	if b := Compare(cat, o); b.CanWin {
		t.Errorf("as a block of its own it cannot win: %q", b.Reading())
	}
	e := CompareExtension(cat, o)
	if !e.CanWin || e.UsableMinutes != 24*60 || e.BreakEvenPercent() != 100 ||
		e.Reading() != "cheaper than on-demand if you use at least 100% of the 24 hours (23.8 hours)" {
		t.Errorf("extension: CanWin %v, %d usable minutes, %d%%, %q", e.CanWin, e.UsableMinutes, e.BreakEvenPercent(), e.Reading())
	}
}

// One offering, one rounding: the table's cell, the chart's marker and the reading the
// detail shows all write the break-even by BreakEvenPercentText and BreakEvenHoursText
// (rounded up: 80.203% is 81%, 32.001 hours 32.1), whatever the length.
func TestBreakEvenOneRoundingEverywhere(t *testing.T) {
	cat := NewCatalog(odRow("p5.48xlarge", "us-east-1", "55.04"))
	for _, o := range []model.Offering{
		offering("p5.48xlarge", "us-east-1", 1, 40, 24, "1761.36"), // 39.9 usable hours, 0.80203
		offering("p5.48xlarge", "us-east-1", 1, 48, 0, "1510.00"),
		offering("p5.48xlarge", "us-east-1", 2, 40, 30, "2025"),
	} {
		c := Compare(cat, o)
		pct, hours := c.BreakEvenPercentText(), c.BreakEvenHoursText()
		if pct == "" || hours == "" || !c.CanWin {
			t.Fatalf("%s: nothing to compare (%q, %q)", o.Length(), pct, hours)
		}
		if !strings.Contains(c.Reading(), "at least "+pct+" of") || !strings.Contains(c.Reading(), "("+hours+" hours)") {
			t.Errorf("%s: the reading %q does not say %s and %s hours", o.Length(), c.Reading(), pct, hours)
		}
		if c.BreakEvenCell() != pct {
			t.Errorf("%s: the table says %q, the reading %s", o.Length(), c.BreakEvenCell(), pct)
		}
		if ch := CostChart(c, 100, 28); !strings.Contains(ch, "break-even "+hours+"h") {
			t.Errorf("%s: the cost chart does not mark break-even %sh:\n%s", o.Length(), hours, ch)
		}
		if ch := UtilizationChart(c, 100, 28); !strings.Contains(ch, "break-even "+pct) {
			t.Errorf("%s: the utilization chart does not mark break-even %s:\n%s", o.Length(), pct, ch)
		}
	}
	c := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 40, 24, "1761.36"))
	if got := c.BreakEvenPercentText() + " " + c.BreakEvenHoursText(); got != "81% 32.1" {
		t.Errorf("0.80203 of 39.9 hours: %q, want 81%% 32.1 (both rounded up)", got)
	}
}
