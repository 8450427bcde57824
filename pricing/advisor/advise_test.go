package advisor

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

var now = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)

func block(region string, count, days int, fee string) Offering {
	start := time.Date(2026, 12, 7, 11, 30, 0, 0, time.UTC)
	return Offering{Found: now, Offering: model.Offering{Source: model.SourceCapacityBlock,
		ID: "cb-" + region + fee, Region: region, AvailabilityZone: region + "a", InstanceType: "p5.48xlarge",
		Count: count, Start: start, End: start.Add(time.Duration(days) * 24 * time.Hour), DurationHours: days * 24,
		Fee: model.MustMoney(fee), Currency: "USD"}}
}

func job(hours int, pct int64) Job {
	return Job{InstanceType: "p5.48xlarge", Instances: 1, Hours: hours, UtilizationPercent: pct,
		WindowStart: now, WindowEnd: now.AddDate(0, 0, 200), Regions: []string{"us-east-1"}}
}

func searched() map[model.Source]bool { return map[model.Source]bool{model.SourceCapacityBlock: true} }

func kinds(a Advice) string {
	var k []string
	for _, o := range a.Options {
		k = append(k, string(o.Kind))
	}
	return strings.Join(k, ",")
}

// A 48-hour job at 100%: a 3-day block (a 2-day block's instances stop at 47.5 hours) for
// $1,920 against 48 h on-demand at $55.04 ($2,641.92). The block wins; the crossing is
// 1920 ÷ 2641.92, exactly.
func TestAdviseBlockWinsAtFullUse(t *testing.T) {
	a, err := Advise(job(48, 100), Inputs{Offerings: []Offering{block("us-east-1", 1, 3, "1920")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if a.Recommended != CapacityBlock || a.Options[0].Kind != CapacityBlock || a.Options[1].Kind != OnDemand {
		t.Fatalf("ranking %s, recommended %q", kinds(a), a.Recommended)
	}
	od, _ := a.Option(OnDemand)
	if od.Total != model.MustMoney("2641.92") {
		t.Errorf("on-demand total %s", od.Total)
	}
	if len(a.Crossings) != 1 || a.Crossings[0].Utilization.String() != big.NewRat(1920_000000, 2641_920000).RatString() {
		t.Fatalf("crossings %+v", a.Crossings)
	}
	cb := a.Options[0]
	if cb.PerUsefulAcceleratorHour != model.MustMoney("5") { // 1920 ÷ (8 × 48)
		t.Errorf("per useful accelerator-hour %s", cb.PerUsefulAcceleratorHour)
	}
	if !strings.Contains(strings.Join(cb.Notes, " "), "a run uses 48 h of its 71 h 30 min of usable time") {
		t.Errorf("notes %q", cb.Notes)
	}
	for _, k := range []Kind{TrainingPlan, SavingsPlan1y, SavingsPlan3y, Spot} {
		if o, _ := a.Option(k); o.Eligible() {
			t.Errorf("%s should be ruled out: %+v", k, o)
		}
	}
	if got := a.Steps[len(a.Steps)-1]; !strings.HasPrefix(got, "Recommended: Capacity Block") {
		t.Errorf("last step %q", got)
	}
	if !strings.Contains(a.Steps[2], "from 72.7% utilization") { // 1920/2641.92 = 0.72674…, rounded up
		t.Errorf("step 3 %q", a.Steps[2])
	}
}

// At 50% the same block costs more than the 24 used hours on-demand.
func TestAdviseOnDemandWinsAtLowUse(t *testing.T) {
	a, err := Advise(job(48, 50), Inputs{Offerings: []Offering{block("us-east-1", 1, 3, "1920")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if a.Recommended != OnDemand || a.Options[1].Kind != CapacityBlock {
		t.Fatalf("ranking %s", kinds(a))
	}
	if od := a.Options[0]; od.Total != model.MustMoney("1320.96") {
		t.Errorf("on-demand %s", od.Total)
	}
	if !strings.Contains(a.Steps[2], "needs 72.7% utilization; at 50% the Capacity Block costs $599.04 more") {
		t.Errorf("step 3 %q", a.Steps[2])
	}
}

// Unknown figures are said to be unknown; a source not searched is not "nothing on offer".
func TestAdviseUnknowns(t *testing.T) {
	j := job(48, 100)
	j.SageMaker = true
	a, err := Advise(j, Inputs{Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	tp, _ := a.Option(TrainingPlan)
	if tp.Unknown != "SageMaker Training Plans: not searched" || tp.Known {
		t.Errorf("training plan %+v", tp)
	}
	cb, _ := a.Option(CapacityBlock)
	if cb.Eligible() {
		t.Error("a SageMaker job cannot use a Capacity Block")
	}
	if a.Recommended != "" {
		t.Errorf("recommended %s with nothing known", a.Recommended)
	}
	// EC2 job, blocks not searched at all
	a, _ = Advise(job(48, 100), Inputs{Now: now})
	cb, _ = a.Option(CapacityBlock)
	if cb.Unknown != "EC2 Capacity Blocks: not searched" {
		t.Errorf("block %+v", cb)
	}
}

// Recurring 200 h a month for 12 months is 27.4% of the year: below the 28% the deepest
// published discount needs, so no Savings Plan can pay. At 100 % of 400 h a month it could,
// and its cost is a range, never a figure.
func TestAdviseSavingsPlans(t *testing.T) {
	j := job(0, 100)
	j.RecurringHoursPerMonth, j.RecurringMonths = 200, 12
	a, err := Advise(j, Inputs{Offerings: []Offering{block("us-east-1", 1, 9, "8000")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	sp, _ := a.Option(SavingsPlan1y)
	if sp.Eligible() || !strings.Contains(sp.RuledOut, "busy 27.4% of the year") {
		t.Errorf("1y %+v", sp)
	}
	cb, _ := a.Option(CapacityBlock)
	if cb.Total != model.MustMoney("96000") || a.Recommended != CapacityBlock {
		t.Errorf("block total %s, recommended %s", cb.Total, a.Recommended)
	}
	j.RecurringHoursPerMonth = 400
	a, _ = Advise(j, Inputs{Now: now})
	sp, _ = a.Option(SavingsPlan1y)
	term := model.MustMoney("55.04").Mul(8760)
	if !sp.Eligible() || sp.Known || !sp.HasRange || sp.High != term || sp.Low != term.MulRat(28, 100) {
		t.Errorf("1y %+v", sp)
	}
	if sp3, _ := a.Option(SavingsPlan3y); sp3.Eligible() {
		t.Error("a 12-month need cannot take a 3-year plan")
	}
}

func TestAdviseSpot(t *testing.T) {
	j := job(100, 100)
	j.Interruptible = true
	a, err := Advise(j, Inputs{Offerings: []Offering{block("us-east-1", 1, 5, "4000")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if a.Recommended != Spot {
		t.Fatalf("ranking %s", kinds(a))
	}
	s := a.Options[0]
	od := model.MustMoney("5504")
	if s.Known || s.High != od || s.Low != od.MulRat(31, 100) {
		t.Errorf("spot %+v", s)
	}
	// no Spot figure in us-west-2: unknown, never borrowed from us-east-1
	j.Regions = []string{"us-west-2"}
	a, _ = Advise(j, Inputs{Now: now})
	s, _ = a.Option(Spot)
	if s.HasRange || !strings.Contains(s.Unknown, "no Spot figure") || a.Recommended == Spot {
		t.Errorf("spot %+v, recommended %s", s, a.Recommended)
	}
}

func TestAdviseClass(t *testing.T) {
	j := job(48, 100)
	j.InstanceType, j.Class, j.Instances, j.Accelerators = "", "any H100-class", 0, 8
	a, err := Advise(j, Inputs{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	od, _ := a.Option(OnDemand)
	// 8 × p5.4xlarge at $6.88 is $55.04 an hour too; the tie keeps the first in catalog order
	if od.Total != model.MustMoney("2641.92") || od.Accelerators != 8 {
		t.Errorf("on-demand %+v", od)
	}
}

func TestJobValidate(t *testing.T) {
	for _, j := range []Job{
		{},
		{InstanceType: "p9.huge", Instances: 1, Hours: 1, UtilizationPercent: 50, WindowStart: now, WindowEnd: now.Add(time.Hour)},
		{InstanceType: "p5.48xlarge", Instances: 65, Hours: 1, UtilizationPercent: 50, WindowStart: now, WindowEnd: now.Add(time.Hour)},
		{InstanceType: "p5.48xlarge", Instances: 1, Hours: 1, UtilizationPercent: 0, WindowStart: now, WindowEnd: now.Add(time.Hour)},
		{InstanceType: "p5.48xlarge", Instances: 1, Hours: 5000, UtilizationPercent: 50, WindowStart: now, WindowEnd: now.Add(time.Hour)},
		{Class: "Z900", Instances: 1, Hours: 1, UtilizationPercent: 50, WindowStart: now, WindowEnd: now.Add(time.Hour)},
	} {
		if _, err := Advise(j, Inputs{}); err == nil {
			t.Errorf("%+v: no error", j)
		}
	}
}

// The properties of the maths, over random fees, rates, sizes and utilizations: totals are
// exact; the block–on-demand crossing is pricing's break-even hours ÷ the job's hours, and the
// two cost the same there; the cheaper side flips at it; the recommendation is the cheapest
// known option.
func TestAdviseProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 48))
	for i := 0; i < 400; i++ {
		count := 1 + rng.IntN(8)
		days := model.ValidDurationDays()[rng.IntN(20)]
		hours := days*24 - 1 - rng.IntN(23) // a run fits the block's usable hours
		rate := model.MoneyFromMicros(int64(5_000_000 + rng.IntN(100_000_000)))
		fee := model.MoneyFromMicros(int64(1+rng.IntN(1_000_000)) * int64(count*days) * 1000)
		pct := int64(1 + rng.IntN(100))
		cat := pricing.NewCatalog(pricing.Row{Kind: pricing.KindOnDemand, InstanceType: "p5.48xlarge", Region: "us-east-1", Status: pricing.StatusPrice, Hourly: rate, Source: "test", Date: "2026-11-01"})
		off := block("us-east-1", count, days, fee.String())
		j := job(hours, pct)
		j.Instances = count
		a, err := Advise(j, Inputs{Catalog: cat, Offerings: []Offering{off}, Searched: searched(), Now: now})
		if err != nil {
			t.Fatal(err)
		}
		od, _ := a.Option(OnDemand)
		cb, _ := a.Option(CapacityBlock)
		name := fmt.Sprintf("case %d: %d × %dd, %d h, fee %s, rate %s, %d%%", i, count, days, hours, fee, rate, pct)
		wantOD := new(big.Rat).SetFrac64(rate.Micros()*int64(count*hours)*pct, 100)
		if got := big.NewRat(od.Total.Micros(), 1); new(big.Rat).Abs(new(big.Rat).Sub(got, wantOD)).Cmp(big.NewRat(1, 2)) > 0 {
			t.Fatalf("%s: on-demand %s, want %s µ$", name, od.Total, wantOD.FloatString(2))
		}
		if cb.Total != fee {
			t.Fatalf("%s: block %s", name, cb.Total)
		}
		be := pricing.Compare(cat, off.Offering).BreakEvenHours.Rat()
		want := new(big.Rat).Quo(be, big.NewRat(int64(hours), 1))
		var cross *Crossing
		for k := range a.Crossings {
			cross = &a.Crossings[k]
		}
		if want.Cmp(big.NewRat(1, 1)) <= 0 {
			if cross == nil || cross.Utilization.Rat().Cmp(want) != 0 {
				t.Fatalf("%s: crossing %+v, want %s", name, cross, want.RatString())
			}
			odAt, _ := od.CostAt(cross.Utilization)
			if d := odAt.Sub(fee).Micros(); d > 1 || d < -1 {
				t.Fatalf("%s: at the crossing on-demand %s, block %s", name, odAt, fee)
			}
		} else if cross != nil {
			t.Fatalf("%s: a crossing above 100%%: %+v", name, cross)
		}
		cheaper := OnDemand
		if fee.Cmp(od.Total) <= 0 {
			cheaper = CapacityBlock
		}
		if a.Recommended != cheaper || a.Options[0].Kind != cheaper {
			t.Fatalf("%s: recommended %s, ranking %s, want %s", name, a.Recommended, kinds(a), cheaper)
		}
		// the side of the crossing says which is cheaper
		if cross != nil {
			u := big.NewRat(pct, 100)
			if c := u.Cmp(cross.Utilization.Rat()); (c > 0 && cheaper != CapacityBlock) || (c < 0 && cheaper != OnDemand) {
				t.Fatalf("%s: %d%% against crossing %s, cheaper %s", name, pct, cross.Utilization, cheaper)
			}
		}
		per := big.NewRat(cb.PerUsefulAcceleratorHour.Micros()*8*int64(count*hours)*pct, 100)
		if d := new(big.Rat).Sub(per, big.NewRat(fee.Micros(), 1)); new(big.Rat).Abs(d).Cmp(big.NewRat(8*int64(count*hours)*pct, 200)) > 0 {
			t.Fatalf("%s: per useful accelerator-hour %s does not give the fee back", name, cb.PerUsefulAcceleratorHour)
		}
	}
}

// A job of H hours needs a block with H usable hours (model.UsableMinutes): the searches
// ask for that length, and a cheaper block that stops 30 minutes short is not recommended.
func TestAJobNeedsItsHoursUsable(t *testing.T) {
	for hours, days := range map[int]int{1: 1, 23: 1, 24: 2, 47: 2, 48: 3, 336: 21, 4367: 182} {
		if got, ok := BlockDays(hours); !ok || got != days {
			t.Errorf("%d hours: a %d-day block (%v), want %d days", hours, got, ok, days)
		}
	}
	if _, ok := BlockDays(4368); ok {
		t.Error("182 days × 24 hours fit the longest block, whose instances stop 30 minutes early")
	}
	if err := job(4368, 100).Validate(); err == nil || !strings.Contains(err.Error(), "allowed 1 to 4367") {
		t.Errorf("4368 hours: %v", err)
	}
	short, long := block("us-east-1", 1, 2, "1000"), block("us-east-1", 1, 3, "1920")
	a, err := Advise(job(48, 100), Inputs{Offerings: []Offering{short, long}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := a.Option(CapacityBlock)
	if cb.Offering == nil || cb.Offering.Offering.ID != long.Offering.ID {
		t.Fatalf("recommended %+v, want the 3-day block: the 2-day one holds 47.5 of the 48 hours", cb.Offering)
	}
	if cb.PerUsefulAcceleratorHour != model.MustMoney("5") { // 1920 ÷ (8 accelerators × 48 useful hours)
		t.Errorf("per useful accelerator-hour %s", cb.PerUsefulAcceleratorHour)
	}
	for _, q := range job(48, 100).Queries() {
		if q.Durations.MinDays != 3 {
			t.Errorf("a 48-hour job searches %v blocks", q.Durations)
		}
	}
}

// Totals past what model.Money counts refuse the advice rather than print it wrong.
func TestAdviseRefusesOverflow(t *testing.T) {
	j := job(0, 100)
	j.RecurringHoursPerMonth, j.RecurringMonths = 200, MaxRecurringMonths+1
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "months 121: allowed 1 to 120") {
		t.Errorf("121 months: %v", err)
	}
	huge := block("us-east-1", 1, 14, "999999999999")
	j = job(200, 100)
	j.RecurringHoursPerMonth, j.Hours, j.RecurringMonths = 200, 0, MaxRecurringMonths
	if _, err := Advise(j, Inputs{Offerings: []Offering{huge}, Searched: searched(), Now: now}); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("a total of 120 × $999,999,999,999: %v", err)
	}
}

// A recurring job runs a block each month: the reservation's step says the fee of one run
// and the total of the runs, each by its name, never the total as one block's fee.
func TestRecurringReservationSaysPerRunAndTotal(t *testing.T) {
	j := job(0, 100)
	j.RecurringHoursPerMonth, j.RecurringMonths = 200, 12
	a, err := Advise(j, Inputs{Offerings: []Offering{block("us-east-1", 1, 9, "8000")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	step := a.Steps[1]
	if !strings.Contains(step, "$8,000.00 upfront per run, $96,000.00 for the 12 runs") || strings.Contains(step, "for $96,000.00 upfront") {
		t.Errorf("step 2 %q", step)
	}
	one, err := Advise(job(48, 100), Inputs{Offerings: []Offering{block("us-east-1", 1, 3, "1920")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if step := one.Steps[1]; !strings.Contains(step, "for $1,920.00 upfront (") || strings.Contains(step, "per run") {
		t.Errorf("one run's step 2 %q", step)
	}
}

// A block's usable time is said exactly, in hours and minutes: 26 h 50 min is not 26.9
// hours; and a one-year term is "1 year".
func TestAdviceWordsAreExact(t *testing.T) {
	b := block("us-east-1", 1, 1, "1000")
	b.Offering.End = b.Offering.Start.Add(27*time.Hour + 20*time.Minute) // 26 h 50 min usable
	b.Offering.DurationHours, b.Offering.DurationMinutes = 27, 20
	a, err := Advise(job(20, 100), Inputs{Offerings: []Offering{b}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := a.Option(CapacityBlock)
	notes := strings.Join(cb.Notes, " ")
	if !strings.Contains(notes, "26 h 50 min") || strings.Contains(notes, "26.9") {
		t.Errorf("notes %q", notes)
	}
	j := job(0, 100)
	j.RecurringHoursPerMonth, j.RecurringMonths = 700, 12
	a, _ = Advise(j, Inputs{Now: now})
	for _, o := range a.Options {
		s := o.Guarantee.Price + " " + o.RuledOut
		if strings.Contains(s, "1 years") {
			t.Errorf("%s: %q", o.Kind, s)
		}
	}
}

// The chart marks a crossing with the same rounding as the text that names it.
func TestChartCrossingAgreesWithText(t *testing.T) {
	a, err := Advise(job(48, 100), Inputs{Offerings: []Offering{block("us-east-1", 1, 3, "1920")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Crossings) == 0 {
		t.Fatal("no crossing")
	}
	chart := a.Chart(100, 24)
	if !strings.Contains(chart, "72.7%") || strings.Contains(chart, "73%") { // 0.72674… rounded up to one decimal
		t.Errorf("chart:\n%s", chart)
	}
}
