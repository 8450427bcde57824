package launch

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
)

// listFlag is a repeatable flag that also takes comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Type() string { return "list" }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return fmt.Errorf("%q: empty value", s)
		}
		*l = append(*l, v)
	}
	return nil
}

// Options are what `gpublock launch` runs with: its flags, and what it gets from the Factory.
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
	ami         string
	subnet      string
	count       int
	key         string
	groups      listFlag
	dryRun, yes bool
	// group: launch across every reservation of the block's purchase (launchgroup.go)
	group bool
	// attached launches (atstart.go)
	atStart, pending bool
	cancel           string
}

// NewCmdLaunch is `gpublock launch`; runF, when not nil, is given the options instead of
// running them.
func NewCmdLaunch(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Config: f.Config}
	cmd := &cobra.Command{
		Use:   "launch RESERVATION_ID",
		Short: "launch instances into a Capacity Block, after a typed confirmation",
		Long: "Launches instances into an active Capacity Block, in its zone, after showing what starts and\n" +
			"asking to type launch. --dry-run checks the block, the subnet's zone and the permission only.\n\n" +
			"--at-start attaches the launch to a block that has not started instead: it is launched when the\n" +
			"block becomes active, once, by whichever gpublock watches the blocks (blocks, blocks --watch, the\n" +
			"TUI); --pending lists the attached launches and --cancel RESERVATION_ID cancels one.\n\n" +
			"A purchase of an offering made of segments made one reservation per segment. Given one of them,\n" +
			"launch starts instances in that one only and names the others; --group spreads --count across\n" +
			"all of them, as evenly as their free capacity allows, in each one's own zone (one confirmation);\n" +
			"with --at-start it attaches each reservation's share, launched when that reservation starts.\n\n" +
			"Exit status: 0 launched (or attached, listed, cancelled), 1 not launched, 2 bad usage or no terminal to confirm on without --yes, 3 outcome unknown.",
		Example: "  gpublock launch cr-0123456789abcdef0 --region us-east-1 --ami ami-0123456789abcdef0 --dry-run\n" +
			"  gpublock launch cr-0123456789abcdef0 --region us-east-1 --ami ami-0123456789abcdef0 --count 2 \\\n" +
			"    --subnet subnet-0abc --key my-key --security-group sg-0abc --yes -o json\n" +
			"  gpublock launch cr-0123456789abcdef0 --region us-east-1 --ami ami-0123456789abcdef0 --count 2 --at-start --yes\n" +
			"  gpublock launch --pending\n" +
			"  gpublock launch --cancel cr-0123456789abcdef0",
		Args:        launchArgs,
		Annotations: map[string]string{cmdutil.AnnotationOneRegion: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.aws = *f.AWS
			a.Args = args
			if runF != nil {
				return runF(a)
			}
			if a.atStart || a.pending || a.cancel != "" {
				return cmdutil.CodeError(attachedRun(cmd.Context(), a))
			}
			return cmdutil.CodeError(launchRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.output, "table", "json")
	fs.StringVar(&a.ami, "ami", "", "image `ami-…` to launch (required); its platform must match the block's")
	fs.StringVar(&a.subnet, "subnet", "", "a `subnet-…` in the block's zone (default: the zone's default subnet)")
	fs.IntVar(&a.count, "count", 1, "instances to launch, at most the block's free count")
	fs.StringVar(&a.key, "key", "", "the EC2 key pair `name`")
	fs.Var(&a.groups, "security-group", "security group `sg-…` (repeatable, or comma-separated)")
	fs.BoolVar(&a.dryRun, "dry-run", false, "check the block, the subnet's zone and the ec2:RunInstances permission (a DryRun); start nothing")
	fs.BoolVar(&a.yes, "yes", false, "launch without asking to type launch (for scripts)")
	fs.BoolVar(&a.group, "group", false, "spread --count across every reservation of the block's purchase (a segmented offering's)")
	fs.BoolVar(&a.atStart, "at-start", false, "attach the launch to a block that has not started: it runs when the block becomes active")
	fs.BoolVar(&a.pending, "pending", false, "list the launches attached to blocks (no RESERVATION_ID)")
	fs.StringVar(&a.cancel, "cancel", "", "cancel the launch attached to the block `cr-…` (no RESERVATION_ID)")
	return cmd
}

// launchTarget is the block a launch goes into, found in the region the flags name.
type launchTarget struct {
	client *awsapi.Client
	info   cmdutil.BackendInfo
	region string
	block  model.Block
	format cmdutil.OutputFormat
}

// target checks the RESERVATION_ID and the output, refuses a run that may not spend, and
// finds the block; when it cannot, it has said why (ending with nothing, the sentence of
// what was not done) and returns the exit status.
func (a *Options) target(ctx context.Context, dryRun bool, nothing string) (launchTarget, int, bool) {
	stderr := a.IO.ErrOut
	reservationID, format, err := a.check(a.Args)
	if err != nil {
		return launchTarget{}, cmdutil.ReportUsage(stderr, "launch", err), false
	}
	if code, refused := spending.RefuseSpending(a.IO, a.Config, "launch", "launch", "launched", &a.aws, a.yes, dryRun); refused {
		return launchTarget{}, code, false
	}
	client, info, err := a.Backend(ctx, &a.aws)
	if err != nil {
		return launchTarget{}, cmdutil.BackendFailure(stderr, "launch", err), false
	}
	region := a.aws.OneRegion(client)
	b, err := spending.FindBlock(ctx, client, region, reservationID)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %v %s\n", err, nothing)
		return launchTarget{}, 1, false
	}
	return launchTarget{client: client, info: info, region: region, block: b, format: format}, 0, true
}

