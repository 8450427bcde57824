package blocks

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// ExitWarning is the exit status of `blocks --warn-within` when a block ends soon.
const ExitWarning = 3

// minWatchInterval keeps --watch from hammering the API: a refresh makes five calls per region.
const minWatchInterval = time.Second

const blocksLong = "Lists the account's Capacity Blocks: each block's state, zone, type and count, start, end,\n" +
	"time left and warnings.\n\n" +
	"Every region that sells Capacity Blocks is listed unless --region narrows it; with --watch a\n" +
	"region found without blocks is listed again every 5 minutes, the others on every refresh.\n" +
	"Each block's warnings (EXTEND BY from each --warn-leads lead until AWS's 1-hour cutoff, CAN'T\n" +
	"EXTEND, AWS's expiration warning at 40 minutes, termination from 30, capacity and interconnect\n" +
	"problems, a payment pending past an hour) are in the table and the JSON; --notify-cmd and\n" +
	"--notify-url receive each new warning once per block and lead (remembered between runs,\n" +
	"and by runs at once: one sends it); one that failed is tried again by the next run. A\n" +
	"one-shot run waits at most 10 s for deliveries (5 s an attempt); a redirect is a failure.\n" +
	"--auto-extend LENGTH (with --watch) extends a block that still runs instances, or carries the tag\n" +
	"gpublock:auto-extend=true, once it reaches an EXTEND BY lead, within --max-spend, through the spend\n" +
	"path of gpublock extend, at most once per block and lead (the journal remembers); --approve-cmd\n" +
	"is asked first (exit 0 approves). Each decision, taken or declined, is on stderr, in the journal and\n" +
	"notified.\n" +
	"With --watch, every refresh also fills the open orders (gpublock order): each is searched for\n" +
	"at most every 5 minutes, and bought once when an offering is within its ceiling.\n" +
	"--watch reprints the list on every refresh until interrupted (Ctrl-C); with -o json or csv\n" +
	"each refresh prints a whole document; in a table each refresh's first line names the regions\n" +
	"that failed. --warn-within D names on stderr every active block whose --warn-of moment comes\n" +
	"within D or has passed (one line each: reservation, region, type × count, end UTC, time left,\n" +
	"and the moment), for cron and monitoring. The moment is, by default, the extension cutoff\n" +
	"(1 hour before the end, the earliest: past it the block cannot be extended); --warn-of\n" +
	"termination measures to the instances' termination (30 minutes before the end), --warn-of\n" +
	"end to the end itself.\n" +
	"Training plans listed with --source get the same warnings, exit status and notifications:\n" +
	"a plan's end stops its jobs, and the block's earlier times are kept for it.\n" +
	"Instances are terminated from 30 minutes before the end. A region that fails is named on\n" +
	"stderr and the blocks of the others are still printed; when every region fails, stdout\n" +
	"stays empty (no header, no []).\n" +
	"Several accounts (--profile a,b, or the configuration file's accounts) are listed together:\n" +
	"the table and the CSV gain an ACCOUNT column, the JSON has each block's Account, and the\n" +
	"warnings name the account. An account that fails is named on stderr and the others are still\n" +
	"printed (exit 1). With organization: true in the configuration file, a line under the table\n" +
	"states the most Capacity Block instances the organization holds on any date against AWS's cap\n" +
	"of 256 across it (with -o json or csv, on stderr).\n\n" +
	"Exit status: 0 ok (every region answered whole, and no block's --warn-of moment is within\n" +
	"--warn-within); 1 failure (a region failed or some of its details are missing, so the list\n" +
	"is incomplete; or an output error; or the record of notifications sent cannot be written);\n" +
	"2 bad usage; 3 warning: an active block's --warn-of moment is within --warn-within or past\n" +
	"(this wins over a failed region). With --watch the status is that of the last refresh\n" +
	"before the interruption."

