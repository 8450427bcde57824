package advise

import (
	"encoding/json"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing/advisor"
)

// optionOut is an option as -o json writes it.
type optionOut struct {
	Kind                     advisor.Kind
	Eligible                 bool
	InstanceType, Region     string
	Instances, Accelerators  int
	Total                    *model.Money
	PerUsefulAcceleratorHour *model.Money
	Range                    *struct{ Low, High model.Money }
	Unknown, RuledOut        string
	Notes                    []string
	Figures                  []advisor.Figure
	Offering                 *advisor.Offering
}

type adviceOut struct {
	Recommended advisor.Kind
	Options     []optionOut
	Steps       []string
	Crossings   []crossingJSON
	NotSearched []model.Source
}

func askAdvice(t *testing.T, cs *cmdtest.Sim, args ...string) adviceOut {
	t.Helper()
	code, out, errs := cli.Run(append([]string{"advise", "--endpoint-url", cs.URL, "-o", "json"}, args...)...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var a adviceOut
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(a.Options) != len(advisor.Kinds) {
		t.Fatalf("%d options", len(a.Options))
	}
	return a
}

func ranking(a adviceOut) []advisor.Kind {
	var out []advisor.Kind
	for _, o := range a.Options {
		out = append(out, o.Kind)
	}
	return out
}

// flatOption is an option with its pointers read: Known when the JSON has a Total, HasRange
// when it has a Range.
type flatOption struct {
	optionOut
	Known, HasRange  bool
	Total, Low, High model.Money
}

func option(t *testing.T, a adviceOut, k advisor.Kind) flatOption {
	t.Helper()
	for _, o := range a.Options {
		if o.Kind == k {
			f := flatOption{optionOut: o}
			if o.Total != nil {
				f.Known, f.Total = true, *o.Total
			}
			if o.Range != nil {
				f.HasRange, f.Low, f.High = true, o.Range.Low, o.Range.High
			}
			if (o.Total == nil) != (o.PerUsefulAcceleratorHour == nil) {
				t.Errorf("%s: a total without its rate per accelerator-hour, or the reverse", k)
			}
			return f
		}
	}
	t.Fatalf("no %s", k)
	return flatOption{}
}

func stepWith(t *testing.T, a adviceOut, prefix, want string) {
	t.Helper()
	for _, s := range a.Steps {
		if strings.HasPrefix(s, prefix) {
			if !strings.Contains(s, want) {
				t.Errorf("step %q lacks %q", s, want)
			}
			return
		}
	}
	t.Errorf("no step %q in %q", prefix, a.Steps)
}

func ruledOut(t *testing.T, a adviceOut, k advisor.Kind, why string) {
	t.Helper()
	if o := option(t, a, k); !strings.Contains(o.RuledOut, why) {
		t.Errorf("%s: ruled out %q, want %q", k, o.RuledOut, why)
	}
}

// wantCrossing checks the block–on-demand crossing: the block's fee over on-demand at 100%,
// exactly.
func wantCrossing(t *testing.T, a adviceOut, cb, od flatOption, pct int64) {
	t.Helper()
	full := new(big.Rat).Quo(big.NewRat(od.Total.Micros()*100, 1), big.NewRat(pct, 1))
	want := new(big.Rat).Quo(big.NewRat(cb.Total.Micros(), 1), full)
	if want.Cmp(big.NewRat(1, 1)) > 0 {
		if len(a.Crossings) != 0 {
			t.Errorf("crossings %+v above 100%%", a.Crossings)
		}
		return
	}
	if len(a.Crossings) != 1 {
		t.Fatalf("crossings %+v", a.Crossings)
	}
	got, ok := new(big.Rat).SetString(a.Crossings[0].UtilizationExact)
	// on-demand's total is rounded to the micro-dollar, so allow that much
	if !ok || new(big.Rat).Abs(new(big.Rat).Sub(got, want)).Cmp(big.NewRat(1, 1_000_000)) > 0 {
		t.Errorf("crossing %s, want %s", a.Crossings[0].UtilizationExact, want.RatString())
	}
}

// A 47-hour eval on 8 H100s next week (a 2-day block holds 47.5 usable hours): at full use
// the live block costs less than on-demand and guarantees the capacity, so it comes first;
// on-demand second; the rest do not fit a one-off job that cannot be interrupted.
func TestAdviseEvalNextWeek(t *testing.T) {
	cs := cmdtest.StartSim(t)
	a := askAdvice(t, cs, "--type", "any H100-class", "--accelerators", "8", "--hours", "47", "--from", "+6d", "--to", "+13d", "--region", "us-east-1,us-west-2")
	r := ranking(a)
	if a.Recommended != advisor.CapacityBlock || r[0] != advisor.CapacityBlock || r[1] != advisor.OnDemand {
		t.Fatalf("ranking %v, recommended %q", r, a.Recommended)
	}
	cb, od := option(t, a, advisor.CapacityBlock), option(t, a, advisor.OnDemand)
	if cb.Offering == nil || cb.Accelerators != 8 || cb.Total != cb.Offering.Offering.Fee || cb.Total.Cmp(od.Total) >= 0 {
		t.Fatalf("block %+v against on-demand %s", cb, od.Total)
	}
	if od.Total != model.MustMoney("55.04").Mul(47) {
		t.Errorf("on-demand %s, want 47 h at $55.04", od.Total)
	}
	start := cmdtest.SimStart.AddDate(0, 0, 6)
	if off := cb.Offering.Offering; off.Start.Before(start) || off.End.After(start.AddDate(0, 0, 7)) || off.Minutes() < 48*60 {
		t.Errorf("offering outside the job: %+v", off)
	}
	wantCrossing(t, a, cb, od, 100)
	stepWith(t, a, "2.", "reserve it: a Capacity Block of")
	stepWith(t, a, "3.", "costs less than on-demand")
	stepWith(t, a, "Recommended:", "Capacity Block, because it costs the least at this utilization and guarantees the capacity")
	ruledOut(t, a, advisor.TrainingPlan, "EC2 runs this job")
	ruledOut(t, a, advisor.SavingsPlan1y, "a one-off job")
	ruledOut(t, a, advisor.Spot, "cannot be interrupted")
	for _, k := range []advisor.Kind{advisor.TrainingPlan, advisor.SavingsPlan1y, advisor.SavingsPlan3y, advisor.Spot} {
		if o := option(t, a, k); o.Known || o.HasRange || o.Eligible {
			t.Errorf("%s is ruled out but carries a figure or says it fits: %+v", k, o)
		}
	}
	if len(a.NotSearched) != 1 || a.NotSearched[0] != model.SourceTrainingPlan {
		t.Errorf("not searched %v", a.NotSearched)
	}
}

// A 3-week fine-tune at 70%: the block is paid for every hour, on-demand only for the 70%.
// Which leads depends on the live block's fee against on-demand: the leader must be the one
// the exact crossing says, and the steps must give that reason.
func TestAdviseFineTuneAt70(t *testing.T) {
	cs := cmdtest.StartSim(t)
	a := askAdvice(t, cs, "--type", "p5.48xlarge", "--instances", "4", "--hours", "504", "--utilization", "70", "--region", "us-east-1,us-west-2")
	r := ranking(a)
	cb, od := option(t, a, advisor.CapacityBlock), option(t, a, advisor.OnDemand)
	if want := model.MustMoney("55.04").MulRat(4*504*70, 100); od.Total != want {
		t.Errorf("on-demand %s, want %s", od.Total, want)
	}
	if cb.Offering.Offering.Minutes() < 504*60 {
		t.Fatalf("block %+v", cb)
	}
	wantCrossing(t, a, cb, od, 70)
	if cb.Total.Cmp(od.Total) > 0 {
		stepWith(t, a, "3.", "at 70% the Capacity Block costs")
		if a.Recommended != advisor.OnDemand || r[0] != advisor.OnDemand || r[1] != advisor.CapacityBlock {
			t.Fatalf("block %s above on-demand %s, ranking %v", cb.Total, od.Total, r)
		}
		stepWith(t, a, "Recommended:", "On-demand, because it costs the least at this utilization, with no commitment")
	} else {
		stepWith(t, a, "3.", "at 70% it saves")
		if a.Recommended != advisor.CapacityBlock || r[0] != advisor.CapacityBlock || r[1] != advisor.OnDemand {
			t.Fatalf("block %s at or below on-demand %s, ranking %v", cb.Total, od.Total, r)
		}
		stepWith(t, a, "Recommended:", "Capacity Block, because it costs the least at this utilization and guarantees the capacity")
	}
}

// 200 hours a month for a year: 27.4% of the year's hours, under the 28% that even the
// deepest published Savings Plans discount needs, so neither plan can pay; the monthly
// block is paid for 9 days to use 200 hours, and on-demand leads.
func TestAdviseRecurring(t *testing.T) {
	cs := cmdtest.StartSim(t)
	a := askAdvice(t, cs, "--type", "p5.48xlarge", "--instances", "1", "--monthly-hours", "200", "--months", "12", "--region", "us-east-1")
	ruledOut(t, a, advisor.SavingsPlan1y, "busy 27.4% of the year")
	ruledOut(t, a, advisor.SavingsPlan3y, "commits for 36")
	stepWith(t, a, "4.", "not this one: busy 27.4% of the year")
	od, cb := option(t, a, advisor.OnDemand), option(t, a, advisor.CapacityBlock)
	if od.Total != model.MustMoney("55.04").Mul(2400) {
		t.Errorf("on-demand %s", od.Total)
	}
	if cb.Offering == nil || cb.Total != cb.Offering.Offering.Fee.Mul(12) || cb.Offering.Offering.DurationHours != 9*24 {
		t.Fatalf("block %+v", cb)
	}
	want := advisor.OnDemand
	if cb.Total.Cmp(od.Total) <= 0 {
		want = advisor.CapacityBlock
	}
	if a.Recommended != want || ranking(a)[0] != want {
		t.Errorf("ranking %v, want %s first", ranking(a), want)
	}
	if !strings.Contains(strings.Join(cb.Notes, " "), "12 runs at this block's live fee") {
		t.Errorf("notes %q", cb.Notes)
	}
}

// An interruptible batch job: Spot leads, as a range from the dated snapshot (0–69% under
// on-demand), never as an invented figure; Savings Plans do not fit a one-off job.
func TestAdviseInterruptible(t *testing.T) {
	cs := cmdtest.StartSim(t)
	a := askAdvice(t, cs, "--type", "p5.48xlarge", "--instances", "2", "--hours", "72", "--interruptible", "--region", "us-east-1")
	if a.Recommended != advisor.Spot || ranking(a)[0] != advisor.Spot {
		t.Fatalf("ranking %v", ranking(a))
	}
	s, od := option(t, a, advisor.Spot), option(t, a, advisor.OnDemand)
	if s.Known || !s.HasRange || s.High != od.Total || s.Low != od.Total.MulRat(31, 100) {
		t.Errorf("spot %+v against on-demand %s", s, od.Total)
	}
	if len(s.Figures) != 2 || s.Figures[1].Source != "skypilot-catalog v9 SpotPrice" {
		t.Errorf("figures %+v", s.Figures)
	}
	stepWith(t, a, "5.", "the deepest discount, but interruptible")
	ruledOut(t, a, advisor.SavingsPlan3y, "a one-off job")
	// In a region without a Spot figure the range is not borrowed from us-east-1.
	a = askAdvice(t, cs, "--type", "p5.48xlarge", "--instances", "2", "--hours", "72", "--interruptible", "--region", "us-west-2")
	if s := option(t, a, advisor.Spot); s.HasRange || !strings.Contains(s.Unknown, "no Spot figure") || a.Recommended == advisor.Spot {
		t.Errorf("us-west-2 spot %+v, recommended %s", s, a.Recommended)
	}
}

func TestAdviseTable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := cli.Run("advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--instances", "1", "--hours", "48", "--from", "+6d", "--to", "+13d", "--region", "us-east-1")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"RANK  OPTION", "Capacity Block", "figure: on-demand p5.48xlarge us-east-1 $55.040/h", "1. On-demand first", "Training Plans: not searched: EC2 runs this job"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestAdviseUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--instances", "1", "--hours", "48"}, "--type: required"},
		{[]string{"--type", "p9", "--instances", "1", "--hours", "48"}, "is neither a type"},
		{[]string{"--type", "H100", "--hours", "48"}, "instances: at least 1"},
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--hours", "48", "--utilization", "140"}, "--utilization"},
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--monthly-hours", "200"}, "--monthly-hours: monthly-hours and months go together"},
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--hours", "48", "-o", "csv"}, "allowed table or json"},
		// totals past what is counted exactly were printed wrong, negative, with exit 0
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--monthly-hours", "200", "--months", "100000"}, "months 100000: allowed 1 to 120"},
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--monthly-hours", "200", "--months", "9999999999999"}, "months 9999999999999: allowed 1 to 120"},
		{[]string{"--type", "p5.48xlarge", "--instances", "1", "--monthly-hours", "200", "--months", "99999999999999999999"}, "--months"},
	} {
		code, out, errs := cli.Run(append([]string{"advise", "--endpoint-url", cs.URL}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Errorf("%d calls for bad usage", n)
	}
}

// A region that is down is named once, however many slices asked it, and the advice is
// given from the regions that answered.
func TestAdviseRegionDown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, out, errs := cli.Run("advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--instances", "1", "--hours", "48", "--region", "us-east-1,us-west-2")
	if code != 0 || !strings.Contains(out, "Capacity Block") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if n := strings.Count(errs, "gpublock advise: us-west-2:"); n != 1 {
		t.Errorf("us-west-2 named %d times:\n%s", n, errs)
	}
	if strings.Contains(errs, "gpublock offerings") {
		t.Errorf("stderr names another command:\n%s", errs)
	}
}