// launchRun launches into the block a.Args[0] once the flags say so (cobra has parsed them).
func launchRun(ctx context.Context, a *Options) int {
	ios := a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	t, code, ok := a.target(ctx, a.dryRun, "Nothing was launched.")
	if !ok {
		return code
	}
	client, info, region, b, format := t.client, t.info, t.region, t.block, t.format
	// Caught before the confirmation, so nobody is asked to approve a launch that cannot
	// happen; the adapter checks the same again. A launch across the group checks each
	// reservation's share instead.
	if r := model.LaunchBlocker(b, a.count); r != nil && !a.group {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was launched.\n", r)
		if r.Problem == model.LaunchNotYet {
			fmt.Fprintf(stderr, "To launch at its start, attach the launch now: the same command with --at-start.\n")
		}
		return 1
	}
	src, err := cmdutil.OpenSource(client, model.SourceCapacityBlock)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "launch", err)
	}
	spec := source.LaunchSpec{ImageID: a.ami, Count: a.count, KeyName: a.key, SubnetID: a.subnet, SecurityGroupIDs: a.groups}
	if a.group {
		return a.launchGroup(ctx, client, info, src, region, b.ReservationID, format, spec)
	}
	groupNote(ctx, stderr, src, b)
	p, code, ok := spending.Prepare(ctx, stderr, "launch", client, src, source.Intent{Kind: source.SpendLaunch, Block: b, Launch: spec, CheckOnly: a.dryRun})
	if !ok {
		return code
	}
	printLaunchSummary(stderr, info, p.Account, b, spec)
	if a.dryRun {
		return spending.PrintPermission(stdout, stderr, "launch", format, p.Permission,
			map[string]any{"CapacityReservationId": b.ReservationID, "Region": b.Region, "InstanceCount": spec.Count},
			fmt.Sprintf("This identity may call %s to launch %d into %s (active, %d free; the subnet is in %s).",
				p.Permission.Action, spec.Count, b.ReservationID, b.AvailableCount, b.AvailabilityZone), "launched")
	}
	spending.PermissionLine(stderr, p)
	if !spending.Confirmed(ctx, ios, "launch", a.yes, "Launch these instances?", "launch", "launched") {
		return 1
	}
	res, err := cmdutil.SpendPath(client).Commit(ctx, p)
	if err != nil {
		return spending.NotDone(stderr, "launch", "NOT LAUNCHED", client, err)
	}
	if err := printLaunch(stdout, format, b, res); err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", err)
		return 1
	}
	return 0
}

