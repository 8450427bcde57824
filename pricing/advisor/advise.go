package advisor

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Advice is the advisor's answer for one job.
type Advice struct {
	Job Job
	// Options holds every option, ranked: the recommended one first, then those that fit the
	// job by cost (known totals, or the low end of a known range), then those whose cost is
	// unknown, then those ruled out.
	Options []Option
	// Recommended is the kind of Options[0] when it is recommended, "" when no option has a
	// known cost.
	Recommended Kind `json:",omitempty"`
	// Steps are the decision tree's steps for this job, in order.
	Steps []string
	// Crossings are the utilizations at which two leading options cost the same.
	Crossings []Crossing
}

// Crossing is a utilization at which two options cost the same, exactly.
type Crossing struct {
	A, B        Kind
	Utilization pricing.Ratio
	Cost        model.Money
}

// Leading is the options with a known cost that fit the job, in rank order, at most n.
func (a Advice) Leading(n int) []Option {
	var out []Option
	for _, o := range a.Options {
		if o.Eligible() && o.Known && len(out) < n {
			out = append(out, o)
		}
	}
	return out
}

// Option returns the option of a kind.
func (a Advice) Option(k Kind) (Option, bool) {
	for _, o := range a.Options {
		if o.Kind == k {
			return o, true
		}
	}
	return Option{}, false
}

// largeAccelerators is the size from which a job counts as a large deployment, which the
// decision tree plans about three weeks ahead. The rule of thumb names no size; 64
// accelerators (8 instances of 8) is gpublock's reading.
const largeAccelerators = 64

// planAhead is how far ahead large deployments are planned.
const planAhead = 21 * 24 * time.Hour

const hoursPerYear = 8760

// Advise sets every option against the job.
func Advise(job Job, in Inputs) (Advice, error) {
	if err := job.Validate(); err != nil {
		return Advice{}, err
	}
	if in.Catalog == nil {
		in.Catalog = pricing.Embedded()
	}
	in.Offerings = Dedupe(in.Offerings)
	cands := job.Candidates()
	if len(cands) == 0 {
		return Advice{}, fmt.Errorf("no type of %s fits %d accelerators in one block of at most %d instances", job.Class, job.Accelerators, model.MaxCount)
	}
	w := work{job: job, in: in, cands: cands, hours: int64(job.RunHours()), runs: job.Runs(), pct: job.UtilizationPercent}
	od := w.onDemand()
	opts := []Option{od, w.reserved(CapacityBlock), w.reserved(TrainingPlan), w.savingsPlan(SavingsPlan1y, 12, od), w.savingsPlan(SavingsPlan3y, 36, od), w.spot()}
	if err := overflowIn(opts); err != nil {
		return Advice{}, err
	}
	adv := Advice{Job: job}
	rec := recommend(job, opts)
	adv.Options = rank(opts, rec)
	if rec >= 0 {
		adv.Recommended = opts[rec].Kind
	}
	adv.Crossings = crossings(adv.Leading(4))
	adv.Steps = w.steps(adv)
	return adv, nil
}

type work struct {
	job   Job
	in    Inputs
	cands []Candidate
	hours int64 // of one run
	runs  int64
	pct   int64
}

// regions are the job's regions, or where the type is sold when the job names none.
func (w work) regions(instanceType string) []string {
	if len(w.job.Regions) > 0 {
		return w.job.Regions
	}
	t, _ := model.LookupType(instanceType)
	return t.Regions
}

// perUseful is a total over the job's accelerator-hours of useful work (acc × hours × runs
// × utilization), rounded to the micro-dollar.
func (w work) perUseful(total model.Money, acc int) model.Money {
	return total.MulRat(100, int64(acc)*w.hours*w.runs*w.pct)
}

func (w work) usedHours() string {
	return fmt.Sprintf("%s h", hoursText(big.NewRat(w.hours*w.runs*w.pct, 100)))
}

