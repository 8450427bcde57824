package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing/advisor"
)

// sourceFlags are --source and --target, shared by the commands that search, buy, extend
// or list either source.
type sourceFlags struct {
	source, target string
}

// register adds --source (default def) and --target to fs.
func (s *sourceFlags) register(fs *pflag.FlagSet, def string) {
	fs.StringVar(&s.source, "source", def, "capacity `source`: capacity-blocks (EC2), training-plans (SageMaker) or all")
	fs.StringVar(&s.target, "target", "", "what a training plan is for: "+strings.Join(sourceTargets(nil), ", ")+" (comma-separated; default training-job)")
}

// registerOne adds --source and --target to a command about one offering or reservation.
func (s *sourceFlags) registerOne(fs *pflag.FlagSet) {
	s.register(fs, "capacity-blocks")
	fs.Lookup("source").Usage = "`source` of the offering or reservation: capacity-blocks (EC2) or training-plans (SageMaker)"
}

// sources reads --source.
func (s *sourceFlags) sources() ([]model.Source, error) {
	out, err := model.ParseSources(s.source)
	if err != nil {
		return nil, usagef("--source %q: allowed capacity-blocks, training-plans or all", s.source)
	}
	return out, nil
}

// targets reads --target: only with training plans, each a SageMaker resource name.
func (s *sourceFlags) targets(srcs []model.Source) ([]string, error) {
	v := strings.TrimSpace(s.target)
	if v == "" {
		return nil, nil
	}
	allowed := sourceTargets(srcs)
	if len(allowed) == 0 {
		return nil, usagef("--target %q is for training plans; add --source training-plans (or all)", s.target)
	}
	var out []string
	for _, t := range strings.Split(v, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(allowed, t) {
			return nil, usagef("--target %q: allowed %s", s.target, strings.Join(allowed, ", "))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// sourceTargets are the targets the sources take (every registered source's when srcs is
// nil), from their capabilities.
func sourceTargets(srcs []model.Source) []string {
	if srcs == nil {
		srcs = aws.RegisteredSources()
	}
	var out []string
	for _, s := range srcs {
		caps, _ := aws.CapsOf(s)
		for _, t := range caps.Targets {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// check reads both flags, before any call.
func (s *sourceFlags) check() ([]model.Source, []string, error) {
	srcs, err := s.sources()
	if err != nil {
		return nil, nil, err
	}
	targets, err := s.targets(srcs)
	return srcs, targets, err
}

// one is the single source of a command about one offering or reservation.
func (s *sourceFlags) one() (model.Source, error) {
	srcs, _, err := s.check()
	if err != nil {
		return 0, err
	}
	if len(srcs) != 1 {
		return 0, usagef("--source %q: give the one source of the offering or reservation (capacity-blocks or training-plans)", s.source)
	}
	return srcs[0], nil
}

// plansOnly reports whether the query searches training plans alone.
func plansOnly(q model.Query) bool {
	return q.Searches(model.SourceTrainingPlan) && !q.Searches(model.SourceCapacityBlock)
}

// maxPlanLengths bounds a training plan search's sweep of lengths: each is one call per
// region and type.
const maxPlanLengths = 14

// planDays is the lengths a training plan search sweeps, each checked with the plans' rule.
func planDays(duration string) ([]int, error) {
	if strings.TrimSpace(duration) == "" {
		return nil, usagef("--duration is required: training plans last 1 to %d whole days (e.g. 2d, 3w, or a range 2d-7d)", trainingplans.MaxDays)
	}
	lo, hi, err := model.ParseDayRange(duration)
	if err != nil {
		// The model's message lists Capacity Blocks' lengths; say the plans' own.
		return nil, usagef("--duration %q: want whole days or weeks, e.g. 2d, 48h, 3w, or a range 2d-7d; training plans last 1 to %d days", duration, trainingplans.MaxDays)
	}
	if err := trainingplans.CheckDays(lo); err != nil {
		return nil, usagef("--duration %s: %v", duration, err)
	}
	if err := trainingplans.CheckDays(hi); err != nil {
		return nil, usagef("--duration %s: %v", duration, err)
	}
	if hi-lo+1 > maxPlanLengths {
		return nil, usagef("--duration %s: a training plan search sweeps at most %d lengths (one call each per region and type); narrow the range", duration, maxPlanLengths)
	}
	var days []int
	for d := lo; d <= hi; d++ {
		days = append(days, d)
	}
	return days, nil
}

// planQuery is the training plan form of q (every length of its range), checked with the
// plans' rules, whose words name the flag and the source.
func planQuery(q model.Query) (trainingplans.Query, error) {
	var days []int
	for d := q.Durations.MinDays; d <= q.Durations.MaxDays; d++ {
		days = append(days, d)
	}
	if len(days) > maxPlanLengths {
		return trainingplans.Query{}, usagef("--duration %s: a training plan search sweeps at most %d lengths (one call each per region and type); narrow the range", q.Durations, maxPlanLengths)
	}
	for _, d := range days {
		if err := trainingplans.CheckDays(d); err != nil {
			return trainingplans.Query{}, usagef("--duration: %v", err)
		}
	}
	tq := trainingplans.Query{InstanceTypes: q.InstanceTypes, Count: q.Count, Days: days, Start: q.Start, End: q.End,
		Regions: q.Regions, Targets: q.Targets}
	for _, t := range q.InstanceTypes {
		if !trainingplans.Reservable(t) {
			return tq, usagef("--type %s: training plans do not reserve %s", t, model.SageMakerType(t))
		}
	}
	if err := trainingplans.CheckCount(q.Count); err != nil && !allUltra(q.InstanceTypes) {
		return tq, usagef("--count: %v", err)
	}
	if err := tq.Check(); err != nil {
		return tq, usagef("%v", err)
	}
	return tq, nil
}

func allUltra(types []string) bool {
	for _, t := range types {
		if !strings.HasPrefix(model.SageMakerType(t), "ml.u-") {
			return false
		}
	}
	return len(types) > 0
}

// plansQueryArgs builds the query of offerings' flags when training plans alone are
// searched: the Capacity Block rules (the catalog of types, their lengths) do not apply.
func (a *offeringsArgs) plansQueryArgs(now time.Time, srcs []model.Source, targets []string) (model.Query, error) {
	if a.allZones {
		return model.Query{}, usagef("--all-zones is for Capacity Blocks (AWS's AllAvailabilityZones); training plans take no such option")
	}
	q := model.Query{Count: a.count, Sources: srcs, Targets: targets}
	for _, t := range strings.Split(a.types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			q.InstanceTypes = append(q.InstanceTypes, t)
		}
	}
	if len(q.InstanceTypes) == 0 {
		return q, usagef("--type is required: one or more instance types, as EC2 (p5.48xlarge) or SageMaker (ml.p5.48xlarge) names them")
	}
	var err error
	if q.Start, err = model.ParseDate(a.from, now); err != nil {
		return q, usagef("--from: %v", err)
	}
	days, err := planDays(a.duration)
	if err != nil {
		return q, err
	}
	q.Durations = model.DurationRange{MinDays: days[0], MaxDays: days[len(days)-1]}
	if strings.TrimSpace(a.to) == "" {
		q.End = model.LatestEnd(now, days[len(days)-1])
	} else if q.End, err = model.ParseDate(a.to, now); err != nil {
		return q, usagef("--to: %v", err)
	}
	ec2Names := make([]string, len(q.InstanceTypes))
	for i, t := range q.InstanceTypes {
		ec2Names[i] = model.EC2Type(t)
	}
	if q.Regions, err = a.aws.regionList(ec2Names); err != nil {
		return q, err
	}
	_, err = planQuery(q)
	return q, err
}

// sourcedQuery is a.query with the sources and targets of --source and --target: the
// rules of each source searched apply, named by their source.
func (a *offeringsArgs) sourcedQuery(now time.Time) (model.Query, error) {
	srcs, targets, err := a.src.check()
	if err != nil {
		return model.Query{}, err
	}
	if !slices.Contains(srcs, model.SourceCapacityBlock) {
		return a.plansQueryArgs(now, srcs, targets)
	}
	q, err := a.query(now)
	if err != nil {
		if len(srcs) > 1 {
			return q, usagef("%v (Capacity Blocks' rule; --source training-plans searches training plans alone)", err)
		}
		return q, err
	}
	q.Sources, q.Targets = srcs, targets
	if q.Searches(model.SourceTrainingPlan) {
		if _, err := planQuery(q); err != nil {
			return q, usagef("%v (training plans' rule; --source capacity-blocks searches Capacity Blocks alone)", err)
		}
	}
	return q, nil
}

// validateQuery checks the query against the rules of each source it searches.
func validateQuery(q model.Query, now time.Time) error {
	if q.Searches(model.SourceCapacityBlock) {
		if err := q.Validate(now); err != nil {
			return queryUsage(err)
		}
	}
	return nil
}

// sourcePrefix names the source at the head of its messages ("training plans: "); the
// default source (the first registered) speaks unnamed, as it did before there were others.
func sourcePrefix(s model.Source) string {
	caps, ok := aws.CapsOf(s)
	if !ok || s == aws.RegisteredSources()[0] {
		return ""
	}
	return caps.Noun + "s: "
}

// sourceWord names the source before a reservation's id in a sentence ("training plan ");
// the default source's reservations stand unnamed, as sourcePrefix's messages do.
func sourceWord(s model.Source) string {
	if sourcePrefix(s) == "" {
		return ""
	}
	caps, _ := aws.CapsOf(s)
	return caps.Noun + " "
}

// sourceNouns is what the source sells, many of it, in a sentence: "training plans".
func sourceNouns(s model.Source) string {
	caps, ok := aws.CapsOf(s)
	if !ok {
		return s.Plural()
	}
	return caps.Noun + "s"
}

// sourcesThat is the first registered source whose capabilities pass ok, named for many
// ("Capacity Blocks"), for a message that says which source can do what another cannot.
func sourcesThat(ok func(aws.SourceCaps) bool) string {
	for _, s := range aws.RegisteredSources() {
		if caps, _ := aws.CapsOf(s); ok(caps) {
			return sourceNouns(s)
		}
	}
	return "no source"
}

// hasParts and noParts sort sources by whether an offering or a reservation may be made of
// parts in different zones and windows, which a row of one zone and one window cannot hold.
func hasParts(c aws.SourceCaps) bool { return c.Parts }
func noParts(c aws.SourceCaps) bool  { return !c.Parts }

// sourceQueryChecks are the command line's own checks of a query for a source, beyond
// those the query was built with, whose words name the flag and the source.
var sourceQueryChecks = map[model.Source]func(model.Query) error{
	model.SourceTrainingPlan: func(q model.Query) error { _, err := planQuery(q); return err },
}

// searchSources runs one search of every source the query names, through the registry,
// handing each offering to each as it arrives; the regions' answers and failures are those
// of every source. The messages of a source other than the default one name it.
func searchSources(ctx context.Context, cmd string, client *aws.Client, q model.Query, notes bool, each func(model.Offering), stderr io.Writer) searchResult {
	res := searchResult{RegionTally: model.NewRegionTally()}
	for _, s := range model.Sources() {
		if !q.Searches(s) {
			continue
		}
		named := sourcePrefix(s)
		src, err := aws.OpenSource(client, s)
		if check := sourceQueryChecks[s]; err == nil && check != nil {
			err = check(q)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gpublock %s: %s%v\n", cmd, named, err)
			for _, r := range q.Regions {
				res.Failed[r] = true
			}
			return res
		}
		for ev := range src.Search(ctx, q) {
			for _, o := range ev.Offerings {
				res.offerings = append(res.offerings, o)
				if each != nil {
					each(o)
				}
			}
			st := ev.Status
			if st == nil {
				continue
			}
			if res.Add(*st) {
				fmt.Fprintf(stderr, "gpublock %s: %s: %s%s\n", cmd, st.Region, named, client.ExplainError(st.Err))
			}
			// A region asked for that does not sell the types is named, with where they are
			// sold, rather than looking like a region with nothing on offer today.
			if notes && st.State == model.RegionEmpty && st.Message != "" {
				fmt.Fprintf(stderr, "gpublock %s: %s: %s%s\n", cmd, st.Region, named, st.Message)
			}
		}
	}
	return res
}

// The table of a search that includes training plans starts with the source.
const sourceColumnFormat = "%-15s  "

func sourcedTableHeader(q model.Query) string {
	if !q.Searches(model.SourceTrainingPlan) {
		return offeringTableHeader()
	}
	return fmt.Sprintf(sourceColumnFormat, "SOURCE") + offeringTableHeader()
}

func sourcedTableRow(q model.Query, o model.Offering, line string) string {
	if !q.Searches(model.SourceTrainingPlan) {
		return line
	}
	return fmt.Sprintf(sourceColumnFormat, o.Source.Name()) + line
}

// sourceNoun names the source a query searches, in a sentence.
func sourceNoun(q model.Query) string {
	if plansOnly(q) {
		return "Training Plan"
	}
	return "Capacity Block"
}

// planQueries are a SageMaker job's Training Plan searches that the plans' rules allow;
// the others are named once on stderr.
func planQueries(job advisor.Job, stderr io.Writer) []model.Query {
	var out []model.Query
	said := map[string]bool{}
	for _, q := range job.PlanQueries() {
		if _, err := planQuery(q); err != nil {
			if !said[err.Error()] {
				fmt.Fprintf(stderr, "gpublock advise: training plans not searched for %d instances: %v\n", q.Count, err)
				said[err.Error()] = true
			}
			continue
		}
		out = append(out, q)
	}
	return out
}
