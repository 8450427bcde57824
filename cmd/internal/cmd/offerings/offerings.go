package offerings

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
)

const offeringsLong = "Searches Capacity Block offerings: every type, duration and region asked for, each offering\n" +
	"with its fee, its rate and its break-even against on-demand.\n\n" +
	"table and csv print rows as they arrive; json prints one array at the end. A region that\n" +
	"fails is named on stderr and what the others found is still printed; when every region\n" +
	"fails, stdout stays empty (no header, no []).\n\n" +
	"--watch searches again every --interval (default 5m; 1m to 24h) until interrupted, reading\n" +
	"relative dates (now, +2w) again each time (a start that has passed becomes now), and prints\n" +
	"only the offerings not printed before (by offering ID). table: the first table, then a line\n" +
	"per search, with the header and the new rows under it; csv: the header once, then the new\n" +
	"rows; json: one line per search, a compact array of its new offerings ([] when none; read\n" +
	"them with jq -c '.[]'). The line of each search goes to stdout in a table, to stderr with\n" +
	"json and csv. New offerings ring the bell on stderr when it is a terminal. A region that\n" +
	"fails is named on stderr and the watch goes on; a search in which every region fails prints\n" +
	"nothing on stdout. --until-found stops after the first search that finds any offering. The\n" +
	"watch ends by itself when the window can no longer hold a block.\n\n" +
	"Exit status: 0 every region answered (also when nothing was found), 1 a region failed (the\n" +
	"results are incomplete) or the search was cancelled, 2 bad usage (checked before any call).\n" +
	"With --watch: 0 interrupted (Ctrl-C), the window passed, or --until-found found an offering;\n" +
	"1 --until-found was interrupted, or the window passed, before anything was found; 2 bad usage."

// Options are what `gpublock offerings` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend cmdutil.BackendFunc
	// Wait is the pause between two searches of a watch.
	Wait func(ctx context.Context, d time.Duration) bool
	// Catalog is the on-demand prices every offering is compared with.
	Catalog func() (*pricing.Catalog, error)
	// Format is -o, once checked.
	Format cmdutil.OutputFormat

	AWS      cmdutil.AWSFlags
	Types    string
	Count    int
	Duration string
	From, To string
	Output   string
	// --watch, --interval and --until-found: interval is zero without --watch.
	watch         bool
	intervalValue string
	interval      time.Duration
	untilFound    bool
	allZones      bool
	Sources       cmdutil.SourceFlags // --source, --target
}

// NewCmdOfferings is `gpublock offerings`; runF, when not nil, is given the options once
// they are checked, instead of running them.
func NewCmdOfferings(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Wait: f.Wait, Catalog: f.Catalog}
	cmd := &cobra.Command{
		Use:   "offerings",
		Short: "search Capacity Block (or, with --source, Training Plan) offerings (table, json or csv)",
		Long:  offeringsLong,
		Example: "  gpublock offerings --type p5.48xlarge --duration 2d --region all\n" +
			"  gpublock offerings --type p5.48xlarge,p5en.48xlarge --duration 2d-7d --from +1w --to +4w -o json\n" +
			"  gpublock offerings --type p5.48xlarge --duration 3w --source all --region us-east-1,us-west-2\n" +
			"  gpublock offerings --type p5.48xlarge --duration 2d --watch --interval 10m --until-found",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a.AWS = *f.AWS
			format, err := a.check(cmd.Flags())
			if err != nil {
				return err
			}
			a.Format = format
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(offeringsRun(cmd.Context(), a))
		},
	}
	cmdutil.OutputFlag(cmd, &a.Output, "table", "json", "csv")
	a.register(cmd.Flags())
	return cmd
}

func offeringsRun(ctx context.Context, a *Options) int {
	format, stdout, stderr := a.Format, a.IO.Out, a.IO.ErrOut
	client, _, err := a.Backend(ctx, &a.AWS)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "offerings", err)
	}
	// Dates are read again on the backend's clock (the emulator's may have been moved),
	// then the whole query is validated, still before any EC2 call.
	now := client.Now(ctx)
	q, err := a.SourcedQuery(now)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "offerings", err)
	}
	if len(q.Regions) == 0 {
		q.Regions = []string{client.Region()}
		if err := a.AWS.DefaultRegionError(client.Region()); err != nil {
			return cmdutil.ReportUsage(stderr, "offerings", err)
		}
	}
	if err := cmdutil.ValidateQuery(q, now); err != nil {
		return cmdutil.ReportUsage(stderr, "offerings", err)
	}
	// Every offering is compared with on-demand: the embedded catalog with the cache of
	// gpublock prices --refresh over it (a damaged cache leaves the embedded figures).
	cat, err := a.Catalog()
	if err != nil {
		fmt.Fprintf(stderr, "gpublock offerings: %v; using the embedded prices\n", err) // err names the file
	}
	large := sayCost(stderr, client, q)
	if a.interval > 0 {
		return watchOfferings(ctx, client, a, q, cat, format, stdout, stderr)
	}
	return printOfferings(ctx, client, q, cat, format, large, a.IO)
}

