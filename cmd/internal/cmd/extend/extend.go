package extend

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

const extendLong = "Lengthens a Capacity Block (or, with --source training-plans, a training plan).\n\n" +
	"--list asks AWS for every length at once (1d–14d, then whole weeks up to the 182-day total) and prints\n" +
	"those offered now, with the fee, the new end and the break-even; it buys nothing.\n" +
	"Lists the block's extension offering for D (1d–14d, or 3w–26w), shows the new end, the fee and its\n" +
	"break-even against on-demand, and buys it once extend is typed. Active and scheduled blocks can be\n" +
	"extended from 56 days until 1 hour before their end. --dry-run checks permission only.\n\n" +
	"Interrupted purchases and extensions in the region are settled first; when an interrupted run\n" +
	"already extended the block by D, it says so and buys nothing new (--again extends it again).\n\n" +
	"Exit status: 0 extended (also when the reply was lost and the extension found in the block's history,\n" +
	"or when an interrupted run had extended it),\n" +
	"1 not extended, 2 bad usage or no terminal to confirm on without --yes, 3 outcome unknown: do not extend again."

// Options are what `gpublock extend` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend cmdutil.BackendFunc
	// Config reads the configuration file, whose spending rules hold here too.
	Config config.Loader
	// Args are the positional arguments: the one id.
	Args []string

	aws         cmdutil.AWSFlags
	output      string
	duration    string
	dryRun, yes bool
	again       bool
	list        bool
	src         cmdutil.SourceFlags // --source
}