// Options are what `gpublock blocks` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend cmdutil.BackendFunc
	// Config reads the configuration file, whose on-call keys the flags lay over.
	Config config.Loader
	// Notify bounds the delivery of the warnings' notifications.
	Notify cmdutil.NotifyTimings

	aws        cmdutil.AWSFlags
	output     string
	watch      bool
	interval   time.Duration
	warnWithin time.Duration
	warnOf     string
	src        cmdutil.SourceFlags // --source
	moment     model.WarnMoment
	// given says which of the flags that only go with another were on the command line.
	given struct{ interval, warnOf, warnWithin bool }

	oncall   cmdutil.OncallFlags
	settings cmdutil.OncallSettings
	autoFlag cmdutil.AutoExtendFlags
	auto     cmdutil.AutoExtendSettings
	extender *autoextend.Watcher // the auto-extension (autoextend.go), made once
	sources  []source.Source     // those --source names, opened once so that a watch's scans share them
	// accounts, when several accounts are listed (--profile a,b or the configuration's
	// accounts), is the backend over them, whose listing is every account's.
	accounts source.Backend
	notifier *notify.Notifier
	filler   *orders.Filler // of the orders (orders.go), made once
	mu       sync.Mutex
	reports  []string // the notifier's failures, printed by the command's own goroutine
	// service, when the watcher runs as a service (`gpublock watch`), logs its events and
	// keeps its health.
	service *service
}

// NewCmdBlocks is `gpublock blocks`; runF, when not nil, is given the options instead of
// running them.
func NewCmdBlocks(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	cmd, _ := newCmdBlocks(f, runF)
	return cmd
}

// newCmdBlocks is `gpublock blocks` and its options, which `gpublock watch` shares.
func newCmdBlocks(f *cmdutil.Factory, runF func(*Options) error) (*cobra.Command, *Options) {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Config: f.Config, Notify: f.Notify}
	cmd := &cobra.Command{
		Use:   "blocks",
		Short: "list the account's Capacity Blocks (and, with --source, Training Plans): countdowns and warnings (table, json or csv)",
		Long:  blocksLong,
		Example: "  gpublock blocks\n" +
			"  gpublock blocks --region us-east-1,us-west-2 -o json\n" +
			"  gpublock blocks --warn-within 2h --notify-url https://hooks.slack.com/services/...\n" +
			"  gpublock blocks --watch --interval 1m --warn-leads 24h,2h,40m\n" +
			"  gpublock blocks --watch --auto-extend 1d --max-spend 60000 --approve-cmd 'ask-oncall \"$GPUBLOCK_TEXT\"'\n" +
			"  gpublock blocks --source all",
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a.aws = *f.AWS
			fs := cmd.Flags()
			a.given.interval, a.given.warnOf, a.given.warnWithin = fs.Changed("interval"), fs.Changed("warn-of"), fs.Changed("warn-within")
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(blocksRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.output, "table", "json", "csv")
	fs.BoolVar(&a.watch, "watch", false, "reprint on every refresh until interrupted")
	fs.DurationVar(&a.interval, "interval", 30*time.Second, "time between refreshes with --watch (at least 1s)")
	fs.DurationVar(&a.warnWithin, "warn-within", 0, "exit 3 and name the active blocks whose --warn-of moment is within this `duration` (e.g. 45m)")
	fs.StringVar(&a.warnOf, "warn-of", model.WarnOfExtensionCutoff.String(), "the `moment` --warn-within measures to: "+
		strings.Join(model.WarnMomentNames(), ", ")+" (1 hour, 30 minutes and 0 before the end; the default is the earliest)")
	a.oncall.Register(fs)
	a.autoFlag.Register(fs)
	a.src.Register(fs, "capacity-blocks")
	return cmd, a
}