// With nothing on offer at the job's count, the advisor searches one instance fewer and one
// more and names what it finds, without counting it as the job's block.
// The count is one the region's zones cannot hold even together: a count one zone cannot hold
// is sold as segments.
func TestAdviseNearbyCounts(t *testing.T) {
	cs := cmdtest.StartSim(t)
	a := askAdvice(t, cs, "--type", "p6-b300.48xlarge", "--instances", "22", "--hours", "47", "--from", "+6d", "--to", "+13d", "--region", "us-east-1")
	cb := option(t, a, advisor.CapacityBlock)
	if cb.Eligible || cb.Known || !strings.HasPrefix(cb.RuledOut, "nothing on offer for 22 × p6-b300.48xlarge") {
		t.Fatalf("block %+v", cb)
	}
	if len(cb.Notes) == 0 || !strings.HasPrefix(cb.Notes[0], "on offer nearby: 21 × p6-b300.48xlarge") {
		t.Errorf("notes %q", cb.Notes)
	}
	if a.Recommended != advisor.OnDemand {
		t.Errorf("recommended %s", a.Recommended)
	}
}

// A SageMaker job: no Capacity Block is searched (it could not use one), Training Plans
// are, and the plan's fee is the live figure; SageMaker's on-demand rates are unknown.
func TestAdviseSageMaker(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	a := askAdvice(t, cs, "--type", "p5.48xlarge", "--instances", "2", "--hours", "48", "--sagemaker", "--region", "us-east-1")
	ruledOut(t, a, advisor.CapacityBlock, "SageMaker runs this job")
	tp := option(t, a, advisor.TrainingPlan)
	if !tp.Known || tp.Total.Micros() <= 0 || len(tp.Figures) == 0 || tp.Figures[0].Source != "SageMaker Training Plans (live)" {
		t.Errorf("training plan %+v", tp)
	}
	if od := option(t, a, advisor.OnDemand); od.Known || !strings.Contains(od.Unknown, "ml.*") {
		t.Errorf("on-demand %+v", od)
	}
}

