package offerings

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// sweptQueryArgs builds the query of offerings' flags when the Capacity Blocks are not
// searched: their rules (the catalog of types, their lengths) do not apply, those of the
// sources searched do.
func (a *Options) sweptQueryArgs(now time.Time, srcs []model.Source, targets []string) (model.Query, error) {
	for _, s := range srcs {
		if caps, _ := cmdutil.CapsOf(s); a.allZones && !caps.AllZones {
			return model.Query{}, cmdutil.Usagef("--all-zones is for %s (AWS's AllAvailabilityZones); %s take no such option",
				cmdutil.SourcesThat(func(c source.Caps) bool { return c.AllZones }), cmdutil.SourceNouns(s))
		}
	}
	q := model.Query{Count: a.Count, Sources: srcs, Targets: targets}
	for _, t := range strings.Split(a.Types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			q.InstanceTypes = append(q.InstanceTypes, t)
		}
	}
	if len(q.InstanceTypes) == 0 {
		return q, cmdutil.Usagef("--type is required: one or more instance types, as EC2 (p5.48xlarge) or SageMaker (ml.p5.48xlarge) names them")
	}
	var err error
	if q.Start, err = model.ParseDate(a.From, now); err != nil {
		return q, cmdutil.Usagef("--from: %v", err)
	}
	var days []int
	if len(srcs) > 1 {
		// Several sources: each searches the lengths it sells (model.SplitQuery).
		if strings.TrimSpace(a.Duration) == "" {
			return q, cmdutil.Usagef("--duration is required: a length or a range (e.g. 2d, 48h, 3w, or 2d-7d)")
		}
		lo, hi, err := model.ParseDayRange(a.Duration)
		if err != nil {
			return q, cmdutil.Usagef("--duration: %v", err)
		}
		for d := lo; d <= hi; d++ {
			days = append(days, d)
		}
	} else {
		for _, s := range srcs {
			if days, err = cmdutil.SweptDays(s, a.Duration); err != nil {
				return q, err
			}
		}
	}
	if len(days) == 0 {
		return q, cmdutil.Usagef("--duration %s: no length of the range is sold", a.Duration)
	}
	q.Durations = model.DurationRange{MinDays: days[0], MaxDays: days[len(days)-1]}
	if strings.TrimSpace(a.To) == "" {
		q.End = model.LatestEnd(now, days[len(days)-1])
	} else if q.End, err = model.ParseDate(a.To, now); err != nil {
		return q, cmdutil.Usagef("--to: %v", err)
	}
	ec2Names := make([]string, len(q.InstanceTypes))
	for i, t := range q.InstanceTypes {
		ec2Names[i] = model.EC2Type(t)
	}
	if q.Regions, err = a.AWS.RegionList(ec2Names); err != nil {
		return q, err
	}
	if len(srcs) > 1 {
		return q, checkSplit(q)
	}
	for _, s := range srcs {
		if err := cmdutil.CheckSourceQuery(s, q); err != nil {
			return q, err
		}
	}
	return q, nil
}

// checkSplit checks a query of several sources by source.Split: refused only when no
// source is left to search; each source searched by its own rules (the Capacity Blocks'
// window in validateQuery).
func checkSplit(q model.Query) error {
	parts, _, err := source.Split(cmdutil.RegisteredSources(), q)
	if err != nil {
		return cmdutil.Usagef("%v", err)
	}
	for _, p := range parts {
		if p.Source == model.SourceCapacityBlock {
			continue
		}
		if err := cmdutil.CheckSourceQuery(p.Source, p.Query); err != nil {
			return err
		}
	}
	return nil
}

// SourcedQuery is a.query with the sources and targets of --source and --target: the
// rules of each source searched apply, named by their source.
func (a *Options) SourcedQuery(now time.Time) (model.Query, error) {
	srcs, targets, err := a.Sources.Check()
	if err != nil {
		return model.Query{}, err
	}
	// a.query is the Capacity Blocks' builder: model.Query.Validate is their rule. Several
	// sources are split by source.Split, each searching what it sells.
	blocks := model.SourceCapacityBlock
	if !slices.Contains(srcs, blocks) || len(srcs) > 1 {
		return a.sweptQueryArgs(now, srcs, targets)
	}
	others := slices.DeleteFunc(slices.Clone(srcs), func(s model.Source) bool { return s == blocks })
	q, err := a.Query(now)
	if err != nil {
		if len(others) > 0 {
			return q, cmdutil.Usagef("%v (%s' rule; --source %s searches %s alone)", err, cmdutil.SourceNouns(blocks), others[0].Name(), cmdutil.SourceNouns(others[0]))
		}
		return q, err
	}
	q.Sources, q.Targets = srcs, targets
	for _, s := range others {
		if err := cmdutil.CheckSourceQuery(s, q); err != nil {
			return q, cmdutil.Usagef("%v (%s' rule; --source %s searches %s alone)", err, cmdutil.SourceNouns(s), blocks.Name(), cmdutil.SourceNouns(blocks))
		}
	}
	return q, nil
}