// blocksRun lists the blocks once cobra has parsed the flags.
func blocksRun(ctx context.Context, a *Options) (code int) {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	if _, _, err := a.src.Check(); err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", err)
	}
	if strings.EqualFold(strings.TrimSpace(a.output), "csv") {
		if s, ok := a.partsSource(); ok {
			return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("-o csv lists %s only; list %s with -o table or -o json", cmdutil.SourcesThat(cmdutil.NoParts), cmdutil.SourceNouns(s)))
		}
	}
	format, err := cmdutil.ParseOutputFormat(a.output)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", err)
	}
	switch {
	case a.interval < minWatchInterval:
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--interval %s: allowed 1s or more", a.interval))
	case a.warnWithin < 0:
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--warn-within %s: want a positive duration such as 45m", a.warnWithin))
	case a.given.warnOf && !a.given.warnWithin:
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--warn-of is used with --warn-within (e.g. --warn-within 45m --warn-of termination)"))
	case !a.watch && a.given.interval:
		// as in gpublock offerings: an interval that nothing uses is a mistake to point out,
		// not one to list the blocks once over
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--interval is used with --watch (e.g. --watch --interval 30s)"))
	}
	moment, err := model.ParseWarnMoment(a.warnOf)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--warn-of %v", err))
	}
	a.moment = moment
	if err := a.aws.Validate(); err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", err)
	}
	cfg, _, err := a.Config()
	if err != nil {
		fmt.Fprintln(stderr, "gpublock blocks:", err)
		return 2
	}
	a.aws.SetAccounts(cfg)
	if a.settings, err = a.oncall.Resolve(cfg.Oncall); err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", err)
	}
	if a.auto, err = a.autoFlag.Resolve(cfg.AutoExtend, a.settings.Rules, a.watch); err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", err)
	}
	if a.auto.Policy.Days > 0 && a.aws.SeveralAccounts() {
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.Usagef("--auto-extend spends in one account; give one --profile (the one that pays)"))
	}
	regions, _ := a.aws.RegionList(nil) // validated above
	var client *awsapi.Client
	if a.aws.SeveralAccounts() {
		a.accounts, client, _, err = cmdutil.OpenAccounts(ctx, &a.aws, a.Backend, cmdutil.SourcesBackend(a.sourcesOver))
	} else {
		if len(regions) == 0 {
			regions = a.aws.AccountSpecs()[0].Regions // the configuration's, for its one account
		}
		if client, _, err = a.Backend(ctx, &a.aws); err == nil {
			err = a.openSources(client)
		}
	}
	if err != nil {
		return cmdutil.BackendFailure(stderr, "blocks", err)
	}
	if len(regions) == 0 {
		// A block bought from another machine, in any region, must not go unseen.
		regions = model.Regions()
	}
	nc := a.settings.Notify
	nc.State, nc.Backoff = cmdutil.NotifyState(client), a.Notify.Backoff
	grace := cmdutil.NotifyGrace
	if !a.watch {
		// A one-shot run (cron, a person at the prompt) does not wait long for a webhook that
		// hangs: what is not delivered by then is said, and sent by the next run.
		nc.Timeout, grace = a.Notify.OneShotTimeout, a.Notify.OneShotGrace
	}
	nc.Report = func(s string) { a.mu.Lock(); a.reports = append(a.reports, s); a.mu.Unlock() }
	if a.notifier, err = notify.New(nc); err != nil {
		return cmdutil.ReportUsage(stderr, "blocks", cmdutil.UsageError{Msg: err.Error()})
	}
	defer func() {
		// The deliveries still going out get a while, then whatever failed is said.
		if ctx.Err() != nil {
			grace = min(grace, cmdutil.NotifyGrace/6) // interrupted: a person is waiting for the prompt
		}
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
		defer cancel()
		a.notifier.Close(gctx)
		a.printReports(stderr)
		// A record of warnings sent that cannot be kept means every run sends them again:
		// cron must see that something is wrong.
		if code == 0 && a.notifier.StateError() != nil {
			code = 1
		}
	}()
	if a.service != nil {
		return a.serve(ctx, client, regions)
	}
	if !a.watch {
		code, _ := a.refresh(ctx, client, regions, format, stdout, stderr)
		return code
	}
	last := 0
	for {
		code, cancelled := a.refresh(ctx, client, regions, format, stdout, stderr)
		a.printReports(stderr)
		if cancelled {
			return last
		}
		last = code
		t := time.NewTimer(a.interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return last
		case <-t.C:
		}
	}
}

