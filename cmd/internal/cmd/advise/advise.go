package advise

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/advisor"
)

const adviseLong = "Which capacity to buy for a job: give what the job needs, --type with --instances or\n" +
	"--accelerators, and --hours (one run) or --monthly-hours with --months (a recurring job).\n\n" +
	"Sets every way of paying for the job against it: on-demand, a Capacity Block (from a live search\n" +
	"of the window, for the shortest block that holds --hours), a Training Plan, Savings Plans 1y and\n" +
	"3y, and Spot. Each gets its total for the job, its cost per useful accelerator-hour, what it\n" +
	"guarantees, what rules it out, and the source and date of its figures. A figure gpublock does not\n" +
	"have (Savings Plans GPU rates, Spot in most regions) is said to be unknown, with the range the\n" +
	"references give. --type takes a type or an accelerator class (H100, \"any H100-class\"). It never buys.\n\n" +
	"Exit status: 0 advice given, 1 the search failed in every region or was cancelled, 2 bad usage."

// Options are what `gpublock advise` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend cmdutil.BackendFunc
	// Catalog is the on-demand, Savings Plans and Spot prices the options are priced from.
	Catalog func() (*pricing.Catalog, error)

	AWS    cmdutil.AWSFlags
	fields advisor.JobFields
	output string
}

// NewCmdAdvise is `gpublock advise`; runF, when not nil, is given the options once they are
// checked, instead of running them.
func NewCmdAdvise(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Catalog: f.Catalog}
	cmd := &cobra.Command{
		Use:   "advise",
		Short: "which capacity to buy for a job: every option priced, ranked, with reasons (never buys)",
		Long:  adviseLong,
		Example: "  gpublock advise --type p5.48xlarge --instances 4 --hours 72 --region all\n" +
			"  gpublock advise --type H100 --accelerators 64 --hours 504 --utilization 70 -o json\n" +
			"  gpublock advise --type p5.48xlarge --instances 1 --monthly-hours 200 --months 12 --interruptible",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a.AWS = *f.AWS
			if err := a.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(adviseRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.output, "table", "json")
	job := &a.fields
	fs.StringVar(&job.Type, "type", "", "instance `type` (p5.48xlarge) or accelerator class (H100, \"any H100-class\") (required)")
	fs.StringVar(&job.Instances, "instances", "", "`N` instances the job runs on (or --accelerators)")
	fs.StringVar(&job.Accelerators, "accelerators", "", "`N` accelerators the job runs on; each type of a class gets the instances that hold them")
	fs.StringVar(&job.Hours, "hours", "", "`hours` the job holds the capacity (one run)")
	fs.StringVar(&job.MonthlyHours, "monthly-hours", "", "a recurring job: `hours` each month (with --months)")
	fs.StringVar(&job.Months, "months", "", "a recurring job: how many `months` it recurs (1 to 120)")
	fs.StringVar(&job.Utilization, "utilization", "100", "`percent` of those hours the accelerators do useful work (1-100)")
	fs.BoolVar(&job.Interruptible, "interruptible", false, "the job checkpoints or retries, so it can run on Spot")
	fs.BoolVar(&job.SageMaker, "sagemaker", false, "SageMaker runs the job (its reservation is a Training Plan)")
	fs.StringVar(&job.From, "from", "now", "earliest start `DATE`: 2026-12-03, RFC 3339, now, or +1w")
	fs.StringVar(&job.To, "to", "", "latest end `DATE` (default: as late as a block of the job's length can end)")
	return cmd
}

// adviseRun gives the advice once the flags are checked.
func adviseRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	client, _, err := a.Backend(ctx, &a.AWS)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "advise", err)
	}
	now := client.Now(ctx)
	job, err := a.job(now)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "advise", err)
	}
	if len(job.Regions) == 0 {
		if err := a.AWS.DefaultRegionError(client.Region()); err != nil {
			return cmdutil.ReportUsage(stderr, "advise", err)
		}
		job.Regions = []string{client.Region()}
	}
	if err := job.Validate(); err != nil {
		return cmdutil.ReportUsage(stderr, "advise", err)
	}
	for _, q := range job.Queries() {
		if err := q.Validate(now); err != nil {
			return cmdutil.ReportUsage(stderr, "advise", cmdutil.QueryUsage(err))
		}
	}
	cat, err := a.Catalog()
	if err != nil {
		fmt.Fprintf(stderr, "gpublock advise: %v; using the embedded prices\n", err)
	}
	in, code := searchForJob(ctx, client, append(job.Queries(), planQueries(job, stderr)...), stderr)
	if code != 0 {
		return code
	}
	in.Catalog, in.Now = cat, now
	adv, err := advisor.Advise(job, in)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "advise", err)
	}
	if advisor.NeedsNearby(adv) {
		// Nothing at the job's count: what is on offer with one instance fewer or more.
		more, code := searchForJob(ctx, client, job.NearbyQueries(), stderr)
		if code == 0 {
			in.Offerings = advisor.Dedupe(append(in.Offerings, more.Offerings...))
			if adv, err = advisor.Advise(job, in); err != nil {
				return cmdutil.ReportUsage(stderr, "advise", err)
			}
		}
	}
	if a.output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(adviceJSON(adv, in)); err != nil {
			fmt.Fprintln(stderr, "gpublock advise:", err)
			return 1
		}
		return 0
	}
	printAdvice(stdout, adv, in, now)
	return 0
}