// NewCmdExtend is `gpublock extend`; runF, when not nil, is given the options instead of
// running them.
func NewCmdExtend(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Config: f.Config}
	cmd := &cobra.Command{
		Use:   "extend RESERVATION_ID",
		Short: "lengthen a Capacity Block or a Training Plan, after a typed confirmation",
		Long:  extendLong,
		Example: "  gpublock extend cr-0123456789abcdef0 --region us-east-1 --list\n" +
			"  gpublock extend cr-0123456789abcdef0 --region us-east-1 --duration 1d\n" +
			"  gpublock extend cr-0123456789abcdef0 --region us-east-1 --duration 3w --max-spend 90000 --yes -o json\n" +
			"  gpublock extend my-plan --source training-plans --region us-east-1 --duration 7d",
		Args: cmdutil.ExactlyOne(func(cmd *cobra.Command) string {
			if src, err := a.src.One(); err == nil {
				if show, ok := extendShows[src]; ok {
					return show.args
				}
			}
			return extendShows[model.SourceCapacityBlock].args
		}),
		Annotations: map[string]string{cmdutil.AnnotationOneRegion: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.aws = *f.AWS
			a.Args = args
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(extendRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.output, "table", "json")
	fs.StringVar(&a.duration, "duration", "", "`length` to add: 1d–14d or 3w–26w (e.g. 1d, 48h, 3w)")
	fs.BoolVar(&a.dryRun, "dry-run", false, "only check permission to extend (ec2:PurchaseCapacityBlockExtension); buy nothing")
	fs.BoolVar(&a.yes, "yes", false, "extend without asking to type extend (for scripts)")
	fs.BoolVar(&a.again, "again", false, "extend even though an interrupted run already extended this block by this length (asks to type again; --yes answers for you)")
	fs.BoolVar(&a.list, "list", false, "list every extension length offered now, with its fee, new end and break-even; buy nothing")
	a.src.RegisterOne(fs)
	return cmd
}

// extendRun extends the block pos[0] once the flags say so (cobra has parsed them).
func extendRun(ctx context.Context, a *Options) int {
	pos, ios := a.Args, a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	srcID, err := a.src.One()
	if err != nil {
		return cmdutil.ReportUsage(stderr, "extend", err)
	}
	show, ok := extendShows[srcID]
	if !ok {
		return cmdutil.ReportUsage(stderr, "extend", cmdutil.Usagef("--source %s: the command line does not extend %s", srcID.Name(), srcID.Plural()))
	}
	reservationID, days, format, err := show.check(a, pos)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "extend", err)
	}
	if a.list {
		return show.list(ctx, a, reservationID, format, stdout, stderr)
	}
	if code, refused := spending.RefuseSpending(ios, a.Config, "extend", "extend", "extended", &a.aws, a.yes, a.dryRun); refused {
		return code
	}

	client, info, err := a.Backend(ctx, &a.aws)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "extend", err)
	}
	src, err := cmdutil.OpenSource(client, srcID)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "extend", err)
	}
	region := a.aws.OneRegion(client)
	b, err := show.find(ctx, client, src, region, reservationID)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock extend: %v Nothing was extended.\n", err)
		return 1
	}
	if refusal := show.refuse(client, b, client.Now(ctx)); refusal != "" {
		fmt.Fprintf(stderr, "gpublock extend: %s Nothing was extended.\n", refusal)
		return 1
	}
	in := source.Intent{Kind: source.SpendExtend, Block: b, Extension: model.ExtensionOffering{DurationHours: days * 24}, CheckOnly: a.dryRun, Again: a.again,
		// After settling: an interrupted extension has moved the block's end.
		Lookup: func(ctx context.Context, in *source.Intent) error {
			offs, err := src.ExtensionOfferings(ctx, b, days)
			switch {
			case err != nil:
				return fmt.Errorf("the extension offerings of %s could not be listed: %s Nothing was extended.", b.ReservationID, client.ExplainError(err))
			case len(offs) == 0:
				return fmt.Errorf("%s Try another length%s, or later. Nothing was extended.", show.noOffers(b, days), show.tryList)
			}
			in.Extension = model.CheapestExtension(offs)
			return nil
		}}
	p, code, ok := spending.Prepare(ctx, stderr, "extend", client, src, in)
	if !ok {
		return code
	}
	off := p.Intent.Extension
	show.summary(stderr, info, p.Account, b, off)
	if a.dryRun {
		return spending.PrintPermission(stdout, stderr, "extend", format, p.Permission, show.dryRunFields(b, off),
			fmt.Sprintf("This identity may call %s for %s in %s.", p.Permission.Action, b.ReservationID, b.Region), "extended")
	}
	spending.PermissionLine(stderr, p)
	if !spending.Confirmed(ctx, ios, "extend", a.yes, "Extend this "+show.what+"?", "extend", "extended") {
		return 1
	}
	if p.Earlier != nil && !spending.ConfirmAgain(ctx, ios, "extend", a.yes,
		fmt.Sprintf("An interrupted run already extended %s by %s. --again extends it a second time.", b.ReservationID, model.FormatDays(days)),
		"Extend it AGAIN?", "extended") {
		return 1
	}
	res, err := cmdutil.SpendPath(client).Commit(ctx, p)
	if err != nil {
		return spending.NotDone(stderr, "extend", "NOT EXTENDED", client, err)
	}
	spending.JournalWarning(stderr, "extend", res.JournalErr)
	if res.Recovered {
		fmt.Fprintf(stderr, "The reply to the extension was lost. The %s's extension history lists offering %s: it is extended, once.\n", show.holder, off.ID)
	}
	if err := show.print(stdout, format, b, off, res); err != nil {
		fmt.Fprintln(stderr, "gpublock extend:", err)
		return 1
	}
	return 0
}

// extendShow is what an extension of one source shows and checks in the source's own
// words and formats; the flow is runExtend's, one for all.
type extendShow struct {
	what    string // in the question: "Capacity Block", "training plan"
	holder  string // whose extension history: "block", "plan"
	tryList string // how to see the other lengths, after "Try another length"
	args    string // the positional argument, in the usage error
	check   func(a *Options, pos []string) (id string, days int, format cmdutil.OutputFormat, err error)
	list    func(ctx context.Context, a *Options, id string, format cmdutil.OutputFormat, stdout, stderr io.Writer) int
	// find is the reservation, or why not, before " Nothing was extended."
	find func(ctx context.Context, client *awsapi.Client, src source.Source, region, id string) (model.Block, error)
	// refuse is why the reservation cannot be extended at now (the backend's clock), or
	// "", before any call.
	refuse       func(client *awsapi.Client, b model.Block, now time.Time) string
	noOffers     func(b model.Block, days int) string
	summary      func(w io.Writer, info cmdutil.BackendInfo, account string, b model.Block, off model.ExtensionOffering)
	dryRunFields func(b model.Block, off model.ExtensionOffering) map[string]any
	print        func(w io.Writer, format cmdutil.OutputFormat, b model.Block, off model.ExtensionOffering, res source.ExtendResult) error
}