// largeSearch is the least wait at AWS's pace past which a search says what it will cost
// before it starts, on stderr whatever the output.
const largeSearch = 30 * time.Second

// sayCost tells on stderr what a large Capacity Block search will cost before it starts
// ("656 calls: about 17 minutes at AWS's rate in us-east-1"), and reports whether it did.
func sayCost(stderr io.Writer, client *awsapi.Client, q model.Query) bool {
	if !q.Searches(model.SourceCapacityBlock) {
		return false
	}
	if cost := capacityblocks.New(client).CostOf(q); cost.Wait >= largeSearch {
		fmt.Fprintf(stderr, "gpublock offerings: %s\n", cost)
		return true
	}
	return false
}

func (a *Options) register(fs *pflag.FlagSet) {
	a.RegisterQuery(fs)
	fs.BoolVar(&a.watch, "watch", false, "search again every --interval until interrupted, printing only new offerings")
	fs.StringVar(&a.intervalValue, "interval", "5m", "time between searches with --watch (1m to 24h)")
	fs.BoolVar(&a.untilFound, "until-found", false, "with --watch: stop at the first search that finds any offering (exit 0; 1 if interrupted first)")
	fs.BoolVar(&a.allZones, "all-zones", false, "also search zones the account has not opted in to, such as Local Zones (AWS's AllAvailabilityZones); launching there needs opting in first")
}

// RegisterQuery registers the flags of the search itself (types, count, length, window and
// sources), which gpublock order repeats.
func (a *Options) RegisterQuery(fs *pflag.FlagSet) {
	fs.StringVar(&a.Types, "type", "", "instance `types`, comma-separated (required), e.g. p5.48xlarge,p5en.48xlarge")
	fs.IntVar(&a.Count, "count", 1, "instances per block (1-64; UltraServers: UltraServers per block)")
	fs.StringVar(&a.Duration, "duration", "", "block `length`: 2d, 48h, 3w, or a range 2d-7d (required)")
	fs.StringVar(&a.From, "from", "now", "earliest start `DATE`: 2026-12-03, RFC 3339, now, or +2w/+10d/+36h")
	fs.StringVar(&a.To, "to", "", "latest end `DATE` (same forms; default: as late as a block can end, 8 weeks plus its length, since AWS's 8-week limit is on the start)")
	a.Sources.Register(fs, "capacity-blocks")
}

// check reads and checks every flag that can be checked without the backend.
func (a *Options) check(fs *pflag.FlagSet) (cmdutil.OutputFormat, error) {
	format, err := cmdutil.ParseOutputFormat(a.Output)
	if err != nil {
		return "", err
	}
	if a.watch {
		if a.interval, err = parseWatchInterval(a.intervalValue); err != nil {
			return "", err
		}
	} else if a.untilFound || fs.Changed("interval") {
		return "", cmdutil.Usagef("--until-found and --interval are used with --watch (e.g. --watch --interval 5m --until-found)")
	}
	// The syntax of every value; the clock only matters for relative dates and limits.
	q, err := a.SourcedQuery(time.Now().UTC())
	if err != nil {
		return "", err
	}
	if err := a.checkSourcesCan(q, format); err != nil {
		return "", err
	}
	if err := a.AWS.Validate(); err != nil {
		return "", err
	}
	return format, nil
}

// checkSourcesCan refuses an output that a searched source cannot give, by
// what the source can do (its SourceCaps), naming a source that can.
func (a *Options) checkSourcesCan(q model.Query, format cmdutil.OutputFormat) error {
	for _, s := range q.Sources {
		caps, ok := cmdutil.CapsOf(s)
		if !ok {
			continue
		}
		if format == "csv" && caps.Parts {
			return cmdutil.Usagef("-o csv has %s' columns only; list %s with -o table or -o json", cmdutil.SourcesThat(cmdutil.NoParts), cmdutil.SourceNouns(s))
		}
	}
	return nil
}

// Query builds the query from the flags, reading dates relative to now.
func (a *Options) Query(now time.Time) (model.Query, error) {
	var q model.Query
	for _, t := range strings.Split(a.Types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			q.InstanceTypes = append(q.InstanceTypes, t)
		}
	}
	if len(q.InstanceTypes) == 0 {
		return q, cmdutil.Usagef("--type is required: one or more of %s", strings.Join(cmdutil.CatalogNames(), ", "))
	}
	for i, t := range q.InstanceTypes {
		// Either form of a name: ml.p5.48xlarge is p5.48xlarge to Capacity Blocks.
		name, err := model.SourceCapacityBlock.TypeIn(t)
		if err != nil {
			return q, cmdutil.Usagef("--type %q: not a type Capacity Blocks sell; allowed: %s", t, strings.Join(cmdutil.CatalogNames(), ", "))
		}
		q.InstanceTypes[i] = name
	}
	if a.Count < model.MinCount || a.Count > model.MaxCount {
		return q, cmdutil.Usagef("--count %d: allowed %d to %d", a.Count, model.MinCount, model.MaxCount)
	}
	q.Count = a.Count
	if strings.TrimSpace(a.Duration) == "" {
		return q, cmdutil.Usagef("--duration is required: 1d-14d in days or 3w-26w in weeks (e.g. 2d, 48h, 3w, or a range 2d-7d)")
	}
	d, err := model.ParseDuration(a.Duration)
	if err != nil {
		return q, cmdutil.Usagef("--duration: %v", err)
	}
	q.Durations = d
	if q.Start, err = model.ParseDate(a.From, now); err != nil {
		return q, cmdutil.Usagef("--from: %v", err)
	}
	if strings.TrimSpace(a.To) == "" {
		q.End = model.LatestEnd(now, d.MaxDays)
	} else if q.End, err = model.ParseDate(a.To, now); err != nil {
		return q, cmdutil.Usagef("--to: %v", err)
	}
	if q.Regions, err = a.AWS.RegionList(q.InstanceTypes); err != nil {
		return q, err
	}
	q.AllZones = a.allZones
	return q, nil
}

