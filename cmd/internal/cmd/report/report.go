// Package report is `gpublock report`: what was paid for the reservations, and how much of
// them was used.
package report

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
)

const reportLong = "What was paid for the reservations of every source and account, and how much of them was\n" +
	"used: the fees paid in the window by month (UTC), account, source and each --by-tag key; and\n" +
	"per reservation the instance-hours reserved and used inside the window, the accelerator-hours\n" +
	"used, the cost per used accelerator-hour, the same used hours at the on-demand price and the\n" +
	"saving (or loss) against it, and the idle hours and what they cost.\n\n" +
	"Use is CloudWatch's UsedInstanceCount of the capacity reservation (AWS/EC2CapacityReservations);\n" +
	"SageMaker publishes no use of a training plan, so its use is unknown (— in the table, null in\n" +
	"JSON, empty in CSV), never zero. A fee is AWS's figure or this machine's journal's: a Capacity\n" +
	"Block bought from elsewhere has no fee on record, and the report names each payment of unknown\n" +
	"amount instead of counting it as zero. A reservation that straddles the window costs its whole\n" +
	"fee times the share of its reserved hours inside the window.\n\n" +
	"--from and --to are dates (2026-11-01) or months (2026-11), in UTC, both included: --from 2026-01\n" +
	"--to 2026-03 is January to March. The default is the 12 calendar months to now, this one\n" +
	"included; a window is never read past now. --svg FILE also writes the charts (paid by month,\n" +
	"use per reservation) as a standalone SVG, whole or not at all; an existing file is kept unless\n" +
	"--force. --region narrows the report to those regions.\n\n" +
	"What could not be read (a region, an account, a metric) is named on stderr and in the report.\n\n" +
	"Exit status: 0 the report was written, even if some of it could not be read; 1 nothing could be\n" +
	"read, or an output (or the SVG file) could not be written; 2 bad usage."

// Reporter reads a report's input: the program's sources together (source.Backend).
type Reporter interface {
	Report(ctx context.Context, regions []string, from, to time.Time) (report.Input, error)
}

// Options are what `gpublock report` runs with.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the client the AWS flags name.
	Backend cmdutil.BackendFunc
	// Catalog is the price catalog the used hours are priced on-demand from.
	Catalog func() (*pricing.Catalog, error)
	// Reporter is what reads the report over the client: the program's sources.
	Reporter func(*awsapi.Client) Reporter
	// Config reads the configuration file, whose accounts the report covers.
	Config config.Loader

	AWS    cmdutil.AWSFlags
	From   string
	To     string
	Output string
	SVG    string
	// SVGGiven is whether --svg was on the command line, "" included.
	SVGGiven bool
	Force    bool
	ByTag    string
}

// NewCmdReport is `gpublock report`; runF, when not nil, is given the options instead of
// running them.
func NewCmdReport(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Backend: f.Backend, Catalog: f.Catalog, Reporter: programSources, Config: f.Config}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "what was paid for the reservations and how much of them was used (table, json or csv; --svg charts)",
		Long:  reportLong,
		Example: "  gpublock report\n" +
			"  gpublock report --from 2026-01 --to 2026-06 --by-tag team\n" +
			"  gpublock report --from 2026-11-01 -o json\n" +
			"  gpublock report -o csv > reservations.csv\n" +
			"  gpublock report --svg spend.svg",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.AWS = *f.AWS
			opts.SVGGiven = cmd.Flags().Changed("svg")
			if runF != nil {
				return runF(opts)
			}
			return cmdutil.CodeError(reportRun(cmd.Context(), opts))
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&opts.From, "from", "", "first `DATE` (2026-11-01) or month (2026-11) of the window, UTC (default: the 12 calendar months to --to, its own included)")
	fs.StringVar(&opts.To, "to", "", "last `DATE` or month of the window, included (default: now)")
	cmdutil.OutputFlag(cmd, &opts.Output, "table", "json", "csv")
	fs.StringVar(&opts.SVG, "svg", "", "also write the charts to this SVG `file`")
	fs.BoolVar(&opts.Force, "force", false, "with --svg: write over an existing file")
	fs.StringVar(&opts.ByTag, "by-tag", strings.Join(report.DefaultTagKeys, ","), "group the fees by these tag `keys` (comma-separated; \"\" for none)")
	return cmd
}

func programSources(c *awsapi.Client) Reporter { return sources.New(c, cmdutil.SourcesOver(c)) }

