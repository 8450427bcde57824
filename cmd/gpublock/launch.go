package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

func init() {
	commands["launch"] = command{summary: "launch instances into a Capacity Block, after a typed confirmation", run: runLaunch}
}

// listFlag is a repeatable flag that also takes comma-separated values.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return fmt.Errorf("%q: empty value", s)
		}
		*l = append(*l, v)
	}
	return nil
}

type launchArgs struct {
	aws         awsFlags
	output      string
	ami         string
	subnet      string
	count       int
	key         string
	groups      listFlag
	dryRun, yes bool
}

func runLaunch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var a launchArgs
	fs := newCommandFlags("launch", "RESERVATION_ID --ami A [--subnet S] [--count N] [--key K] [--security-group G ...] [--dry-run] [--yes] [--region R] [-o table|json]\n\n"+
		"Exit status: 0 launched, 1 not launched, 2 bad usage or no terminal to confirm on without --yes, 3 outcome unknown.", stderr, &a.output)
	a.aws.register(fs)
	tableOrJSON(fs)
	fs.StringVar(&a.ami, "ami", "", "image `ami-…` to launch (required); its platform must match the block's")
	fs.StringVar(&a.subnet, "subnet", "", "`subnet-…` in the block's zone (default: the zone's default subnet)")
	fs.IntVar(&a.count, "count", 1, "instances to launch, at most the block's free count")
	fs.StringVar(&a.key, "key", "", "EC2 key pair `name`")
	fs.Var(&a.groups, "security-group", "security group `sg-…` (repeatable, or comma-separated)")
	fs.BoolVar(&a.dryRun, "dry-run", false, "check the block, the subnet's zone and the ec2:RunInstances permission (a DryRun); start nothing")
	fs.BoolVar(&a.yes, "yes", false, "launch without asking to type launch (for scripts)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagExit(err)
	}
	reservationID, format, err := a.check(pos)
	if err != nil {
		return reportUsage(stderr, "launch", err)
	}
	if code, refused := refuseSpending(stderr, "launch", "launch", "launched", &a.aws, a.yes, a.dryRun); refused {
		return code
	}

	client, info, err := openBackend(ctx, &a.aws, stderr)
	if err != nil {
		return backendFailure(stderr, "launch", err)
	}
	region := a.aws.oneRegion(client)
	b, err := findBlock(ctx, client, region, reservationID)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: %v Nothing was launched.\n", err)
		return 1
	}
	// Caught before the confirmation, so nobody is asked to approve a launch that cannot
	// happen; the adapter checks the same again.
	if r := model.LaunchBlocker(b, a.count); r != nil {
		fmt.Fprintf(stderr, "gpublock launch: %s Nothing was launched.\n", r)
		return 1
	}
	id, err := client.Identity(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: cannot tell which account this is: %s\n", client.ExplainError(err))
		return 1
	}
	spec := aws.LaunchSpec{ImageID: a.ami, Count: a.count, KeyName: a.key, SubnetID: a.subnet, SecurityGroupIDs: a.groups}
	printLaunchSummary(stderr, info, id.Account, b, spec)
	if a.dryRun {
		return launchDryRun(ctx, client, stdout, stderr, format, b, spec)
	}
	if !confirmed(ctx, stderr, "launch", a.yes, "Launch these instances?", "launch", "launched") {
		return 1
	}
	res, err := client.Launch(ctx, b, spec)
	if err != nil {
		return notDone(stderr, "launch", "NOT LAUNCHED", client, err)
	}
	if err := printLaunch(stdout, format, b, res); err != nil {
		fmt.Fprintln(stderr, "gpublock launch:", err)
		return 1
	}
	return 0
}

func (a *launchArgs) check(pos []string) (string, outputFormat, error) {
	if len(pos) != 1 {
		return "", "", usagef("want exactly one RESERVATION_ID (cr-…, from `gpublock blocks`), got %d arguments", len(pos))
	}
	id := strings.TrimSpace(pos[0])
	if !strings.HasPrefix(id, "cr-") || strings.ContainsAny(id, " \t\n") {
		return "", "", usagef("RESERVATION_ID %q: want a capacity reservation id such as cr-0123456789abcdef0", pos[0])
	}
	format, err := tableOrJSONFormat(a.output)
	if err != nil {
		return "", "", err
	}
	switch {
	case a.ami == "":
		return "", "", usagef("--ami is required: the image to launch, e.g. ami-0123456789abcdef0")
	case !strings.HasPrefix(a.ami, "ami-"):
		return "", "", usagef("--ami %q: want an AMI id (ami-…)", a.ami)
	case a.count < 1 || a.count > 1000:
		return "", "", usagef("--count %d: allowed 1 to the block's free count", a.count)
	case a.subnet != "" && !strings.HasPrefix(a.subnet, "subnet-"):
		return "", "", usagef("--subnet %q: want a subnet id (subnet-…)", a.subnet)
	}
	for _, g := range a.groups {
		if !strings.HasPrefix(g, "sg-") {
			return "", "", usagef("--security-group %q: want a security group id (sg-…)", g)
		}
	}
	if err := a.aws.validate(); err != nil {
		return "", "", err
	}
	if err := singleRegion(&a.aws); err != nil {
		return "", "", err
	}
	return id, format, nil
}