var extendShows = map[model.Source]extendShow{
	model.SourceCapacityBlock: {
		what: "Capacity Block", holder: "block", args: "RESERVATION_ID (cr-…, from `gpublock blocks`)",
		check: func(a *Options, pos []string) (string, int, cmdutil.OutputFormat, error) { return a.check(pos) },
		list: func(ctx context.Context, a *Options, id string, format cmdutil.OutputFormat, stdout, stderr io.Writer) int {
			return a.runExtendList(ctx, id, format, stdout, stderr)
		},
		find: func(ctx context.Context, client *awsapi.Client, _ source.Source, region, id string) (model.Block, error) {
			return spending.FindBlock(ctx, client, region, id)
		},
		refuse: func(client *awsapi.Client, b model.Block, now time.Time) string {
			if r := model.ExtendBlockerAt(b, now); r != nil {
				return r.Reason + ". " + extendHint(client, b.Region, r)
			}
			return ""
		},
		noOffers: func(b model.Block, days int) string {
			return fmt.Sprintf("AWS offers no %s extension of %s now (no capacity in %s after its end).", model.FormatDays(days), b.ReservationID, b.AvailabilityZone)
		},
		summary: func(w io.Writer, info cmdutil.BackendInfo, account string, b model.Block, off model.ExtensionOffering) {
			printExtensionSummary(w, info, account, b, off, extensionComparison(b, off))
		},
		dryRunFields: func(b model.Block, off model.ExtensionOffering) map[string]any {
			return map[string]any{"CapacityBlockExtensionOfferingId": off.ID, "CapacityReservationId": b.ReservationID, "Region": b.Region}
		},
		print: printExtension,
	},
	model.SourceTrainingPlan: planExtendShow,
}

// check reads what can be checked before any call.
func (a *Options) check(pos []string) (string, int, cmdutil.OutputFormat, error) {
	id := strings.TrimSpace(pos[0])
	if !strings.HasPrefix(id, "cr-") || strings.ContainsAny(id, " \t\n") || len(id) > 128 {
		return "", 0, "", cmdutil.Usagef("RESERVATION_ID %q: want a capacity reservation id such as cr-0123456789abcdef0 (a training plan: add --source training-plans)", pos[0])
	}
	format, err := cmdutil.TableOrJSONFormat(a.output)
	if err != nil {
		return "", 0, "", err
	}
	if a.list {
		if a.duration != "" || a.dryRun || a.yes {
			return "", 0, "", cmdutil.Usagef("--list buys nothing: it takes no --duration, --dry-run or --yes")
		}
		return id, 0, format, a.aws.CheckSpending()
	}
	if strings.TrimSpace(a.duration) == "" {
		return "", 0, "", cmdutil.Usagef("--duration is required: the length to add, e.g. 1d, 2d or 3w (--list shows those offered)")
	}
	days, err := model.ParseLength(a.duration)
	if err != nil {
		return "", 0, "", cmdutil.Usagef("--duration: %v", err)
	}
	if err := a.aws.CheckSpending(); err != nil {
		return "", 0, "", err
	}
	return id, days, format, nil
}

// extensionComparison prices the added hours against on-demand, as if they were a block
// of their own: that is what the fee buys.
func extensionComparison(b model.Block, off model.ExtensionOffering) pricing.Comparison {
	return pricing.CompareExtension(cmdutil.PriceCatalog(), off.AsOffering(b))
}

func printExtensionSummary(w io.Writer, info cmdutil.BackendInfo, account string, b model.Block, off model.ExtensionOffering, cmp pricing.Comparison) {
	spending.SummaryHead(w, "EXTEND", info)
	spending.PrintFacts(w, model.ExtensionFacts(b, off, account, cmp.BreakEven(), time.Local))
}