// Search runs one search of every source the query names, through source.Search, handing
// each offering to each as it arrives; the regions' answers and failures are those of every
// source. The messages of a source other than the default one name it.
//
// live says that stderr is a terminal, where each region's progress is shown as it comes.
func Search(ctx context.Context, cmd string, client *awsapi.Client, q model.Query, notes, live bool, each func(model.Offering), stderr io.Writer) searchResult {
	res := searchResult{RegionTally: model.NewRegionTally(), progress: map[model.Source]map[string]model.RegionProgress{}}
	failAll := func(msg string) searchResult {
		fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, msg)
		for _, r := range q.Regions {
			res.Failed[r] = true
		}
		return res
	}
	parts, skips, err := source.Split(cmdutil.RegisteredSources(), q)
	// A source that does not sell a value is named, and the others searched alone.
	for _, k := range skips {
		fmt.Fprintf(stderr, "gpublock %s: %s\n", cmd, k.Sentence())
	}
	if err != nil {
		return failAll(err.Error())
	}
	for _, p := range parts {
		// The blocks' rule is model.Query.Validate, which built q; the others' are checked here.
		if p.Source == model.SourceCapacityBlock {
			continue
		}
		if err := cmdutil.CheckSourceQuery(p.Source, p.Query); err != nil {
			return failAll(cmdutil.SourcePrefix(p.Source) + err.Error())
		}
	}
	events, _, err := source.Search(ctx, cmdutil.SourcesOver(client), q)
	if err != nil {
		return failAll(err.Error())
	}
	for ev := range events {
		s, named := ev.Source, cmdutil.SourcePrefix(ev.Source)
		if p := ev.Progress; p != nil {
			if res.progress[s] == nil {
				res.progress[s] = map[string]model.RegionProgress{}
			}
			res.progress[s][p.Region] = *p
			if live {
				fmt.Fprintf(stderr, "gpublock %s: %s%s\n", cmd, named, p.Line(time.Now()))
			}
		}
		for _, o := range ev.Offerings {
			res.Offerings = append(res.Offerings, o)
			if each != nil {
				each(o)
			}
		}
		// Each source's own status: a region one source failed in is failed, whatever
		// the others found there.
		st := ev.SourceStatus
		if st == nil {
			continue
		}
		if res.Add(*st) {
			why := ""
			if st.Err != nil {
				why = st.Err.Error() // explained by its source
			}
			fmt.Fprintf(stderr, "gpublock %s: %s: %s%s\n", cmd, st.Region, named, why)
		}
		// A region asked for that does not sell the types is named, with where they are
		// sold, rather than looking like a region with nothing on offer today.
		if notes && st.State == model.RegionEmpty && st.Message != "" {
			fmt.Fprintf(stderr, "gpublock %s: %s: %s%s\n", cmd, st.Region, named, st.Message)
		}
	}
	return res
}

// The table of a search that includes a source other than the default one (the first
// registered) starts with the source.
const sourceColumnFormat = "%-15s  "

func showsSource(q model.Query) bool {
	def := cmdutil.RegisteredSources()[0]
	return slices.ContainsFunc(model.Sources(), func(s model.Source) bool { return s != def && q.Searches(s) })
}

func sourcedTableHeader(q model.Query) string {
	if !showsSource(q) {
		return printers.OfferingTableHeader()
	}
	return fmt.Sprintf(sourceColumnFormat, "SOURCE") + printers.OfferingTableHeader()
}

func sourcedTableRow(q model.Query, o model.Offering, line string) string {
	if !showsSource(q) {
		return line
	}
	return fmt.Sprintf(sourceColumnFormat, o.Source.Name()) + line
}

// SourceNoun names the first source a query searches, in a sentence.
func SourceNoun(q model.Query) string {
	for _, s := range model.Sources() {
		if q.Searches(s) {
			return s.Label()
		}
	}
	return model.SourceCapacityBlock.Label()
}