func (w work) onDemand() Option {
	o := Option{Kind: OnDemand, Guarantee: Guarantee{
		Capacity:     "none: a launch can fail with InsufficientInstanceCapacity",
		Price:        "the list price, billed per second of use",
		Interruption: "not interrupted",
	}}
	if w.job.SageMaker {
		o.Unknown = "SageMaker's own ml.* on-demand rates are not in the catalog"
		return o
	}
	var best *Option
	var none, unknown []string
	for _, c := range w.cands {
		for _, region := range w.regions(c.InstanceType) {
			row, ok := w.in.Catalog.OnDemand(c.InstanceType, region)
			switch {
			case !ok || row.Status == pricing.StatusUnknown:
				unknown = append(unknown, c.InstanceType+" "+region)
				continue
			case row.Status == pricing.StatusNone:
				none = append(none, fmt.Sprintf("%s %s (%s, %s)", c.InstanceType, region, row.Source, row.Date))
				continue
			}
			cand := o
			cand.InstanceType, cand.Region, cand.Instances, cand.Accelerators = c.InstanceType, region, c.Instances, c.Accelerators
			cand.Known = true
			cand.variable = row.Hourly.Mul(int64(c.Instances)).Mul(w.hours).Mul(w.runs)
			cand.Total = row.Hourly.MulRat(int64(c.Instances)*w.hours*w.runs*w.pct, 100)
			cand.PerUsefulAcceleratorHour = w.perUseful(cand.Total, c.Accelerators)
			cand.Figures = []Figure{{What: "on-demand " + c.InstanceType + " " + region, Value: row.Hourly.Rate() + "/h", Source: row.Source, Date: row.Date}}
			if best == nil || cand.Total.Cmp(best.Total) < 0 {
				best = &cand
			}
		}
	}
	if best != nil {
		best.Notes = append(best.Notes, fmt.Sprintf("paid for the %s of use at %d%% of %d h", w.usedHours(), w.pct, w.hours*w.runs))
		return *best
	}
	if len(none) > 0 && len(unknown) == 0 {
		o.RuledOut = "not sold on-demand: " + strings.Join(none, "; ")
		return o
	}
	o.Unknown = "no on-demand price known for " + strings.Join(append(unknown, none...), ", ") + "; try gpublock prices --refresh"
	return o
}

func (w work) reserved(kind Kind) Option {
	src := model.SourceCapacityBlock
	if kind == TrainingPlan {
		src = model.SourceTrainingPlan
	}
	o := Option{Kind: kind, Guarantee: Guarantee{
		Capacity:     "reserved for the whole block",
		Price:        "fixed upfront fee, paid at purchase; cannot be cancelled",
		Interruption: "not interrupted; instances stop 30 minutes before the end",
	}}
	switch {
	case kind == CapacityBlock && w.job.SageMaker:
		o.RuledOut = "SageMaker runs this job: an EC2 Capacity Block serves EC2 instances; SageMaker's reservation is a Training Plan"
		return o
	case kind == TrainingPlan && !w.job.SageMaker:
		o.RuledOut = "EC2 runs this job: a Training Plan reserves SageMaker capacity"
		return o
	case !w.in.Searched[src]:
		o.Unknown = src.Plural() + ": not searched"
		return o
	}
	days, ok := BlockDays(int(w.hours))
	if !ok {
		o.RuledOut = fmt.Sprintf("no block lasts %d hours", w.hours)
		return o
	}
	var best *Option
	for i := range w.in.Offerings {
		off := w.in.Offerings[i]
		if off.Offering.Source != src {
			continue
		}
		c, ok := w.fits(off.Offering)
		if !ok {
			continue
		}
		cand := o
		cand.InstanceType, cand.Region, cand.Instances, cand.Accelerators = c.InstanceType, off.Offering.Region, c.Instances, c.Accelerators
		cand.Known = true
		cand.Total = off.Offering.Fee.Mul(w.runs)
		cand.fixed = cand.Total
		cand.PerUsefulAcceleratorHour = w.perUseful(cand.Total, c.Accelerators)
		cand.Offering = &off
		cand.Figures = []Figure{{What: fmt.Sprintf("upfront fee %s %s %d × %s %s", off.Offering.ID, off.Offering.AvailabilityZone, off.Offering.Count, off.Offering.InstanceType, off.Offering.Start.UTC().Format(model.LayoutShortUTC)),
			Value: off.Offering.Fee.Dollars(), Source: src.Plural() + " (live)", Date: off.Found.UTC().Format(time.RFC3339), Live: true}}
		if best == nil || cand.Total.Cmp(best.Total) < 0 {
			best = &cand
		}
	}
	if best == nil {
		o.RuledOut = fmt.Sprintf("nothing on offer for %s, %s, in the window %s – %s", w.candText(), model.FormatDays(days),
			w.job.WindowStart.UTC().Format(model.LayoutDay), w.job.WindowEnd.UTC().Format(model.LayoutDay))
		o.Notes = w.nearby(src)
		return o
	}
	off := best.Offering.Offering
	usable := model.HoursMinutes(model.UsableMinutes(off.Minutes()))
	if w.runs > 1 {
		best.Notes = append(best.Notes, fmt.Sprintf("%d runs at this block's live fee: later months' fees are not known yet", w.runs))
	}
	if gaps := model.PartsGaps(off.Parts); gaps > 0 {
		best.Notes = append(best.Notes, fmt.Sprintf("made of %d reserved capacities with %s between %s and %s: the job stops at each gap and must resume after it",
			len(off.Parts), model.Plural(gaps, "gap", "gaps"), off.Start.UTC().Format(model.LayoutShort), off.End.UTC().Format(model.LayoutShortUTC)))
	}
	best.Notes = append(best.Notes, fmt.Sprintf("paid for every hour of the block, used or not: a run uses %s h of its %s of usable time (instances stop %d minutes before the end)",
		hoursText(big.NewRat(w.hours*w.pct, 100)), usable, int(model.TerminationLead.Minutes())))
	return *best
}

