package launch

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// groupNote says, when b is one of several reservations its purchase made, that the
// launch goes into b alone and names the others. Nothing is said when the group cannot be
// listed: the launch into b does not depend on it.
func groupNote(ctx context.Context, w io.Writer, src source.Source, b model.Block) {
	_, group, found, err := source.FindGroup(ctx, src, b.Region, b.ReservationID)
	if err != nil || !found || len(group) < 2 {
		return
	}
	fmt.Fprintf(w, "gpublock launch: %s is %s reservations one purchase made (%s); this launch goes into %s only. --group spreads it across all of them.\n",
		b.ReservationID, model.GroupMark(group, b), strings.Join(strings.Split(model.GroupIDs(group), ","), ", "), b.ReservationID)
}

// launchGroup launches --count across every reservation of the block's purchase: each
// its share (model.GroupLaunch, the TUI's rule too), each prepared and checked (its dry run) before the one
// confirmation, then each committed in turn through the spend path. A failure stops the
// rest, and says what was launched before it.
func (a *Options) launchGroup(ctx context.Context, client *awsapi.Client, info cmdutil.BackendInfo, src source.Source, region, id string, format cmdutil.OutputFormat, spec source.LaunchSpec) int {
	ios := a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	_, group, found, err := source.FindGroup(ctx, src, region, id)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gpublock launch: the reservations of %s's purchase could not be listed: %s Nothing was launched.\n", id, client.ExplainError(err))
		return 1
	case !found:
		fmt.Fprintf(stderr, "gpublock launch: there is no block %s in %s. Nothing was launched.\n", id, region)
		return 1
	}
	shares, err := model.GroupLaunch(group, spec.Count)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %v. Nothing was launched.\n", err)
		return 1
	}
	var parts []groupPart
	for _, sh := range shares {
		b := sh.Block
		if r := model.LaunchBlocker(b, sh.Count); r != nil {
			fmt.Fprintf(stderr, "gpublock launch: %s: %s Nothing was launched.\n", b.ReservationID, r)
			if r.Problem == model.LaunchNotYet {
				fmt.Fprintln(stderr, notYetHint(shares))
			}
			return 1
		}
		one := spec
		one.Count = sh.Count
		p, code, ok := spending.Prepare(ctx, stderr, "launch", client, src, source.Intent{Kind: source.SpendLaunch, Block: b, Launch: one, CheckOnly: a.dryRun})
		if !ok {
			return code
		}
		printLaunchSummary(stderr, info, p.Account, b, one)
		parts = append(parts, groupPart{b, p})
	}
	fmt.Fprintf(stderr, "Across the %d reservations of one purchase: %s.\n\n", len(group), model.ShareWords(shares))
	if a.dryRun {
		for _, pt := range parts {
			if !pt.p.Permission.Allowed {
				return spending.PrintPermission(stdout, stderr, "launch", format, pt.p.Permission,
					map[string]any{"CapacityReservationId": pt.b.ReservationID, "Region": pt.b.Region}, "", "launched")
			}
		}
		return spending.PrintPermission(stdout, stderr, "launch", format, parts[0].p.Permission,
			map[string]any{"CapacityReservationIds": strings.Split(model.GroupIDs(group), ","), "Region": region, "InstanceCount": spec.Count},
			fmt.Sprintf("This identity may call %s to launch %d across %s.", parts[0].p.Permission.Action, spec.Count, model.ShareWords(shares)), "launched")
	}
	spending.PermissionLine(stderr, parts[0].p)
	if !spending.Confirmed(ctx, ios, "launch", a.yes, "Launch these instances?", "launch", "launched") {
		return 1
	}
	var all source.LaunchResult
	for i, pt := range parts {
		res, err := cmdutil.SpendPath(client).Commit(ctx, pt.p)
		if err != nil {
			if i > 0 {
				fmt.Fprintf(stderr, "gpublock launch: launched before this failure: %s in %s.\n", model.Plural(len(all.Instances), "instance", "instances"), launchedInto(parts[:i]))
			}
			code := spending.NotDone(stderr, "launch", "NOT LAUNCHED into "+pt.b.ReservationID, client, err)
			_ = printLaunch(stdout, format, group[0], all)
			return code
		}
		all.Instances = append(all.Instances, res.Instances...)
		all.RequestID = strings.TrimPrefix(all.RequestID+","+res.RequestID, ",")
	}
	if err := printLaunch(stdout, format, group[0], all); err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", err)
		return 1
	}
	return 0
}