// A SageMaker job whose count training plans do not sell says so, and searches nothing.
func TestAdviseSageMakerCountPlansDoNotSell(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	code, out, errs := cli.Run("advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--instances", "3", "--hours", "48", "--sagemaker", "--region", "us-east-1")
	if code != 0 || !strings.Contains(errs, "training plans not searched for 3 instances") || !strings.Contains(out, "Training Plans: not searched: no count and length") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if n := cs.Calls.Load(); n > 2 {
		t.Errorf("%d calls for a search that cannot run", n)
	}
}

func FuzzAdviseFlags(f *testing.F) {
	for _, s := range []string{
		"--type p5.48xlarge --instances 1 --hours 48",
		"--type H100 --accelerators 8 --hours 504 --utilization 70% --region all -o json",
		"--type Trainium2 --accelerators 5000 --hours 48",
		"--type p5.48xlarge --instances 1 --monthly-hours 200 --months 12 --interruptible --sagemaker",
		"--type p5.48xlarge --instances 0 --hours -3 --utilization 0 --from 2026-13-45",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		a, err := parseAdvise(strings.Fields(line), io.Discard)
		if err != nil {
			return
		}
		j, err := a.job(time.Now().UTC())
		if err != nil {
			t.Fatalf("accepted %q, then the job failed: %v", line, err)
		}
		if _, err := advisor.Advise(j, advisor.Inputs{}); err != nil {
			t.Fatalf("accepted %q, then the advice failed: %v", line, err)
		}
	})
}