// extensionStatus says what the status means for the end date: AWS moves it only once
// the extension is paid.
func extensionStatus(st model.ExtensionStatus) string {
	switch st {
	case model.ExtensionPaymentPending:
		return string(st) + " (the block's end moves once the payment succeeds, usually within minutes)"
	case model.ExtensionPaymentFailed:
		return string(st) + " (the payment failed: the block keeps its old end)"
	}
	return string(st)
}

// ExtensionJSON has the AWS CLI's purchase-capacity-block-extension field names.
type ExtensionJSON struct {
	CapacityReservationId               string
	CapacityBlockExtensionOfferingId    string
	InstanceType                        string
	InstanceCount                       int
	AvailabilityZone                    string
	CapacityBlockExtensionStatus        string
	CapacityBlockExtensionPurchaseDate  string `json:",omitempty"`
	CapacityBlockExtensionStartDate     string
	CapacityBlockExtensionEndDate       string
	CapacityBlockExtensionDurationHours int
	UpfrontFee                          string
	CurrencyCode                        string
}

func printExtension(w io.Writer, format cmdutil.OutputFormat, b model.Block, off model.ExtensionOffering, res source.ExtendResult) error {
	e := res.Extension
	if e.OfferingID == "" {
		e.OfferingID = off.ID
	}
	start, end := e.Start, e.End
	if start.IsZero() {
		start, end = off.Start, off.End
	}
	// The fee is the offering's: the one shown and confirmed, exact.
	fee, currency := off.Fee, off.Currency
	if currency == "" {
		currency = "USD"
	}
	if format == "json" {
		return printers.JSON(w, struct {
			CapacityBlockExtension ExtensionJSON
			Region                 string
			NewEndDate             string
			GpublockRequestId      string
			FoundInHistory         bool
		}{
			CapacityBlockExtension: ExtensionJSON{CapacityReservationId: b.ReservationID, CapacityBlockExtensionOfferingId: e.OfferingID,
				InstanceType: b.InstanceType, InstanceCount: off.Count, AvailabilityZone: b.AvailabilityZone,
				CapacityBlockExtensionStatus: string(e.Status), CapacityBlockExtensionPurchaseDate: printers.RFC3339(e.PurchaseDate),
				CapacityBlockExtensionStartDate: printers.RFC3339(start), CapacityBlockExtensionEndDate: printers.RFC3339(end),
				CapacityBlockExtensionDurationHours: off.DurationHours, UpfrontFee: fee.String(), CurrencyCode: currency},
			Region: b.Region, NewEndDate: printers.RFC3339(end), GpublockRequestId: res.RequestID, FoundInHistory: res.Recovered,
		})
	}
	rows := [][2]string{
		{"Reservation", b.ReservationID},
		{"Extension", e.OfferingID},
		{"Status", extensionStatus(e.Status)},
		{"Region", b.Region},
		{"Zone", b.AvailabilityZone},
		{"Capacity", fmt.Sprintf("%s × %d", b.InstanceType, b.TotalCount)},
		{"Added", model.HoursMinutes(int64(off.DurationHours) * 60)},
		{"New end", printers.BothTimes(end)},
		{"Upfront fee", model.ExactFee(fee, currency)},
		{"Journal id", res.RequestID},
	}
	if res.Recovered {
		rows = append(rows, [2]string{"Confirmed", "found in the block's extension history after the reply was lost"})
	}
	return printers.Rows(w, rows)
}

// extendHint is the refusal's advice with the command that does it, against the backend
// and region of the block.
func extendHint(client *awsapi.Client, region string, r *model.ExtendRefusal) string {
	switch r.Problem {
	case model.ExtendNotPaid:
		return "It can be extended once `" + client.NextStep("blocks", region) + "` shows it scheduled or active."
	case model.ExtendOver:
		return "Buy a new block instead (" + client.NextStep("offerings", region) + ")."
	}
	return r.Hint
}
