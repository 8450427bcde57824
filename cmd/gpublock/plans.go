package main

import (
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"

	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws"
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
		return nil, cmdutil.Usagef("--source %q: allowed capacity-blocks, training-plans or all", s.source)
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
		src, ok := firstSourceThat(func(c aws.SourceCaps) bool { return len(c.Targets) > 0 })
		if !ok {
			return nil, cmdutil.Usagef("--target %q: no source in this build takes a target", s.target)
		}
		return nil, cmdutil.Usagef("--target %q is for %s; add --source %s (or all)", s.target, sourceNouns(src), src.Name())
	}
	var out []string
	for _, t := range strings.Split(v, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(allowed, t) {
			return nil, cmdutil.Usagef("--target %q: allowed %s", s.target, strings.Join(allowed, ", "))
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
		return 0, cmdutil.Usagef("--source %q: give the one source of the offering or reservation (capacity-blocks or training-plans)", s.source)
	}
	return srcs[0], nil
}

// sweptDays is the lengths a search of s sweeps for --duration, each checked by the
// source's rule, for a source whose search asks each length apart (SourceCaps.SweepLengths).
func sweptDays(s model.Source, duration string) ([]int, error) {
	noun := sourceNouns(s)
	if strings.TrimSpace(duration) == "" {
		return nil, cmdutil.Usagef("--duration is required: %s last 1 to %d whole days (e.g. 2d, 3w, or a range 2d-7d)", noun, s.MaxDays())
	}
	lo, hi, err := model.ParseDayRange(duration)
	if err != nil {
		// The model's message lists Capacity Blocks' lengths; say the source's own.
		return nil, cmdutil.Usagef("--duration %q: want whole days or weeks, e.g. 2d, 48h, 3w, or a range 2d-7d; %s last 1 to %d days", duration, noun, s.MaxDays())
	}
	for _, d := range []int{lo, hi} {
		if err := s.CheckDays(d); err != nil {
			return nil, cmdutil.Usagef("--duration %s: %v", duration, err)
		}
	}
	if err := checkSweep(s, duration, hi-lo+1); err != nil {
		return nil, err
	}
	return s.DurationDays(lo, hi), nil
}

// checkSweep refuses a range of more lengths than a search of s sweeps, each length being
// one call per region and type.
func checkSweep(s model.Source, duration any, lengths int) error {
	if caps, _ := aws.CapsOf(s); caps.SweepLengths > 0 && lengths > caps.SweepLengths {
		return cmdutil.Usagef("--duration %v: a %s search sweeps at most %d lengths (one call each per region and type); narrow the range", duration, caps.Noun, caps.SweepLengths)
	}
	return nil
}

// checkSourceQuery checks q by the rules of source s (model.Source's types, counts and
// lengths, and what its capabilities bound), in words that name the flag and the source.
func checkSourceQuery(s model.Source, q model.Query) error {
	lo, hi := q.Durations.MinDays, q.Durations.MaxDays
	if err := checkSweep(s, q.Durations, hi-lo+1); err != nil {
		return err
	}
	for d := lo; d <= hi; d++ {
		if err := s.CheckDays(d); err != nil {
			return cmdutil.Usagef("--duration: %v", err)
		}
	}
	if len(q.InstanceTypes) == 0 {
		return cmdutil.Usagef("--type is required: one or more instance types, as EC2 (p5.48xlarge) or SageMaker (ml.p5.48xlarge) names them")
	}
	for _, t := range q.InstanceTypes {
		if _, err := s.TypeIn(t); err != nil {
			return cmdutil.Usagef("--type %s: %v", t, err)
		}
	}
	for _, t := range q.InstanceTypes {
		if err := s.CheckCount(t, q.Count); err != nil {
			return cmdutil.Usagef("--count: %v", err)
		}
	}
	if !q.End.IsZero() && !q.End.After(q.Start) {
		return cmdutil.Usagef("--to: the window %s – %s is empty", q.Start.Format(time.DateOnly), q.End.Format(time.DateOnly))
	}
	return nil
}