func (a *Options) check(pos []string) (string, cmdutil.OutputFormat, error) {
	id := strings.TrimSpace(pos[0])
	if !strings.HasPrefix(id, "cr-") || strings.ContainsAny(id, " \t\n") {
		return "", "", cmdutil.Usagef("RESERVATION_ID %q: want a capacity reservation id such as cr-0123456789abcdef0", pos[0])
	}
	format, err := cmdutil.TableOrJSONFormat(a.output)
	if err != nil {
		return "", "", err
	}
	switch {
	case a.ami == "":
		return "", "", cmdutil.Usagef("--ami is required: the image to launch, e.g. ami-0123456789abcdef0")
	case !strings.HasPrefix(a.ami, "ami-"):
		return "", "", cmdutil.Usagef("--ami %q: want an AMI id (ami-…)", a.ami)
	case a.count < 1 || a.count > 1000:
		return "", "", cmdutil.Usagef("--count %d: allowed 1 to the block's free count", a.count)
	case a.group && a.subnet != "":
		return "", "", cmdutil.Usagef("--subnet with --group: the group's reservations may be in several zones, each launched in its own zone's default subnet")
	case a.subnet != "" && !strings.HasPrefix(a.subnet, "subnet-"):
		return "", "", cmdutil.Usagef("--subnet %q: want a subnet id (subnet-…)", a.subnet)
	}
	for _, g := range a.groups {
		if !strings.HasPrefix(g, "sg-") {
			return "", "", cmdutil.Usagef("--security-group %q: want a security group id (sg-…)", g)
		}
	}
	if err := a.aws.CheckSpending(); err != nil {
		return "", "", err
	}
	return id, format, nil
}

func printLaunchSummary(w io.Writer, info cmdutil.BackendInfo, account string, b model.Block, spec source.LaunchSpec) {
	spending.SummaryHead(w, "LAUNCH", info)
	f := model.LaunchFacts(b, account, "", time.Local)
	// What is launched: the dialog's form fields.
	subnet := spec.SubnetID
	if subnet == "" {
		subnet = "the default subnet of " + b.AvailabilityZone
	}
	f.Lines = append(f.Lines, model.Fact{Label: "Launch", Value: fmt.Sprintf("%d × %s from %s", spec.Count, b.InstanceType, spec.ImageID)},
		model.Fact{Label: "Subnet", Value: subnet})
	if spec.KeyName != "" {
		f.Lines = append(f.Lines, model.Fact{Label: "Key pair", Value: spec.KeyName})
	}
	if len(spec.SecurityGroupIDs) > 0 {
		f.Lines = append(f.Lines, model.Fact{Label: "Groups", Value: strings.Join(spec.SecurityGroupIDs, ", ")})
	}
	spending.PrintFacts(w, f)
	fmt.Fprintln(w)
}

// instanceJSON has the AWS CLI's run-instances field names.
type instanceJSON struct {
	InstanceId            string
	InstanceType          string
	ImageId               string
	SubnetId              string
	CapacityReservationId string
	LaunchTime            string `json:",omitempty"`
	State                 struct{ Name string }
}

func printLaunch(w io.Writer, format cmdutil.OutputFormat, b model.Block, res source.LaunchResult) error {
	if format == "json" {
		out := struct {
			Instances             []instanceJSON
			CapacityReservationId string
			Region                string
			GpublockRequestId     string
		}{Instances: []instanceJSON{}, CapacityReservationId: b.ReservationID, Region: b.Region, GpublockRequestId: res.RequestID}
		for _, in := range res.Instances {
			j := instanceJSON{InstanceId: in.ID, InstanceType: in.InstanceType, ImageId: in.ImageID, SubnetId: in.SubnetID,
				CapacityReservationId: in.ReservationID, LaunchTime: printers.RFC3339(in.LaunchTime)}
			j.State.Name = in.State
			out.Instances = append(out.Instances, j)
		}
		return printers.JSON(w, out)
	}
	const row = "%-21s  %-13s  %-17s  %-24s  %s\n"
	fmt.Fprintf(w, row, "INSTANCE", "STATE", "TYPE", "SUBNET", "IMAGE")
	for _, in := range res.Instances {
		if _, err := fmt.Fprintf(w, row, in.ID, in.State, in.InstanceType, in.SubnetID, in.ImageID); err != nil {
			return err
		}
	}
	return nil
}
