// Package order is `gpublock order`: place an order (capacity wanted and the most to pay
// for it), list the orders with what their last search found, and cancel one. Watchers
// (blocks --watch, gpublock watch) fill them.
package order

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/handoff"
)

// Options are what `gpublock order` runs with.
type Options struct {
	IO      *cmdutil.IOStreams
	Backend cmdutil.BackendFunc
	Config  config.Loader

	offerings.Options             // the search the order repeats
	perAccel, perInstance, maxFee string
	expires                       string
	approveCmd, onRefusal         string
	tags                          cmdutil.TagFlag
	then                          []string
	image                         string
	launchCount                   int
	handoffFor, handoffFile       string
	list                          bool
	cancel                        string
	yes                           bool
}

var orderLong = "Places an order: the capacity you need (the flags of gpublock offerings) and the most you\n" +
	"will pay for it (exactly one of --max-per-accelerator-hour, --max-per-instance-hour, --max-fee),\n" +
	"until --expires. Every watcher (gpublock blocks --watch, gpublock watch) searches for every open\n" +
	"order at AWS's pace, and buys one offering for it, once, by this rule:\n  " +
	strings.Replace(model.OrderRule, " (a block's", "\n  (a block's", 1) + ".\n\n" +
	"The offering is asked of AWS again, put to --approve-cmd, and bought through the same path as\n" +
	"gpublock purchase (the spending cap, read-only mode, the journal and its request tag). A watcher\n" +
	"claims the order before buying, so two watchers buy it once; one killed mid-purchase is settled\n" +
	"from AWS by the purchase's request tag, never bought again.\n\n" +
	"Placing asks to type buy after showing the worst case: the most the order can cost (the ceiling\n" +
	"on its largest block, never above --max-spend). Rates are per hour of the usable hours: a block's\n" +
	"instances stop 30 minutes before its end.\n\n" +
	"order --list shows each order's state, its last search, the best offering seen against its\n" +
	"ceiling and why nothing was bought; order --cancel ID cancels an open order.\n\n" +
	"Exit status: 0 placed, listed or cancelled; 1 not placed or not cancelled; 2 bad usage."

// NewCmdOrder is `gpublock order`; runF, when not nil, is given the options instead of
// running them.
func NewCmdOrder(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Config: f.Config, tags: cmdutil.TagFlag{}}
	a.Options.IO, a.Options.Backend = f.IOStreams, f.Backend
	cmd := &cobra.Command{
		Use:   "order",
		Short: "order capacity under a price ceiling: watchers buy it once, when it is offered",
		Long:  orderLong,
		Example: "  gpublock order --type p5.48xlarge,p5en.48xlarge --count 2 --duration 2d-4d --region all \\\n" +
			"    --max-per-accelerator-hour 4.50 --expires +5d --max-spend 20000 --approve-cmd ./approve.sh\n" +
			"  gpublock order --list\n" +
			"  gpublock order --cancel ord-0123456789ab",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a.AWS = *f.AWS
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(run(cmd.Context(), a, cmd))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.Output, "table", "json")
	a.RegisterQuery(fs)
	fs.StringVar(&a.perAccel, "max-per-accelerator-hour", "", "ceiling: the most `dollars` per accelerator-hour of the usable hours (e.g. 4.50)")
	fs.StringVar(&a.perInstance, "max-per-instance-hour", "", "ceiling: the most `dollars` per instance-hour of the usable hours (e.g. 36)")
	fs.StringVar(&a.maxFee, "max-fee", "", "ceiling: the most `dollars` for the whole upfront fee (e.g. 20000)")
	fs.StringVar(&a.expires, "expires", "+7d", "when the order lapses unbought: a `DATE` or +5d/+36h")
	fs.StringVar(&a.approveCmd, "approve-cmd", "", "ask this shell `command` before buying (the offering as JSON on stdin); only exit 0 within 2 minutes approves")
	fs.StringVar(&a.onRefusal, "on-refusal", "keep", "when --approve-cmd refuses: `keep` the order open for the next offering, or close it")
	fs.Var(a.tags, "tag", "tag `KEY=VALUE` for the reservation bought (repeatable, or several: team=ml,project=llm)")
	fs.StringSliceVar(&a.then, "then", nil, "once bought: `launch` (attach a launch at the block's start; needs --image), handoff (needs --handoff-for and --handoff-file), notify (every fill is notified to the watcher's --notify-cmd and --notify-url anyway)")
	fs.StringVar(&a.image, "image", "", "with --then launch: the `AMI` to launch at the start")
	fs.IntVar(&a.launchCount, "launch-count", 0, "with --then launch: how many instances (default: the block's count)")
	fs.StringVar(&a.handoffFor, "handoff-for", "", "with --then handoff: the `tool` whose file to write ("+toolNames()+")")
	fs.StringVar(&a.handoffFile, "handoff-file", "", "with --then handoff: the `file` to write it to")
	fs.BoolVar(&a.list, "list", false, "list the orders: state, last search, best offering seen against the ceiling, why nothing was bought")
	fs.StringVar(&a.cancel, "cancel", "", "cancel the open order `ID`")
	fs.BoolVar(&a.yes, "yes", false, "place without asking to type buy (for scripts)")
	return cmd
}