// searchForJob runs the job's searches, each of its sources (Capacity Blocks through EC2,
// Training Plans through SageMaker), into one slice of offerings tagged with their source.
func searchForJob(ctx context.Context, client *awsapi.Client, qs []model.Query, stderr io.Writer) (advisor.Inputs, int) {
	in := advisor.Inputs{Searched: map[model.Source]bool{}}
	failed := 0
	// The weekly slices ask each region several times; say each problem once.
	once := &onceWriter{w: stderr, seen: map[string]bool{}}
	// A recurring job asks a search per slice, all at AWS's pace: when that adds up to
	// progressAfter or more, say before each search how far the advice is, what it has
	// found, and what is left.
	cost := costOfAll(client)
	say := cost(qs).Wait >= progressAfter
	for i, q := range qs {
		if say {
			fmt.Fprintln(stderr, searchNote(i, len(qs), advisor.Dedupe(in.Offerings), cost(qs[i:])))
		}
		res := offerings.Search(ctx, "advise", client, q, true, false, nil, once)
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "gpublock advise: cancelled")
			return in, 1
		}
		if res.AllFailed() {
			failed++
			continue
		}
		found := client.Now(ctx)
		for _, o := range res.Offerings {
			in.Offerings = append(in.Offerings, advisor.Offering{Offering: o, Found: found})
		}
		if len(res.Failed) > 0 {
			fmt.Fprintf(once, "gpublock advise: the %s search is incomplete: %s failed\n", offerings.SourceNoun(q), strings.Join(printers.RegionsIn(q.Regions, res.Failed), ", "))
		}
		for _, s := range q.Sources {
			in.Searched[s] = true
		}
	}
	if len(qs) > 0 && failed == len(qs) {
		fmt.Fprintf(stderr, "gpublock advise: every region of the %s search failed; no advice without it\n", offerings.SourceNoun(qs[0]))
		return in, 1
	}
	for _, q := range qs {
		if len(q.Sources) == 0 {
			in.Searched[model.SourceCapacityBlock] = true
		}
	}
	in.Offerings = advisor.Dedupe(in.Offerings)
	return in, 0
}

// progressAfter is how long the searches of one advice may take at AWS's pace before each
// says how far it is (a variable for the tests, which cannot wait that long).
var progressAfter = 10 * time.Second

// costOfAll is what searches run one after another from now cost at AWS's pace: the
// Capacity Blocks' calls through EC2's buckets, the training plans' through SageMaker's,
// each as it is now; one waits for the other, so their waits add up, and the busier
// service's region is named.
func costOfAll(client *awsapi.Client) func(qs []model.Query) capacityblocks.SearchCost {
	cb, tp := capacityblocks.New(client), trainingplans.New(client)
	return func(qs []model.Query) capacityblocks.SearchCost {
		var blocks, plans []model.Query
		for _, q := range qs {
			if q.Searches(model.SourceCapacityBlock) {
				blocks = append(blocks, q)
			} else if q.Searches(model.SourceTrainingPlan) {
				plans = append(plans, q)
			}
		}
		cost := cb.CostOfAll(blocks)
		calls, wait, region := tp.CostOfAll(plans)
		cost.Calls += calls
		if wait > cost.Wait {
			cost.Region = region
		}
		cost.Wait += wait
		return cost
	}
}

// searchNote is what is said before search i (from 0) of n: the searches and calls left
// and how long AWS's buckets make them take, and, once something was found, how many
// offerings and the lowest fee among them, as they are known before the advice.
func searchNote(i, n int, found []advisor.Offering, left capacityblocks.SearchCost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gpublock advise: search %d of %d; ", i+1, n)
	if i == 0 {
		b.WriteString("the advice follows the last; ")
	} else if len(found) == 0 {
		b.WriteString("nothing on offer so far; ")
	} else {
		low := found[0].Offering
		for _, f := range found[1:] {
			if f.Offering.Fee.Cmp(low.Fee) < 0 {
				low = f.Offering
			}
		}
		fmt.Fprintf(&b, "%s so far, the lowest fee %s (%s × %d for %s, %s, from %s UTC); ", model.Plural(len(found), "offering", "offerings"),
			model.ExactFee(low.Fee, low.Currency), low.InstanceType, low.Count, low.Length(), low.Region, low.Start.UTC().Format(model.LayoutMinute))
	}
	fmt.Fprintf(&b, "left: %s", model.Plural(n-i, "search", "searches"))
	if left.Calls > 0 {
		fmt.Fprintf(&b, ", %s", left)
	}
	return b.String()
}