// cli runs `gpublock advise` as the program does.
var cli = cmdtest.NewCLI(NewCmdAdvise)

// parseAdvise reads and checks the flags as the command does, for the tests of parsing.
func parseAdvise(args []string, stderr io.Writer) (*Options, error) {
	var got *Options
	err := cmdtest.ParseCommand(args, stderr, func(f *cmdutil.Factory) *cobra.Command {
		return NewCmdAdvise(f, func(a *Options) error { got = a; return nil })
	})
	return got, err
}

// recurringAdvice is the stderr of `gpublock advise` of a job of 200 hours a month for a year
// of p5.48xlarge in us-east-1, with extra flags, that says its progress from the first search
// (the threshold lowered: the tests cannot wait for AWS's buckets).
func recurringAdvice(t *testing.T, cs *cmdtest.Sim, extra ...string) string {
	t.Helper()
	old := progressAfter
	progressAfter = 0
	t.Cleanup(func() { progressAfter = old })
	code, out, errs := cli.Run(append([]string{"advise", "--endpoint-url", cs.URL, "--type", "p5.48xlarge",
		"--monthly-hours", "200", "--months", "12", "--region", "us-east-1"}, extra...)...)
	if code != 0 || !strings.Contains(out, "RANK") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	return errs
}

// A recurring job's searches say, one by one, how far the advice is and what is left, and
// the advice still follows the last.
func TestRecurringAdviceSaysHowFarItIs(t *testing.T) {
	errs := recurringAdvice(t, cmdtest.StartSim(t), "--instances", "1")
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	first := regexp.MustCompile(`^gpublock advise: search 1 of (\d+); the advice follows the last; left: (\d+) searches, (\d+) calls`)
	m := first.FindStringSubmatch(lines[0])
	if m == nil || m[1] != m[2] || m[1] == "1" {
		t.Fatalf("first line %q", lines[0])
	}
	if n, _ := strconv.Atoi(m[1]); len(lines) != n {
		t.Fatalf("%d lines for %s searches:\n%s", len(lines), m[1], errs)
	}
	last := regexp.MustCompile(`^gpublock advise: search ` + m[1] + ` of ` + m[1] + `; (nothing on offer so far|\d+ offerings? so far, the lowest fee \$[\d,]+\.\d\d USD \(p5\.48xlarge × 1 for .+, us-east-1, from .+ UTC\)); left: 1 search, 1 call$`)
	if !last.MatchString(lines[len(lines)-1]) {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
}

// The note names the lowest fee found, and the wait left as the buckets make it.
func TestSearchNote(t *testing.T) {
	start := time.Date(2026, 12, 10, 11, 30, 0, 0, time.UTC)
	off := func(fee string) advisor.Offering {
		return advisor.Offering{Offering: model.Offering{ID: "cb-" + fee, Region: "us-west-2", InstanceType: "p5.48xlarge", Count: 2,
			Start: start, End: start.Add(9 * 24 * time.Hour), DurationHours: 216, Fee: model.MustMoney(fee), Currency: "USD"}}
	}
	left := capacityblocks.SearchCost{Calls: 20, Region: "us-east-1", Wait: 67 * time.Second}
	got := searchNote(2, 9, []advisor.Offering{off("9000.00"), off("8000.50"), off("8500.00")}, left)
	want := "gpublock advise: search 3 of 9; 3 offerings so far, the lowest fee $8,000.50 USD (p5.48xlarge × 2 for 9d, us-west-2, from 2026-12-10 11:30 UTC); " +
		"left: 7 searches, 20 calls: about 67 seconds at AWS's rate in us-east-1"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := searchNote(1, 2, nil, capacityblocks.SearchCost{}); got != "gpublock advise: search 2 of 2; nothing on offer so far; left: 1 search" {
		t.Fatalf("got %q", got)
	}
}

// A SageMaker job's searches are training plans': their calls are counted too.
func TestRecurringSageMakerAdviceCountsPlanCalls(t *testing.T) {
	errs := recurringAdvice(t, cmdtest.StartPlanSim(t), "--instances", "2", "--sagemaker")
	m := regexp.MustCompile(`search 1 of (\d+); the advice follows the last; left: (\d+) searches, (\d+) calls`).FindStringSubmatch(errs)
	if m == nil || m[1] != m[2] || m[3] != m[1] { // one type, one length, one region: a call a search
		t.Fatalf("stderr:\n%s", errs)
	}
}