// launchDryRun checks the launch as the real one would (state, count, the subnet's zone)
// and asks AWS with a DryRun whether this identity may call RunInstances; it starts nothing.
func launchDryRun(ctx context.Context, client *aws.Client, stdout, stderr io.Writer, format outputFormat, b model.Block, spec aws.LaunchSpec) int {
	p, err := client.CheckLaunch(ctx, b, spec)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock launch: dry run: the launch would fail: %s Nothing was launched.\n", client.ExplainError(err))
		return 1
	}
	return printPermission(stdout, stderr, "launch", format, p,
		map[string]any{"CapacityReservationId": b.ReservationID, "Region": b.Region, "InstanceCount": spec.Count},
		fmt.Sprintf("This identity may call %s to launch %d into %s (active, %d free; the subnet is in %s).",
			p.Action, spec.Count, b.ReservationID, b.AvailableCount, b.AvailabilityZone), "launched")
}

// findBlock is aws.FindBlock with the command line's words for each way it can fail.
func findBlock(ctx context.Context, client *aws.Client, region, id string) (model.Block, error) {
	b, found, err := client.FindBlock(ctx, region, id)
	switch {
	case found:
		return b, nil
	case ctx.Err() != nil:
		return model.Block{}, errors.New("cancelled.")
	case err != nil:
		return model.Block{}, fmt.Errorf("the blocks of %s could not be listed: %s", region, client.ExplainError(err))
	}
	return model.Block{}, fmt.Errorf("there is no Capacity Block %s in %s (`gpublock blocks --region %s` lists them; another region needs --region).", id, region, region)
}

func printLaunchSummary(w io.Writer, info backendInfo, account string, b model.Block, spec aws.LaunchSpec) {
	fmt.Fprintf(w, "\nLAUNCH (%s): %s\n", info.Mode, info.Reason)
	fmt.Fprintf(w, "  Account:     %s\n", account)
	fmt.Fprintf(w, "  Region:      %s\n", b.Region)
	fmt.Fprintf(w, "  Zone:        %s\n", b.AvailabilityZone)
	fmt.Fprintf(w, "  Block:       %s (%s), %s, %d free of %d\n", b.ReservationID, b.State, b.InstanceType, b.AvailableCount, b.TotalCount)
	fmt.Fprintf(w, "  Launch:      %d × %s from %s\n", spec.Count, b.InstanceType, spec.ImageID)
	subnet := spec.SubnetID
	if subnet == "" {
		subnet = "the default subnet of " + b.AvailabilityZone
	}
	fmt.Fprintf(w, "  Subnet:      %s\n", subnet)
	if spec.KeyName != "" {
		fmt.Fprintf(w, "  Key pair:    %s\n", spec.KeyName)
	}
	if len(spec.SecurityGroupIDs) > 0 {
		fmt.Fprintf(w, "  Groups:      %s\n", strings.Join(spec.SecurityGroupIDs, ", "))
	}
	fmt.Fprintf(w, "  Block ends:  %s; instances are terminated from %s\n\n", bothTimes(b.End), bothTimes(b.TerminationAt()))
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

func printLaunch(w io.Writer, format outputFormat, b model.Block, res aws.LaunchResult) error {
	if format == "json" {
		out := struct {
			Instances             []instanceJSON
			CapacityReservationId string
			Region                string
			GpublockRequestId     string
		}{Instances: []instanceJSON{}, CapacityReservationId: b.ReservationID, Region: b.Region, GpublockRequestId: res.RequestID}
		for _, in := range res.Instances {
			j := instanceJSON{InstanceId: in.ID, InstanceType: in.InstanceType, ImageId: in.ImageID, SubnetId: in.SubnetID,
				CapacityReservationId: in.ReservationID, LaunchTime: rfc3339(in.LaunchTime)}
			j.State.Name = in.State
			out.Instances = append(out.Instances, j)
		}
		return writeJSON(w, out)
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