func toolNames() string {
	var out []string
	for _, t := range handoff.Tools() {
		out = append(out, string(t))
	}
	return strings.Join(out, ", ")
}

func run(ctx context.Context, a *Options, cmd *cobra.Command) int {
	stderr := a.IO.ErrOut
	format, err := cmdutil.TableOrJSONFormat(a.Output)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "order", err)
	}
	placing := slices.ContainsFunc([]string{"type", "duration", "max-per-accelerator-hour", "max-per-instance-hour", "max-fee", "approve-cmd", "then", "tag", "expires"},
		func(n string) bool { return cmd.Flags().Changed(n) })
	switch {
	case a.list && a.cancel != "":
		return cmdutil.ReportUsage(stderr, "order", cmdutil.Usagef("--list and --cancel go alone"))
	case (a.list || a.cancel != "") && placing:
		return cmdutil.ReportUsage(stderr, "order", cmdutil.Usagef("--list and --cancel take no order flags"))
	case a.list:
		return a.runList(ctx, format)
	case a.cancel != "":
		return a.runCancel(ctx)
	}
	return a.runPlace(ctx, format)
}

// open is the client and the book of its backend and account.
func (a *Options) open(ctx context.Context, cmd string) (*awsapi.Client, cmdutil.BackendInfo, orders.Book, int, bool) {
	client, info, err := a.Backend(ctx, &a.AWS)
	if err != nil {
		return nil, info, orders.Book{}, cmdutil.BackendFailure(a.IO.ErrOut, cmd, err), false
	}
	book, err := orders.Open(ctx, client)
	if err != nil {
		fmt.Fprintf(a.IO.ErrOut, "gpublock %s: %s\n", cmd, client.ExplainError(err))
		return nil, info, orders.Book{}, 1, false
	}
	return client, info, book, 0, true
}

// order reads the flags into an order at now (the backend's clock).
func (a *Options) order(client *awsapi.Client, now time.Time) (model.Order, error) {
	var o model.Order
	if strings.TrimSpace(a.Types) == "" || strings.TrimSpace(a.Duration) == "" {
		return o, cmdutil.Usagef("an order needs --type and --duration (as gpublock offerings), and a ceiling")
	}
	q, err := a.SourcedQuery(now)
	if err != nil {
		return o, err
	}
	if len(q.Regions) == 0 {
		if err := a.AWS.DefaultRegionError(client.Region()); err != nil {
			return o, err
		}
		q.Regions = []string{client.Region()}
	}
	if err := cmdutil.ValidateQuery(q, now); err != nil {
		return o, err
	}
	o.Query = q
	if o.Ceiling, err = a.ceiling(); err != nil {
		return o, err
	}
	if o.Expires, err = model.ParseDate(a.expires, now); err != nil {
		return o, cmdutil.Usagef("--expires: %v", err)
	}
	o.MaxSpend = a.AWS.SpendCap()
	o.ApproveCmd = strings.TrimSpace(a.approveCmd)
	switch a.onRefusal {
	case "keep":
	case "close":
		o.CloseOnRefusal = true
	default:
		return o, cmdutil.Usagef("--on-refusal %q: keep or close", a.onRefusal)
	}
	if o.ApproveCmd == "" && a.onRefusal != "keep" {
		return o, cmdutil.Usagef("--on-refusal goes with --approve-cmd")
	}
	if len(a.tags) > 0 {
		o.Tags = a.tags
	}
	if o.Then, err = a.thenFlags(); err != nil {
		return o, err
	}
	if err := orders.Check(o, now); err != nil {
		return o, cmdutil.Usagef("%v", err)
	}
	return o, nil
}