// refresh lists the blocks once, prints them and the warnings, and returns the exit
// status; cancelled is true when ctx ended during the listing and nothing was printed.
func (a *Options) refresh(ctx context.Context, client *awsapi.Client, regions []string, format cmdutil.OutputFormat, stdout, stderr io.Writer) (int, bool) {
	// Said when it fails; the run then fails too, so that cron learns that the launches
	// attached to blocks cannot fire (and, below, that extensions cannot be decided).
	fireErr := cmdutil.FireAttached(ctx, client, a.notifier, func(s string) { fmt.Fprintln(stderr, "gpublock blocks:", s) })
	list, everyAccountFailed := a.list(ctx, regions)
	several := a.accounts != nil
	all := list.Blocks
	blocks, plans := splitParts(all)
	if ctx.Err() != nil {
		if !a.watch {
			fmt.Fprintln(stderr, "gpublock blocks: cancelled")
		}
		return 1, true
	}
	now := client.Now(ctx)
	lf := reportProblems(list, stderr)
	failed, partial := printers.RegionsIn(regions, lf.Failed), printers.RegionsIn(regions, lf.Partial)
	if a.watch && format == "table" {
		fmt.Fprintf(stdout, "\n%s: %s; every %s, Ctrl-C stops\n", printers.BothTimes(now), watchSummary(len(blocks), regions, lf), a.interval)
	}
	// When no region answered, stdout stays empty: an empty list would read as "no blocks".
	switch {
	case everyAccountFailed:
		fmt.Fprintf(stderr, "gpublock blocks: every account failed: %s\n", strings.Join(lf.Accounts, "; "))
		return 1, false
	case lf.NoneRead(regions):
		fmt.Fprintf(stderr, "gpublock blocks: every region failed: %s\n", strings.Join(failed, ", "))
		return 1, false
	}
	_, withParts := a.partsSource()
	facts := printers.BlockFacts{Rules: a.settings.Rules, Fees: list.Fees, Plans: plans, WithPlans: withParts, Accounts: several}
	if a.aws.Organization() {
		complete := len(failed) == 0 && len(partial) == 0 && len(lf.Accounts) == 0 && !lf.Other && a.aws.ListsOrganization()
		facts.Organization = printers.OrganizationLines(model.InstancesHeld(all), now, complete)
	}
	if err := printers.Blocks(blocks, facts, format, now, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "gpublock blocks:", err)
		return 1, false
	}
	// Blocks and plans alike, by the rules the terminal UI uses.
	for _, b := range all {
		for _, w := range a.settings.Rules.Warnings(b, now) {
			if w.Kind == model.WarnIdle && atstart.Waiting(client, b) {
				continue // its attached launch fills it at the next round: not idle
			}
			e := notify.EventOf(b, w, now)
			if several {
				e = e.NamingAccount()
			}
			a.notifier.Send(e)
			a.service.logWarning(e)
		}
	}
	extendErr := a.autoExtend(ctx, client, all, now, stderr)
	if a.watch {
		a.fillOrders(ctx, client, stderr)
	}
	if a.warnWithin > 0 {
		if ending := a.moment.Within(all, now, a.warnWithin); len(ending) > 0 {
			for _, b := range ending {
				what, stops := cmdutil.SourceWord(b.Source), ""
				if note := b.Source.EndNote(); note != "" {
					stops = "  (" + note + ")"
				}
				fmt.Fprintf(stderr, "gpublock blocks: WARNING: %s%s%s  %s  %s × %d  ends %s  in %s%s%s\n", model.AccountLead(b, several), what, b.ReservationID, b.Region,
					b.InstanceType, b.TotalCount, b.End.UTC().Format(model.LayoutMinuteZone), model.ShortSpan(b.End.Sub(now)), stops, momentNote(a.moment, b, now))
			}
			// A block about to end is the more urgent news, even when a region went unread.
			return ExitWarning, false
		}
		// A monitor must not read "nothing ends soon" when a region could not be read.
		if len(failed) > 0 {
			fmt.Fprintf(stderr, "gpublock blocks: --warn-within: the blocks of %s could not be checked\n", strings.Join(failed, ", "))
		}
		if len(lf.Accounts) > 0 {
			fmt.Fprintf(stderr, "gpublock blocks: --warn-within: the blocks of %s could not all be checked\n", strings.Join(lf.Accounts, "; "))
		}
	}
	switch {
	case len(lf.Accounts) > 0:
		fmt.Fprintf(stderr, "gpublock blocks: the list is incomplete: %s could not be listed whole (see above)\n", strings.Join(lf.Accounts, "; "))
	case len(failed) > 0 && len(partial) > 0:
		fmt.Fprintf(stderr, "gpublock blocks: the list is incomplete: %s failed; some details are missing in %s\n", strings.Join(failed, ", "), strings.Join(partial, ", "))
	case len(failed) > 0:
		fmt.Fprintf(stderr, "gpublock blocks: the list is incomplete: %s failed\n", strings.Join(failed, ", "))
	case len(partial) > 0:
		fmt.Fprintf(stderr, "gpublock blocks: the list is incomplete: some details are missing in %s\n", strings.Join(partial, ", "))
	case lf.Other:
		fmt.Fprintln(stderr, "gpublock blocks: the list may be incomplete")
	default:
		if fireErr != nil || extendErr != nil {
			return 1, false
		}
		return 0, false
	}
	return 1, false
}

