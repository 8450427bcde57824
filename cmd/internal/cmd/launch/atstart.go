package launch

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// launchArgs is one RESERVATION_ID, or none with --pending or --cancel.
func launchArgs(cmd *cobra.Command, args []string) error {
	fs := cmd.Flags()
	if fs.Changed("pending") || fs.Changed("cancel") {
		if c, _ := fs.GetString("cancel"); fs.Changed("cancel") && !strings.HasPrefix(strings.TrimSpace(c), "cr-") {
			return cmdutil.Usagef("--cancel %q: want a capacity reservation id such as cr-0123456789abcdef0", c)
		}
		if len(args) > 0 {
			return cmdutil.Usagef("--pending and --cancel take no RESERVATION_ID argument (--cancel names it: --cancel cr-…)")
		}
		return nil
	}
	return cmdutil.ExactlyOne(func(*cobra.Command) string { return "RESERVATION_ID (cr-…, from `gpublock blocks`)" })(cmd, args)
}

// attachedRun is --at-start, --pending and --cancel.
func attachedRun(ctx context.Context, a *Options) int {
	stderr := a.IO.ErrOut
	if err := a.checkAttached(); err != nil {
		return cmdutil.ReportUsage(stderr, "launch", err)
	}
	if a.atStart {
		return attachRun(ctx, a)
	}
	format, _ := cmdutil.TableOrJSONFormat(a.output) // checked
	client, _, err := a.Backend(ctx, &a.aws)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "launch", err)
	}
	if a.pending {
		ls, err := atstart.List(client)
		if err == nil {
			err = printAttached(a.IO.Out, format, ls)
		}
		if err != nil {
			fmt.Fprintln(stderr, "gpublock launch:", source.RedactError(err))
			return 1
		}
		return 0
	}
	return cancelRun(stderr, client, strings.TrimSpace(a.cancel))
}

// checkAttached is the usage check of --at-start, --pending and --cancel: one of them, and
// only the flags it uses.
func (a *Options) checkAttached() error {
	n := 0
	for _, on := range []bool{a.atStart, a.pending, a.cancel != ""} {
		if on {
			n++
		}
	}
	switch {
	case n > 1:
		return cmdutil.Usagef("--at-start, --pending and --cancel go alone: pick one")
	case a.group && (a.pending || a.cancel != ""):
		return cmdutil.Usagef("--pending and --cancel go without --group: --pending lists every attached launch, --cancel cancels one reservation's")
	case a.atStart && a.dryRun:
		return cmdutil.Usagef("--dry-run checks a launch into an active block; with --at-start nothing is sent before the block starts")
	case a.atStart:
		return nil // the launch flags are checked as a launch's
	case a.ami != "" || a.subnet != "" || a.key != "" || len(a.groups) > 0 || a.count != 1 || a.dryRun || a.yes:
		return cmdutil.Usagef("--pending and --cancel take none of the launch flags")
	}
	if _, err := cmdutil.TableOrJSONFormat(a.output); err != nil {
		return err
	}
	return a.aws.Validate()
}

// attachRun attaches the launch to a block that has not started, after the launch's
// confirmation: the spend happens later, but it is agreed to now.
func attachRun(ctx context.Context, a *Options) int {
	ios := a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	t, code, ok := a.target(ctx, false, "Nothing was attached.")
	if !ok {
		return code
	}
	client, info, region, b, format := t.client, t.info, t.region, t.block, t.format
	if a.group {
		return a.attachGroup(ctx, client, info, region, b, format)
	}
	// Refused before the confirmation, so nobody is asked to agree to what cannot be
	// attached; Attach checks the same again under the lock.
	if err := atstart.Check(client, b, a.count); err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was attached.\n", source.RedactError(err))
		return 1
	}
	spec := source.LaunchSpec{ImageID: a.ami, Count: a.count, KeyName: a.key, SubnetID: a.subnet, SecurityGroupIDs: a.groups}
	account := ""
	if id, err := client.Identity(ctx); err == nil {
		account = id.Account
	}
	printLaunchSummary(stderr, info, account, b, spec)
	fmt.Fprintf(stderr, "The launch runs when the block starts, %s, by whichever gpublock watches the blocks\n(`gpublock blocks`, `blocks --watch`, the TUI) on this machine.\n\n", model.BothTimes(b.Start, nil))
	if !spending.Confirmed(ctx, ios, "launch", a.yes, "Launch these instances when the block starts?", "launch", "attached") {
		return 1
	}
	l, err := atstart.Attach(client, b, spec)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was attached.\n", source.RedactError(err))
		return 1
	}
	if err := printAttached(stdout, format, []atstart.Launch{l}); err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", source.RedactError(err))
		return 1
	}
	return 0
}

func cancelRun(stderr io.Writer, client *awsapi.Client, id string) int {
	l, err := atstart.Cancel(client, id)
	if err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", source.RedactError(err))
		return 1
	}
	fmt.Fprintf(stderr, "gpublock launch: cancelled the launch attached to %s; nothing will be launched into it.\n", id)
	if l.Sent {
		fmt.Fprintf(stderr, "gpublock launch: an attempt was sent before it was cancelled: check `gpublock blocks --region %s` for its instances.\n", l.Region)
	}
	return 0
}

// attachedJSON is a launch attached to a block as -o json prints it.
type attachedJSON struct {
	CapacityReservationId string
	Region                string
	State                 string
	ImageId               string
	InstanceCount         int
	SubnetId              string   `json:",omitempty"`
	KeyName               string   `json:",omitempty"`
	SecurityGroupIds      []string `json:",omitempty"`
	ClientToken           string
	AttachedAt            string
	BlockStartDate        string   `json:",omitempty"`
	InstanceIds           []string `json:",omitempty"`
	Reason                string   `json:",omitempty"`
}

func printAttached(w io.Writer, format cmdutil.OutputFormat, ls []atstart.Launch) error {
	if format == "json" {
		out := []attachedJSON{}
		for _, l := range ls {
			out = append(out, attachedJSON{CapacityReservationId: l.ReservationID, Region: l.Region, State: string(l.State), ImageId: l.Spec.ImageID,
				InstanceCount: l.Spec.Count, SubnetId: l.Spec.SubnetID, KeyName: l.Spec.KeyName, SecurityGroupIds: l.Spec.SecurityGroupIDs,
				ClientToken: l.Token, AttachedAt: printers.RFC3339(l.AttachedAt), BlockStartDate: startDate(l.Starts), InstanceIds: l.Instances, Reason: l.Reason})
		}
		return printers.JSON(w, out)
	}
	const row = "%-21s  %-14s  %-9s  %-16s  %5s  %-21s  %s\n"
	fmt.Fprintf(w, row, "RESERVATION", "REGION", "STATE", "STARTS (UTC)", "COUNT", "IMAGE", "INSTANCES / REASON")
	for _, l := range ls {
		what := strings.Join(l.Instances, ",")
		if l.Reason != "" {
			what = l.Reason
		}
		starts := "-"
		if !l.Starts.IsZero() {
			starts = l.Starts.UTC().Format(model.LayoutMinute)
		}
		if _, err := fmt.Fprintf(w, row, l.ReservationID, l.Region, l.State, starts, fmt.Sprint(l.Spec.Count), l.Spec.ImageID, what); err != nil {
			return err
		}
	}
	return nil
}

// startDate is a block's start in JSON, "" when the record predates keeping it.
func startDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return printers.RFC3339(t)
}