// fits reports whether an offering can hold the job: one of its types (a Training Plan's
// "ml." name included), its count, long enough, inside the window.
func (w work) fits(o model.Offering) (Candidate, bool) {
	typ := strings.TrimPrefix(o.InstanceType, "ml.")
	for _, c := range w.cands {
		if c.InstanceType == typ && c.Instances == o.Count && model.UsableMinutes(o.Minutes()) >= w.hours*60 &&
			!o.Start.Before(w.job.WindowStart) && !o.End.After(w.job.WindowEnd) {
			return c, true
		}
	}
	return Candidate{}, false
}

// nearby names, for each other count on offer, its cheapest block that is long enough and
// inside the window: what can be had when the job's own count cannot.
func (w work) nearby(src model.Source) []string {
	best := map[int]model.Offering{}
	for _, off := range w.in.Offerings {
		o := off.Offering
		if off.Offering.Source != src || model.UsableMinutes(o.Minutes()) < w.hours*60 || o.Start.Before(w.job.WindowStart) || o.End.After(w.job.WindowEnd) {
			continue
		}
		for _, c := range w.cands {
			if c.InstanceType == strings.TrimPrefix(o.InstanceType, "ml.") && c.Instances != o.Count {
				if b, ok := best[o.Count]; !ok || o.Fee.Cmp(b.Fee) < 0 {
					best[o.Count] = o
				}
			}
		}
	}
	counts := make([]int, 0, len(best))
	for n := range best {
		counts = append(counts, n)
	}
	sort.Ints(counts)
	var out []string
	for _, n := range counts {
		o := best[n]
		out = append(out, fmt.Sprintf("on offer nearby: %d × %s in %s from %s, %s (%s/accelerator-hour)", n, o.InstanceType, o.AvailabilityZone,
			o.Start.UTC().Format(model.LayoutShortUTC), o.Fee.Dollars(), o.AcceleratorHourlyRate().Rate()))
	}
	return out
}

// NeedsNearby reports whether the job's reserved option found nothing at its own count, so
// that the nearby counts are worth a search.
func NeedsNearby(a Advice) bool {
	for _, o := range a.Options {
		if o.Kind.Reserved() && strings.HasPrefix(o.RuledOut, "nothing on offer") && len(o.Notes) == 0 {
			return true
		}
	}
	return false
}

func (w work) candText() string {
	var parts []string
	for _, c := range w.cands {
		parts = append(parts, fmt.Sprintf("%d × %s", c.Instances, c.InstanceType))
	}
	return strings.Join(parts, " or ")
}

// busyShare is the share of a year's hours the accelerators do useful work.
func (w work) busyShare() *big.Rat {
	return big.NewRat(int64(w.job.RecurringHoursPerMonth)*12*w.pct, 100*hoursPerYear)
}