// momentNote says, in a --warn-within line, the moment measured to, unless it is the end
// the line states already.
func momentNote(m model.WarnMoment, b model.Block, now time.Time) string {
	if m == model.WarnOfEnd {
		return ""
	}
	at := m.At(b)
	when := "in " + model.ShortSpan(at.Sub(now))
	if !at.After(now) {
		when = "passed " + model.ShortSpan(now.Sub(at)) + " ago"
	}
	return fmt.Sprintf("  %s %s UTC (%s)", m.Phrase(), at.UTC().Format(model.LayoutClock), when)
}

// printReports says on stderr which notifications could not be delivered.
func (a *Options) printReports(stderr io.Writer) {
	a.mu.Lock()
	reports := a.reports
	a.reports = nil
	a.mu.Unlock()
	for _, r := range reports {
		fmt.Fprintln(stderr, "gpublock blocks: notify:", r)
	}
}

// list lists the blocks of every source --source names: of every account when several are
// listed. everyAccountFailed is true when none of them answered.
func (a *Options) list(ctx context.Context, regions []string) (list source.BlockList, everyAccountFailed bool) {
	if a.accounts == nil {
		list, _ = source.List(ctx, a.sources, regions)
		return list, false
	}
	list, err := a.accounts.Blocks(ctx, regions)
	return list, err != nil
}

// reportProblems names each failure of a listing on stderr; regions that failed alike (no
// credentials: all of them) are named once, together. An account's problems name it first.
func reportProblems(list source.BlockList, stderr io.Writer) source.ListingFailures {
	for _, p := range list.Problems {
		switch {
		case p.Account != "" && p.Partial:
			fmt.Fprintf(stderr, "gpublock blocks: some details are missing: %s\n", p.Message)
		case p.Account != "":
			fmt.Fprintf(stderr, "gpublock blocks: %s\n", p.Message)
		case len(p.Regions) == 0:
			fmt.Fprintf(stderr, "gpublock blocks: %s\n", p.Message)
		case p.Partial:
			fmt.Fprintf(stderr, "gpublock blocks: %s: some details are missing: %s\n", p.Region, p.Message)
		default:
			fmt.Fprintf(stderr, "gpublock blocks: %s: %s\n", p.Region, p.Message)
		}
	}
	return list.Failures()
}

// watchSummary is the first line of a --watch refresh: the blocks and the regions read,
// then the regions that failed, so that every refresh shows what it is missing.
func watchSummary(n int, regions []string, lf source.ListingFailures) string {
	var read, parts []string
	for _, r := range regions {
		if !lf.Failed[r] {
			read = append(read, r)
		}
	}
	if len(read) > 0 {
		parts = append(parts, model.Plural(n, "block", "blocks")+" in "+strings.Join(read, ", "))
	}
	if failed := printers.RegionsIn(regions, lf.Failed); len(failed) > 0 {
		parts = append(parts, "FAILED: "+strings.Join(failed, ", ")+" (see stderr)")
	}
	if partial := printers.RegionsIn(regions, lf.Partial); len(partial) > 0 {
		parts = append(parts, "details missing in "+strings.Join(partial, ", "))
	}
	if len(lf.Accounts) > 0 {
		parts = append(parts, "NOT WHOLE: "+strings.Join(lf.Accounts, "; ")+" (see stderr)")
	}
	return strings.Join(parts, "; ")
}