// sweptQueryArgs builds the query of offerings' flags when the Capacity Blocks are not
// searched: their rules (the catalog of types, their lengths) do not apply, those of the
// sources searched do.
func (a *offeringsArgs) sweptQueryArgs(now time.Time, srcs []model.Source, targets []string) (model.Query, error) {
	for _, s := range srcs {
		if caps, _ := aws.CapsOf(s); a.allZones && !caps.AllZones {
			return model.Query{}, cmdutil.Usagef("--all-zones is for %s (AWS's AllAvailabilityZones); %s take no such option",
				sourcesThat(func(c aws.SourceCaps) bool { return c.AllZones }), sourceNouns(s))
		}
	}
	q := model.Query{Count: a.count, Sources: srcs, Targets: targets}
	for _, t := range strings.Split(a.types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			q.InstanceTypes = append(q.InstanceTypes, t)
		}
	}
	if len(q.InstanceTypes) == 0 {
		return q, cmdutil.Usagef("--type is required: one or more instance types, as EC2 (p5.48xlarge) or SageMaker (ml.p5.48xlarge) names them")
	}
	var err error
	if q.Start, err = model.ParseDate(a.from, now); err != nil {
		return q, cmdutil.Usagef("--from: %v", err)
	}
	var days []int
	if len(srcs) > 1 {
		// Several sources: each searches the lengths it sells (model.SplitQuery).
		if strings.TrimSpace(a.duration) == "" {
			return q, cmdutil.Usagef("--duration is required: a length or a range (e.g. 2d, 48h, 3w, or 2d-7d)")
		}
		lo, hi, err := model.ParseDayRange(a.duration)
		if err != nil {
			return q, cmdutil.Usagef("--duration: %v", err)
		}
		for d := lo; d <= hi; d++ {
			days = append(days, d)
		}
	} else {
		for _, s := range srcs {
			if days, err = sweptDays(s, a.duration); err != nil {
				return q, err
			}
		}
	}
	if len(days) == 0 {
		return q, cmdutil.Usagef("--duration %s: no length of the range is sold", a.duration)
	}
	q.Durations = model.DurationRange{MinDays: days[0], MaxDays: days[len(days)-1]}
	if strings.TrimSpace(a.to) == "" {
		q.End = model.LatestEnd(now, days[len(days)-1])
	} else if q.End, err = model.ParseDate(a.to, now); err != nil {
		return q, cmdutil.Usagef("--to: %v", err)
	}
	ec2Names := make([]string, len(q.InstanceTypes))
	for i, t := range q.InstanceTypes {
		ec2Names[i] = model.EC2Type(t)
	}
	if q.Regions, err = a.aws.RegionList(ec2Names); err != nil {
		return q, err
	}
	if len(srcs) > 1 {
		return q, checkSplit(q)
	}
	for _, s := range srcs {
		if err := checkSourceQuery(s, q); err != nil {
			return q, err
		}
	}
	return q, nil
}

// checkSplit checks a query of several sources by model.SplitQuery: refused only when no
// source is left to search; each source searched by its own rules (the Capacity Blocks'
// window in validateQuery).
func checkSplit(q model.Query) error {
	parts, skips := model.SplitQuery(q)
	if len(parts) == 0 {
		why := make([]string, len(skips))
		for i, k := range skips {
			why[i] = k.Sentence()
		}
		return cmdutil.Usagef("no source sells this: %s", strings.Join(why, "; "))
	}
	for _, p := range parts {
		if p.Source == model.SourceCapacityBlock {
			continue
		}
		if err := checkSourceQuery(p.Source, p.Query); err != nil {
			return err
		}
	}
	return nil
}

// sourcedQuery is a.query with the sources and targets of --source and --target: the
// rules of each source searched apply, named by their source.
func (a *offeringsArgs) sourcedQuery(now time.Time) (model.Query, error) {
	srcs, targets, err := a.src.check()
	if err != nil {
		return model.Query{}, err
	}
	// a.query is the Capacity Blocks' builder: model.Query.Validate is their rule. Several
	// sources are split by model.SplitQuery, each searching what it sells.
	blocks := model.SourceCapacityBlock
	if !slices.Contains(srcs, blocks) || len(srcs) > 1 {
		return a.sweptQueryArgs(now, srcs, targets)
	}
	others := slices.DeleteFunc(slices.Clone(srcs), func(s model.Source) bool { return s == blocks })
	q, err := a.query(now)
	if err != nil {
		if len(others) > 0 {
			return q, cmdutil.Usagef("%v (%s' rule; --source %s searches %s alone)", err, sourceNouns(blocks), others[0].Name(), sourceNouns(others[0]))
		}
		return q, err
	}
	q.Sources, q.Targets = srcs, targets
	for _, s := range others {
		if err := checkSourceQuery(s, q); err != nil {
			return q, cmdutil.Usagef("%v (%s' rule; --source %s searches %s alone)", err, sourceNouns(s), blocks.Name(), sourceNouns(blocks))
		}
	}
	return q, nil
}