// check reads and checks every flag that can be checked without the backend.
func (a *Options) check() error {
	switch strings.ToLower(strings.TrimSpace(a.output)) {
	case "", "table":
		a.output = "table"
	case "json":
		a.output = "json"
	default:
		return cmdutil.Usagef("-o %q: allowed table or json", a.output)
	}
	job, err := a.job(time.Now().UTC())
	if err != nil {
		return err
	}
	if err := job.Validate(); err != nil {
		return cmdutil.Usagef("%v", err)
	}
	if err := a.AWS.Validate(); err != nil {
		return err
	}
	return nil
}

// job builds the job from the flags, reading dates relative to now.
func (a *Options) job(now time.Time) (advisor.Job, error) {
	j, err := advisor.ParseJob(a.fields, now)
	var fe advisor.FieldError
	if errors.As(err, &fe) {
		return j, cmdutil.Usagef("--%s: %s", fe.Field, fe.Msg)
	}
	if err != nil {
		return j, cmdutil.Usagef("%v", err)
	}
	var types []string
	for _, c := range j.Candidates() {
		types = append(types, c.InstanceType)
	}
	if j.Regions, err = a.AWS.RegionList(types); err != nil {
		return j, err
	}
	return j, nil
}

// printAdvice writes the table of options, then each option's guarantees, figures and why it
// is ruled out, then the decision tree's steps and the crossings.
func printAdvice(w io.Writer, adv advisor.Advice, in advisor.Inputs, now time.Time) {
	fmt.Fprintln(w, advisor.JobLine(adv.Job))
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tOPTION\tTOTAL\t"+advisor.PerHourHeading+"\tWHERE\tSTATUS")
	for i, o := range adv.Options {
		r := advisor.Describe(o, adv.Recommended)
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", i+1, o.Kind.Title(), r.Total, r.PerHour, r.Where, r.Status)
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	for _, o := range adv.Options {
		fmt.Fprintf(w, "%s:\n", o.Kind.Title())
		for _, l := range advisor.Details(o, now) {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintln(w)
	for _, s := range adv.Steps {
		fmt.Fprintln(w, s)
	}
	for _, c := range adv.Crossings {
		fmt.Fprintf(w, "Crossing: %s and %s cost the same at %s utilization (%s; exactly %s).\n", c.A.Title(), c.B.Title(), c.Utilization.Percent(), c.Cost.Dollars(), c.Utilization)
	}
	switch {
	case !adv.Job.SageMaker:
		fmt.Fprintln(w, "Training Plans: not searched: EC2 runs this job (--sagemaker searches them instead of Capacity Blocks).")
	case !in.Searched[model.SourceTrainingPlan]:
		fmt.Fprintln(w, "Training Plans: not searched: no count and length that training plans sell fits this job.")
	}
}

type adviceJSONDoc struct {
	Job         advisor.Job
	Recommended advisor.Kind `json:",omitempty"`
	Options     []advisor.Option
	Steps       []string
	Crossings   []crossingJSON
	Searched    []model.Source
	NotSearched []model.Source
}

type crossingJSON struct {
	A, B             advisor.Kind
	Utilization      float64
	UtilizationExact string
	Cost             model.Money
}

func adviceJSON(adv advisor.Advice, in advisor.Inputs) adviceJSONDoc {
	doc := adviceJSONDoc{Job: adv.Job, Recommended: adv.Recommended, Options: adv.Options, Steps: adv.Steps, Crossings: []crossingJSON{},
		Searched: []model.Source{}, NotSearched: []model.Source{}}
	for _, c := range adv.Crossings {
		doc.Crossings = append(doc.Crossings, crossingJSON{c.A, c.B, c.Utilization.Float64(), c.Utilization.String(), c.Cost})
	}
	for _, s := range model.Sources() {
		if in.Searched[s] {
			doc.Searched = append(doc.Searched, s)
		} else {
			doc.NotSearched = append(doc.NotSearched, s)
		}
	}
	return doc
}

// onceWriter passes each distinct line on once.
type onceWriter struct {
	w    io.Writer
	seen map[string]bool
	buf  []byte
}

func (o *onceWriter) Write(p []byte) (int, error) {
	o.buf = append(o.buf, p...)
	for {
		i := bytes.IndexByte(o.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(o.buf[:i+1])
		o.buf = o.buf[i+1:]
		if !o.seen[line] {
			o.seen[line] = true
			if _, err := io.WriteString(o.w, line); err != nil {
				return len(p), err
			}
		}
	}
}

// planQueries are a SageMaker job's Training Plan searches that the plans' rules allow;
// the others are named once on stderr.
func planQueries(job advisor.Job, stderr io.Writer) []model.Query {
	var out []model.Query
	said := map[string]bool{}
	for _, q := range job.PlanQueries() {
		if err := cmdutil.CheckSourceQuery(model.SourceTrainingPlan, q); err != nil {
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