// ceiling is the one ceiling flag given.
func (a *Options) ceiling() (model.Ceiling, error) {
	var given []model.Ceiling
	for _, f := range []struct {
		kind  model.CeilingKind
		flag  string
		value string
	}{{model.PerAcceleratorHour, "--max-per-accelerator-hour", a.perAccel}, {model.PerInstanceHour, "--max-per-instance-hour", a.perInstance}, {model.TotalFee, "--max-fee", a.maxFee}} {
		if f.value == "" {
			continue
		}
		m, err := model.ParseMoney(strings.TrimPrefix(f.value, "$"))
		if err != nil || m.Cmp(model.Money{}) <= 0 {
			return model.Ceiling{}, cmdutil.Usagef("%s %q: want an amount of dollars above zero, such as 4.50", f.flag, f.value)
		}
		given = append(given, model.Ceiling{Kind: f.kind, Amount: m})
	}
	if len(given) != 1 {
		return model.Ceiling{}, cmdutil.Usagef("give exactly one ceiling: --max-per-accelerator-hour, --max-per-instance-hour or --max-fee")
	}
	return given[0], nil
}

func (a *Options) thenFlags() (model.OrderThen, error) {
	var t model.OrderThen
	for _, w := range a.then {
		switch strings.ToLower(strings.TrimSpace(w)) {
		case "launch":
			t.Launch = true
		case "handoff":
			t.Handoff = true
		case "notify":
			t.Notify = true
		default:
			return t, cmdutil.Usagef("--then %q: launch, handoff or notify", w)
		}
	}
	if t.Launch {
		if strings.TrimSpace(a.image) == "" {
			return t, cmdutil.Usagef("--then launch needs --image AMI_ID")
		}
		if a.launchCount < 0 || a.launchCount > model.MaxCount {
			return t, cmdutil.Usagef("--launch-count %d: 1 to %d", a.launchCount, model.MaxCount)
		}
		t.ImageID, t.LaunchCount = strings.TrimSpace(a.image), a.launchCount
	} else if a.image != "" || a.launchCount != 0 {
		return t, cmdutil.Usagef("--image and --launch-count go with --then launch")
	}
	if t.Handoff {
		tool, err := handoff.ParseTool(a.handoffFor)
		if err != nil {
			return t, cmdutil.Usagef("--handoff-for: %v", err)
		}
		if strings.TrimSpace(a.handoffFile) == "" {
			return t, cmdutil.Usagef("--then handoff needs --handoff-file PATH")
		}
		t.HandoffTool, t.HandoffPath = string(tool), a.handoffFile
	} else if a.handoffFor != "" || a.handoffFile != "" {
		return t, cmdutil.Usagef("--handoff-for and --handoff-file go with --then handoff")
	}
	return t, nil
}