// validateQuery checks the query by model.Query.Validate, the Capacity Blocks' rule, which
// also reads the window at now; the other sources' rules ran in sourcedQuery.
func validateQuery(q model.Query, now time.Time) error {
	parts, _ := model.SplitQuery(q)
	for _, p := range parts {
		if p.Source != model.SourceCapacityBlock {
			continue
		}
		p.Query.AllZones = q.AllZones
		if err := p.Query.Validate(now); err != nil {
			return queryUsage(err)
		}
	}
	return nil
}

// sourcePrefix names the source at the head of its messages ("training plans: "); the
// default source (the first registered) speaks unnamed, as it did before there were others.
func sourcePrefix(s model.Source) string {
	if _, ok := aws.CapsOf(s); !ok || s == aws.RegisteredSources()[0] {
		return ""
	}
	return sourceNouns(s) + ": "
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
	if s, found := firstSourceThat(ok); found {
		return sourceNouns(s)
	}
	return "no source"
}

// firstSourceThat is the first registered source whose capabilities pass ok.
func firstSourceThat(ok func(aws.SourceCaps) bool) (model.Source, bool) {
	for _, s := range aws.RegisteredSources() {
		if caps, _ := aws.CapsOf(s); ok(caps) {
			return s, true
		}
	}
	return 0, false
}

// hasParts and noParts sort sources by whether an offering or a reservation may be made of
// parts in different zones and windows, which a row of one zone and one window cannot hold.
func hasParts(c aws.SourceCaps) bool { return c.Parts }
func noParts(c aws.SourceCaps) bool  { return !c.Parts }

// searchSources runs one search of every source the query names, through the registry,
// handing each offering to each as it arrives; the regions' answers and failures are those
// of every source. The messages of a source other than the default one name it.
func searchSources(ctx context.Context, cmd string, client *aws.Client, q model.Query, notes bool, each func(model.Offering), stderr io.Writer) searchResult {
	res := searchResult{RegionTally: model.NewRegionTally(), progress: map[model.Source]map[string]model.RegionProgress{}}
	parts, skips := model.SplitQuery(q)
	if len(q.Sources) > 1 {
		// A source that does not sell a value is named, and the others searched alone.
		for _, k := range skips {
			fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, k.Sentence())
		}
	} else if len(parts) == 0 && len(skips) > 0 {
		parts = []model.SourceQuery{{Source: skips[0].Source, Query: q}} // its own check names what it does not sell
	}
	for _, part := range parts {
		s, whole := part.Source, q
		q := part.Query
		q.AllZones, q.Regions = whole.AllZones, whole.Regions
		named := sourcePrefix(s)
		res.progress[s] = map[string]model.RegionProgress{}
		src, err := aws.OpenSource(client, s)
		if err == nil && s != model.SourceCapacityBlock {
			// The blocks' rule is model.Query.Validate, which built q; the others' are checked here.
			err = checkSourceQuery(s, q)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gpublock %s: %s%v\n", cmd, named, err)
			for _, r := range q.Regions {
				res.Failed[r] = true
			}
			return res
		}
		live := progressTerminal(stderr)
		for ev := range src.Search(ctx, q) {
			if p := ev.Progress; p != nil {
				res.progress[s][p.Region] = *p
				if live {
					fmt.Fprintf(stderr, "gpublock %s: %s%s\n", cmd, named, p.Line(time.Now()))
				}
			}
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

// The table of a search that includes a source other than the default one (the first
// registered) starts with the source.
const sourceColumnFormat = "%-15s  "

func showsSource(q model.Query) bool {
	def := aws.RegisteredSources()[0]
	return slices.ContainsFunc(model.Sources(), func(s model.Source) bool { return s != def && q.Searches(s) })
}

func sourcedTableHeader(q model.Query) string {
	if !showsSource(q) {
		return offeringTableHeader()
	}
	return fmt.Sprintf(sourceColumnFormat, "SOURCE") + offeringTableHeader()
}

func sourcedTableRow(q model.Query, o model.Offering, line string) string {
	if !showsSource(q) {
		return line
	}
	return fmt.Sprintf(sourceColumnFormat, o.Source.Name()) + line
}

// sourceNoun names the first source a query searches, in a sentence.
func sourceNoun(q model.Query) string {
	for _, s := range model.Sources() {
		if q.Searches(s) {
			return s.Label()
		}
	}
	return model.SourceCapacityBlock.Label()
}

// planQueries are a SageMaker job's Training Plan searches that the plans' rules allow;
// the others are named once on stderr.
func planQueries(job advisor.Job, stderr io.Writer) []model.Query {
	var out []model.Query
	said := map[string]bool{}
	for _, q := range job.PlanQueries() {
		if err := checkSourceQuery(model.SourceTrainingPlan, q); err != nil {
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