func (w work) savingsPlan(kind Kind, termMonths int, od Option) Option {
	o := Option{Kind: kind, Guarantee: Guarantee{
		Capacity:     "none: a billing discount, not capacity",
		Price:        fmt.Sprintf("a committed $/h for every hour of %s, used or not", model.Plural(termMonths/12, "year", "years")),
		Interruption: "not interrupted",
	}}
	switch {
	case !w.job.Recurring():
		o.RuledOut = fmt.Sprintf("a one-off job: a Savings Plan commits to a $/h for every hour of %s", model.Plural(termMonths/12, "year", "years"))
		return o
	case w.job.RecurringMonths < termMonths:
		o.RuledOut = fmt.Sprintf("the job recurs for %d months; this plan commits for %d", w.job.RecurringMonths, termMonths)
		return o
	}
	plan, ceil := deepestSavingsPlan()
	minShare := big.NewRat(100-ceil.HighPercent, 100)
	busy := w.busyShare()
	if busy.Cmp(minShare) <= 0 {
		o.RuledOut = fmt.Sprintf("busy %s%% of the year (%d h a month at %d%%); a plan pays only above its rate ÷ on-demand, at least %d%% even at the deepest published discount (%s, up to %d%%)",
			new(big.Rat).Mul(busy, big.NewRat(100, 1)).FloatString(1), w.job.RecurringHoursPerMonth, w.pct, 100-ceil.HighPercent, plan, ceil.HighPercent)
		o.Figures = []Figure{{What: plan + " discount", Value: fmt.Sprintf("up to %d%%", ceil.HighPercent), Source: ceil.Source, Date: ceil.Date}}
		return o
	}
	terms := (int64(w.job.RecurringMonths) + int64(termMonths) - 1) / int64(termMonths)
	termHours := terms * int64(termMonths) / 12 * hoursPerYear
	if !od.Known {
		o.Unknown = "no GPU Savings Plans rate and no on-demand price to set a range against"
		return o
	}
	// A plan that covers the instances commits their rate for every hour of the term.
	rows := w.in.Catalog.SavingsPlans(od.InstanceType, od.Region)
	for _, r := range rows {
		if Kind(r.Kind) != kind {
			continue
		}
		o.InstanceType, o.Region, o.Instances, o.Accelerators = od.InstanceType, od.Region, od.Instances, od.Accelerators
		o.Known = true
		o.Total = r.Hourly.Mul(int64(od.Instances) * termHours)
		o.fixed = o.Total
		o.PerUsefulAcceleratorHour = w.perUseful(o.Total, od.Accelerators)
		o.Figures = []Figure{{What: string(kind) + " " + od.InstanceType, Value: r.Hourly.Rate() + "/h", Source: r.Source, Date: r.Date}}
		return o
	}
	o.InstanceType, o.Region, o.Instances, o.Accelerators = od.InstanceType, od.Region, od.Instances, od.Accelerators
	full := od.Figures[0]
	odRow, _ := w.in.Catalog.OnDemand(od.InstanceType, od.Region)
	term := odRow.Hourly.Mul(int64(od.Instances) * termHours)
	o.HasRange = true
	o.Low = term.MulRat(100-ceil.HighPercent, 100)
	o.High = term
	o.PerLow, o.PerHigh = w.perUseful(o.Low, od.Accelerators), w.perUseful(o.High, od.Accelerators)
	o.Unknown = fmt.Sprintf("no GPU rate published in gpublock's sources; up to %d%% under on-demand (%s)", ceil.HighPercent, plan)
	o.Figures = []Figure{full, {What: plan + " discount", Value: fmt.Sprintf("up to %d%%", ceil.HighPercent), Source: ceil.Source, Date: ceil.Date}}
	return o
}

func (w work) spot() Option {
	o := Option{Kind: Spot, Guarantee: Guarantee{
		Capacity:     "none: capacity when there is spare",
		Price:        "the market price, per second of use",
		Interruption: "can be interrupted with a 2-minute notice",
	}}
	if !w.job.Interruptible {
		o.RuledOut = "the job cannot be interrupted; Spot instances can be, with a 2-minute notice"
		return o
	}
	if w.job.SageMaker {
		o.Unknown = "SageMaker managed Spot training prices are not in the catalog"
		return o
	}
	var best *Option
	for _, c := range w.cands {
		for _, region := range w.regions(c.InstanceType) {
			rg, ok := SpotDiscount(c.InstanceType, region)
			row, has := w.in.Catalog.OnDemand(c.InstanceType, region)
			if !ok || !has || !row.HasPrice() {
				continue
			}
			odTotal := row.Hourly.MulRat(int64(c.Instances)*w.hours*w.runs*w.pct, 100)
			cand := o
			cand.InstanceType, cand.Region, cand.Instances, cand.Accelerators = c.InstanceType, region, c.Instances, c.Accelerators
			cand.HasRange = true
			cand.Low = odTotal.MulRat(100-rg.HighPercent, 100)
			cand.High = odTotal.MulRat(100-rg.LowPercent, 100)
			cand.PerLow, cand.PerHigh = w.perUseful(cand.Low, c.Accelerators), w.perUseful(cand.High, c.Accelerators)
			cand.Unknown = fmt.Sprintf("a snapshot, not a quote: %d–%d%% under on-demand (%s)", rg.LowPercent, rg.HighPercent, rg.Note)
			if rg.LowPercent == rg.HighPercent {
				cand.Unknown = fmt.Sprintf("a snapshot, not a quote: %s", rg.Note)
			}
			cand.Figures = []Figure{
				{What: "on-demand " + c.InstanceType + " " + region, Value: row.Hourly.Rate() + "/h", Source: row.Source, Date: row.Date},
				{What: "Spot discount " + c.InstanceType + " " + region, Value: fmt.Sprintf("%d–%d%%", rg.LowPercent, rg.HighPercent), Source: rg.Source, Date: rg.Date},
			}
			cand.Notes = []string{"a price, not availability; interrupted work is redone from the last checkpoint"}
			if best == nil || cand.Low.Cmp(best.Low) < 0 {
				best = &cand
			}
		}
	}
	if best != nil {
		return *best
	}
	o.Unknown = "no Spot figure for " + w.candText() + " in " + strings.Join(w.regions(w.cands[0].InstanceType), ", ") +
		" (the references hold one us-east-1 snapshot, of p5.48xlarge and p6-b200.48xlarge)"
	return o
}