// notYetHint is what to do when some of a group's reservations have not started: attach
// the launch to each start (the same command with --at-start), unless others have started
// (startedHint).
func notYetHint(shares []model.LaunchShare) string {
	if h := startedHint(shares); h != "" {
		return h
	}
	return "To launch into each reservation of the purchase at its own start, attach the launch now: the same command with --at-start."
}

// startedHint is what to do when some of a group's reservations have started and others
// not (consecutive segments, the first running): neither a launch now nor attaching takes
// them all, so each is done on its own. "" when none has started.
func startedHint(shares []model.LaunchShare) string {
	var started []string
	for _, sh := range shares {
		if sh.Block.State == model.StateActive {
			started = append(started, sh.Block.ReservationID)
		}
	}
	if len(started) == 0 || len(started) == len(shares) {
		return ""
	}
	return fmt.Sprintf("Some of the purchase's reservations have started (%s) and others not: launch into those now one by one, and attach to the others with `gpublock launch ID --at-start`.",
		strings.Join(started, ", "))
}

// groupPart is one reservation's share of a launch across a group, prepared.
type groupPart struct {
	b model.Block
	p source.Prepared
}

// launchedInto names the reservations of parts.
func launchedInto(parts []groupPart) string {
	ids := make([]string, len(parts))
	for i, pt := range parts {
		ids[i] = pt.b.ReservationID
	}
	return strings.Join(ids, ", ")
}

// attachGroup attaches --count across every reservation of b's purchase, each its share
// (model.GroupLaunch), each to be launched when its own reservation starts: all checked
// before the one confirmation, then all attached or none (atstart.AttachGroup).
func (a *Options) attachGroup(ctx context.Context, client *awsapi.Client, info cmdutil.BackendInfo, region string, b model.Block, format cmdutil.OutputFormat) int {
	ios := a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	src, err := cmdutil.OpenSource(client, model.SourceCapacityBlock)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "launch", err)
	}
	_, group, found, err := source.FindGroup(ctx, src, region, b.ReservationID)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "gpublock launch: the reservations of %s's purchase could not be listed: %s Nothing was attached.\n", b.ReservationID, client.ExplainError(err))
		return 1
	case !found:
		fmt.Fprintf(stderr, "gpublock launch: there is no block %s in %s. Nothing was attached.\n", b.ReservationID, region)
		return 1
	}
	shares, err := model.GroupLaunch(group, a.count)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %v. Nothing was attached.\n", err)
		return 1
	}
	// Refused before the confirmation, so nobody is asked to agree to what cannot be
	// attached; AttachGroup checks the same again under the lock.
	if err := atstart.CheckGroup(client, shares); err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was attached.\n", source.RedactError(err))
		if h := startedHint(shares); h != "" {
			fmt.Fprintln(stderr, h)
		}
		return 1
	}
	spec := source.LaunchSpec{ImageID: a.ami, Count: a.count, KeyName: a.key, SecurityGroupIDs: a.groups}
	account := ""
	if id, err := client.Identity(ctx); err == nil {
		account = id.Account
	}
	var starts []string
	for _, sh := range shares {
		one := spec
		one.Count = sh.Count
		printLaunchSummary(stderr, info, account, sh.Block, one)
		starts = append(starts, fmt.Sprintf("%s at %s", sh.Block.ReservationID, model.BothTimes(sh.Block.Start, nil)))
	}
	fmt.Fprintf(stderr, "Across the %d reservations of one purchase: %s.\n", len(group), model.ShareWords(shares))
	fmt.Fprintf(stderr, "Each runs when its own reservation starts (%s), by whichever gpublock watches the blocks\n(`gpublock blocks`, `blocks --watch`, the TUI) on this machine.\n\n", strings.Join(starts, "; "))
	if !spending.Confirmed(ctx, ios, "launch", a.yes, "Launch these instances when each reservation starts?", "launch", "attached") {
		return 1
	}
	ls, err := atstart.AttachGroup(client, shares, spec)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was attached.\n", source.RedactError(err))
		return 1
	}
	if err := printAttached(stdout, format, ls); err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", source.RedactError(err))
		return 1
	}
	return 0
}