func (a *Options) runPlace(ctx context.Context, format cmdutil.OutputFormat) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	// An order searches many regions, as offerings does; it is bought in one account.
	if err := a.AWS.OneAccount(); err != nil {
		return cmdutil.ReportUsage(stderr, "order", err)
	}
	if err := a.AWS.Validate(); err != nil {
		return cmdutil.ReportUsage(stderr, "order", err)
	}
	if _, err := a.ceiling(); err != nil {
		return cmdutil.ReportUsage(stderr, "order", err)
	}
	if code, refused := spending.RefuseSpending(a.IO, a.Config, "order", "buy", "ordered", &a.AWS, a.yes, false); refused {
		return code
	}
	client, info, book, code, ok := a.open(ctx, "order")
	if !ok {
		return code
	}
	now := client.Now(ctx)
	o, err := a.order(client, now)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "order", err)
	}
	id, err := client.Identity(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock order: cannot tell which account would pay: %s; nothing was ordered.\n", client.ExplainError(err))
		return 1
	}
	spending.SummaryHead(stderr, "ORDER", info)
	spending.PrintFacts(stderr, model.OrderFacts(o, id.Account, now, time.Local))
	if !spending.Confirmed(ctx, a.IO, "order", a.yes, "Place this order?", "buy", "ordered") {
		return 1
	}
	o, err = book.Place(o, now)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock order: not placed: %s\n", client.ExplainError(err))
		return 1
	}
	if format == "json" {
		if err := printers.JSON(stdout, o); err != nil {
			return 1
		}
	} else {
		fmt.Fprintf(stdout, "%s\topen\texpires %s\n", o.ID, printers.BothTimes(o.Expires))
	}
	fmt.Fprintf(stderr, "gpublock order: placed %s. Watchers fill it: %s (or gpublock watch); see %s.\n", o.ID,
		client.NextStep("blocks", "", "--watch"), client.NextStep("order", "", "--list"))
	return 0
}

func (a *Options) runCancel(ctx context.Context) int {
	client, _, book, code, ok := a.open(ctx, "order")
	if !ok {
		return code
	}
	o, err := book.Cancel(strings.TrimSpace(a.cancel), client.Now(ctx))
	if err != nil {
		fmt.Fprintf(a.IO.ErrOut, "gpublock order: not cancelled: %v\n", err)
		return 1
	}
	fmt.Fprintf(a.IO.Out, "%s\tcancelled\n", o.ID)
	return 0
}

func (a *Options) runList(ctx context.Context, format cmdutil.OutputFormat) int {
	client, _, book, code, ok := a.open(ctx, "order")
	if !ok {
		return code
	}
	os, err := book.List()
	if err != nil {
		fmt.Fprintf(a.IO.ErrOut, "gpublock order: %v\n", err)
		return 1
	}
	if format == "json" {
		if os == nil {
			os = []model.Order{}
		}
		if err := printers.JSON(a.IO.Out, os); err != nil {
			return 1
		}
		return 0
	}
	if len(os) == 0 {
		fmt.Fprintln(a.IO.ErrOut, "gpublock order: no orders")
		return 0
	}
	PrintList(a.IO.Out, os, client.Now(ctx))
	return 0
}

// PrintList is the orders as a table: each order's truth in one row, then what it bought
// or why it has not.
func PrintList(w io.Writer, os []model.Order, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tWANTS\tCEILING\tEXPIRES\tLAST SEARCH\tBEST SEEN\tNOTE")
	for _, o := range os {
		wants := fmt.Sprintf("%s × %d, %s", strings.Join(o.Query.InstanceTypes, "|"), o.Query.Count, o.Query.Durations)
		expires := o.Expires.UTC().Format(model.LayoutMinuteZone)
		if o.State.Live() {
			expires = "in " + model.ShortSpan(o.Expires.Sub(now))
		}
		last, best := "-", "-"
		if !o.LastSearch.IsZero() {
			last = model.ShortSpan(now.Sub(o.LastSearch)) + " ago, " + fmt.Sprint(o.Seen) + " seen"
		}
		if o.Best != nil {
			mark := "above"
			if o.Best.Within {
				mark = "within"
			}
			best = fmt.Sprintf("%s/accel-h %s (%s, %s %s) %s", o.Best.Rate.Rate(), o.Best.Fee.Dollars(), o.Best.InstanceType, o.Best.AvailabilityZone, o.Best.Start.UTC().Format(model.LayoutDay), mark)
		}
		note := model.OrderNote(o)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.ID, o.State, wants, o.Ceiling, expires, last, best, note)
	}
	_ = tw.Flush()
}