// reportRun reads and writes the report once cobra has parsed the flags.
func reportRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	format, err := cmdutil.ParseOutputFormat(a.Output)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "report", err)
	}
	keys, err := tagKeys(a.ByTag)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "report", err)
	}
	win, err := parseWindow(a.From, a.To)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "report", err)
	}
	if err := a.AWS.Validate(); err != nil {
		return cmdutil.ReportUsage(stderr, "report", err)
	}
	regions, _ := a.AWS.RegionList(nil) // validated above
	if a.SVG != "" || a.SVGGiven {
		if err := checkSVGPath(a.SVG, a.Force); err != nil {
			return cmdutil.ReportUsage(stderr, "report", err)
		}
	}
	if a.Force && a.SVG == "" {
		return cmdutil.ReportUsage(stderr, "report", cmdutil.Usagef("--force is used with --svg FILE (it writes over that file)"))
	}
	cfg, _, err := a.Config()
	if err != nil {
		fmt.Fprintln(stderr, "gpublock report:", err)
		return 2
	}
	a.AWS.SetAccounts(cfg)
	if len(regions) == 0 && !a.AWS.SeveralAccounts() {
		regions = a.AWS.AccountSpecs()[0].Regions // the configuration's, for its one account
	}
	var (
		client *awsapi.Client
		rep    Reporter
	)
	if a.AWS.SeveralAccounts() {
		// Every account's reservations, each account's failure named in the report.
		var be source.Backend
		be, client, _, err = cmdutil.OpenAccounts(ctx, &a.AWS, a.Backend, cmdutil.SourcesBackend(cmdutil.SourcesOver))
		rep = be
	} else if client, _, err = a.Backend(ctx, &a.AWS); err == nil {
		rep = a.Reporter(client)
	}
	if err != nil {
		return cmdutil.BackendFailure(stderr, "report", err)
	}
	// The backend's clock: the emulator's may be moved.
	now := client.Now(ctx).UTC()
	from, to, capped, err := win.resolve(now)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "report", err)
	}
	if capped {
		fmt.Fprintf(stderr, "gpublock report: the window ends now, %s: nothing has been paid or used later yet\n", now.Format(model.LayoutMinuteZone))
	}
	// A window that ends now is asked as one: what is paid up to the instant each account is
	// read is in it, whatever its clock says by then.
	endsNow, ask := to.Equal(now), to
	if endsNow {
		ask = time.Time{}
	}
	in, err := rep.Report(ctx, regions, from, ask)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "gpublock report: cancelled")
			return 1
		}
		fmt.Fprintf(stderr, "gpublock report: nothing could be read: %s\n", awsapi.ExplainError(err))
		return 1
	}
	if in.Now.IsZero() {
		in.Now = now
	}
	if endsNow {
		to = in.Now
	}
	in.From, in.To, in.TagKeys = from, to, keys
	cat, err := a.Catalog()
	if err != nil {
		// The embedded figures are still there; the cache that could not be read is named.
		fmt.Fprintln(stderr, "gpublock report: prices:", err)
	}
	pricing.PriceReport(cat, &in)
	r := report.Build(in)
	for _, p := range r.Problems {
		fmt.Fprintln(stderr, "gpublock report: not read:", p)
	}
	if format == "csv" {
		// The CSV's rows count them; the sentence that names them has no place there.
		if w := r.UnknownWords(); w != "" {
			fmt.Fprintln(stderr, "gpublock report:", w)
		}
	}
	if err := write(stdout, r, format); err != nil {
		fmt.Fprintln(stderr, "gpublock report:", err)
		return 1
	}
	if a.SVG != "" {
		path, err := writeSVG(a.SVG, r, a.Force)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock report: --svg %s: %s\n", a.SVG, err)
			return 1
		}
		fmt.Fprintf(stderr, "gpublock report: wrote the charts to %s\n", path)
	}
	return 0
}

func write(w io.Writer, r report.Report, format cmdutil.OutputFormat) error {
	switch format {
	case "json":
		return report.WriteJSON(w, r)
	case "csv":
		return report.WriteCSV(w, r)
	}
	return report.WriteTable(w, r)
}

// tagKeys reads --by-tag: comma-separated keys, each once, in the order given.
func tagKeys(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
			return nil, cmdutil.Usagef("--by-tag %q: an empty key in the list; want KEY[,KEY...] such as team,project", s)
		case len(k) > 128:
			return nil, cmdutil.Usagef("--by-tag: the key %.20q… is longer than AWS's 128 characters", k)
		case !slices.Contains(out, k):
			out = append(out, k)
		}
	}
	return out, nil
}