// recommend walks the decision tree and returns the index of the option it lands on, or -1.
func recommend(job Job, opts []Option) int {
	find := func(k Kind) int {
		for i, o := range opts {
			if o.Kind == k && o.Eligible() {
				return i
			}
		}
		return -1
	}
	if job.Interruptible {
		if i := find(Spot); i >= 0 && opts[i].HasRange {
			return i
		}
	}
	best := -1
	for _, k := range []Kind{SavingsPlan3y, SavingsPlan1y, CapacityBlock, TrainingPlan, OnDemand} {
		i := find(k)
		if i < 0 || !opts[i].Known {
			continue
		}
		// ties go to the option listed first: the reservation, which also guarantees capacity
		if best < 0 || opts[i].Total.Cmp(opts[best].Total) < 0 {
			best = i
		}
	}
	return best
}

func rank(opts []Option, rec int) []Option {
	group := func(i int) int {
		o := opts[i]
		switch _, known := o.costKey(); {
		case i == rec:
			return 0
		case !o.Eligible():
			return 3
		case known:
			return 1
		}
		return 2
	}
	idx := make([]int, len(opts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ga, gb := group(idx[a]), group(idx[b])
		if ga != gb {
			return ga < gb
		}
		ka, _ := opts[idx[a]].costKey()
		kb, _ := opts[idx[b]].costKey()
		return ka.Cmp(kb) < 0
	})
	out := make([]Option, len(opts))
	for i, j := range idx {
		out[i] = opts[j]
	}
	return out
}

// crossings finds, for every pair of options, the utilization in (0, 1] at which they cost
// the same: fixedA + variableA·u = fixedB + variableB·u.
func crossings(opts []Option) []Crossing {
	var out []Crossing
	for i := 0; i < len(opts); i++ {
		for j := i + 1; j < len(opts); j++ {
			a, b := opts[i], opts[j]
			dv, df := a.variable.Sub(b.variable), b.fixed.Sub(a.fixed)
			if dv.IsZero() || dv.Overflowed() || df.Overflowed() {
				continue
			}
			u := pricing.RatioOf(df.Micros(), dv.Micros())
			if u.CmpInt(0) <= 0 || u.CmpInt(1) > 0 {
				continue
			}
			cost, _ := a.CostAt(u)
			out = append(out, Crossing{A: a.Kind, B: b.Kind, Utilization: u, Cost: cost})
		}
	}
	return out
}

// hoursText writes hours with at most one decimal, rounded up: "47.5", "48".
func hoursText(h *big.Rat) string {
	t := new(big.Rat).Mul(h, big.NewRat(10, 1))
	q, r := new(big.Int).QuoRem(t.Num(), t.Denom(), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	n := q.Int64()
	if n%10 == 0 {
		return fmt.Sprint(n / 10)
	}
	return fmt.Sprintf("%d.%d", n/10, n%10)
}

// overflowIn refuses advice whose figures passed what model.Money counts exactly: a total
// printed wrong (or negative) would be worse than none.
func overflowIn(opts []Option) error {
	for _, o := range opts {
		for _, m := range []model.Money{o.Total, o.Low, o.High, o.PerUsefulAcceleratorHour, o.PerLow, o.PerHigh, o.fixed, o.variable} {
			if m.Overflowed() {
				return fmt.Errorf("%s: %w; give a smaller job", o.Kind.Title(), model.ErrMoneyOverflow)
			}
		}
	}
	return nil
}