// searchResult is what one search found and which regions answered.
type searchResult struct {
	Offerings []model.Offering
	model.RegionTally
	// progress is each source's regions' latest progress.
	progress map[model.Source]map[string]model.RegionProgress
}

// sayCalls writes the search's final progress line, whatever stderr is: the calls made of
// those planned, per source and region in the order asked.
func sayCalls(stderr io.Writer, cmd string, q model.Query, res searchResult) {
	var parts []string
	done, total := 0, 0
	for _, s := range model.Sources() {
		per, ok := res.progress[s]
		if !ok {
			continue
		}
		set := map[string]bool{}
		for r := range per {
			set[r] = true
		}
		for _, r := range printers.RegionsIn(q.Regions, set) {
			p := per[r]
			done, total = done+p.Done, total+p.Done+p.Left
			parts = append(parts, fmt.Sprintf("%s%s %d/%d", cmdutil.SourcePrefix(s), r, p.Done, p.Done+p.Left))
		}
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(stderr, "gpublock %s: %d of %d calls made (%s)\n", cmd, done, total, strings.Join(parts, ", "))
}

// noOfferings says on stderr that a search in a table found nothing, naming what it asked.
func noOfferings(stderr io.Writer, q model.Query, answered map[string]bool) {
	fmt.Fprintf(stderr, "gpublock offerings: no offerings for %d × %s, %s, %s – %s in %s\n", q.Count,
		strings.Join(q.InstanceTypes, ","), q.Durations, q.Start.UTC().Format(model.LayoutMinuteZone), q.End.UTC().Format(model.LayoutMinuteZone),
		strings.Join(printers.RegionsIn(q.Regions, answered), ","))
}

// A large search (one that said its cost) or one on a terminal ends with the line of the
// calls made; a small one in a script keeps stderr for what went wrong.
func printOfferings(ctx context.Context, client *awsapi.Client, q model.Query, cat *pricing.Catalog, format cmdutil.OutputFormat, large bool, ios *cmdutil.IOStreams) int {
	stdout, stderr := ios.Out, ios.ErrOut
	var (
		csvw *csv.Writer
		head bool // the table's or the csv's header is written
	)
	// Headers wait for the first row, or for the end: when every region fails, stdout stays
	// empty, so that a script cannot read the failure as a search that found nothing.
	writeHead := func() {
		if head {
			return
		}
		head = true
		switch format {
		case "table":
			fmt.Fprint(stdout, sourcedTableHeader(q))
		case "csv":
			csvw = csv.NewWriter(stdout)
			_ = csvw.Write(export.CSVHeader())
			csvw.Flush()
		}
	}
	var each func(model.Offering)
	switch format {
	case "table":
		each = func(o model.Offering) {
			writeHead()
			fmt.Fprint(stdout, sourcedTableRow(q, o, printers.OfferingTableRow(o, pricing.Compare(cat, o))))
		}
	case "csv":
		each = func(o model.Offering) {
			writeHead()
			_ = csvw.Write(export.CSVRecord(o, pricing.Compare(cat, o)))
			csvw.Flush()
		}
	}
	res := Search(ctx, "offerings", client, q, true, ios.IsStderrTTY(), each, stderr)
	if large || ios.IsStderrTTY() {
		sayCalls(stderr, "offerings", q, res)
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintln(stderr, "gpublock offerings: cancelled")
		return 1
	}
	if res.AllFailed() {
		fmt.Fprintf(stderr, "gpublock offerings: every region failed: %s\n", strings.Join(printers.RegionsIn(q.Regions, res.Failed), ", "))
		return 1
	}
	switch format {
	case "json":
		all := res.Offerings
		printers.SortOfferings(all)
		out := make([]printers.OfferingJSON, len(all))
		for i, o := range all {
			out[i] = export.Row(o, pricing.Compare(cat, o))
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "gpublock offerings:", err)
			return 1
		}
	case "csv":
		writeHead() // a search that found nothing is still a document with its header
	case "table":
		if !head {
			noOfferings(stderr, q, res.Answered)
		}
	}
	if len(res.Failed) > 0 {
		fmt.Fprintf(stderr, "gpublock offerings: the results are incomplete: %s failed\n", strings.Join(printers.RegionsIn(q.Regions, res.Failed), ", "))
		return 1
	}
	return 0
}
