package launch

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

func TestLaunchIntoActiveBlock(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	// The account has no key pair until one is created; a launch with an unknown one is
	// refused before anything starts.
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "2", "--key", "ml-team", "-o", "json")...)
	if code != 1 || out != "" || !strings.Contains(errs, "ml-team") {
		t.Fatalf("unknown key pair: exit %d, stdout %q\n%s", code, out, errs)
	}
	if _, err := simEC2(cs.URL).CreateKeyPair(context.Background(), &ec2.CreateKeyPairInput{KeyName: aws.String("ml-team")}); err != nil {
		t.Fatal(err)
	}
	code, out, errs = cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "2", "--key", "ml-team", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Instances []struct {
			InstanceId, InstanceType, ImageId, SubnetId, CapacityReservationId string
			State                                                              struct{ Name string }
		}
		CapacityReservationId string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Instances) != 2 || got.CapacityReservationId != b.CapacityReservationId {
		t.Fatalf("launch answer %+v", got)
	}
	var ids []string
	for _, in := range got.Instances {
		if !strings.HasPrefix(in.InstanceId, "i-") || in.InstanceType != "p5.48xlarge" || in.ImageId != cmdtest.AMI ||
			!strings.HasPrefix(in.SubnetId, "subnet-") || in.CapacityReservationId != b.CapacityReservationId || in.State.Name == "" {
			t.Errorf("instance %+v", in)
		}
		ids = append(ids, in.InstanceId)
	}
	for _, want := range []string{"LAUNCH", "Account:", "Block:       " + b.CapacityReservationId + " · us-east-1 · " + b.AvailabilityZone, "2 × p5.48xlarge from " + cmdtest.AMI, "Key pair:    ml-team", "instances terminate from"} {
		if !cmdtest.Says(errs, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, errs)
		}
	}

	rows := cli.Reservations(t, cs.URL)
	if len(rows) != 1 || rows[0].AvailableInstanceCount != 0 || strings.Join(rows[0].InstanceIds, ",") != strings.Join(ids, ",") {
		t.Errorf("block after the launch: %+v, launched %v", rows, ids)
	}
	var launched bool
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "RunInstances" && e.Phase == "outcome" && e.Outcome == "launched" && e.Result == strings.Join(ids, ",") {
			launched = true
		}
	}
	if !launched {
		t.Errorf("journal has no launch outcome: %+v", cmdtest.JournalLines(t))
	}

	// The block is full now: a clear refusal, nothing more launched.
	code, _, errs = cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "0 free of 2") || !strings.Contains(errs, "Nothing was launched") ||
		!strings.Contains(errs, "wait for one to end, or terminate one") || strings.Contains(errs, "fewer") {
		t.Errorf("full block: exit %d\n%s", code, errs)
	}
}

func TestLaunchTableOutput(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "INSTANCE") || !strings.HasPrefix(lines[1], "i-") ||
		!strings.Contains(lines[1], "p5.48xlarge") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestLaunchIntoScheduledBlock(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	start, _ := time.Parse(time.RFC3339, b.StartDate)
	cs.Emulator.SetTime(start.Add(-time.Minute)) // paid, not started
	if rows := cli.Reservations(t, cs.URL); rows[0].State != "scheduled" {
		t.Fatalf("state %s, want scheduled", rows[0].State)
	}
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || out != "" || !strings.Contains(errs, "not active yet (scheduled)") || !strings.Contains(errs, start.Format("2006-01-02 15:04 UTC")) ||
		!strings.Contains(errs, "--at-start") {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows[0].InstanceIds) != 0 {
		t.Errorf("instances launched: %v", rows[0].InstanceIds)
	}
}

// simEC2 is an SDK client of the test's emulator in us-east-1.
func simEC2(url string) *ec2.Client {
	return ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(url),
		Credentials: credentials.NewStaticCredentialsProvider("AKIATESTCLI000000001", "cli-test-secret", "")})
}

// subnetOutside returns a subnet of us-east-1 that is not in zone, asked through the SDK.
func subnetOutside(t *testing.T, url, zone string) string {
	t.Helper()
	cl := simEC2(url)
	out, err := cl.DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range out.Subnets {
		if aws.ToString(s.AvailabilityZone) != zone && aws.ToString(s.SubnetId) != "" {
			return aws.ToString(s.SubnetId)
		}
	}
	t.Fatalf("no subnet outside %s among %d", zone, len(out.Subnets))
	return ""
}

func TestLaunchWrongZone(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	subnet := subnetOutside(t, cs.URL, b.AvailabilityZone)
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--subnet", subnet)...)
	if code != 1 || out != "" || !strings.Contains(errs, "NOT LAUNCHED") || !strings.Contains(errs, "Subnet "+subnet+" is in") ||
		!strings.Contains(errs, "but the block is in "+b.AvailabilityZone) {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows[0].InstanceIds) != 0 || rows[0].AvailableInstanceCount != 2 {
		t.Errorf("instances launched: %+v", rows[0])
	}
}

func TestLaunchCountAboveAvailable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "3")...)
	if code != 1 || !strings.Contains(errs, "2 free of 2 instances; 3 asked") || !strings.Contains(errs, "holds 2 at most: launch 2 or fewer") ||
		strings.Contains(errs, "wait") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows[0].InstanceIds) != 0 {
		t.Errorf("instances launched: %v", rows[0].InstanceIds)
	}
}

func TestLaunchConfirmation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)

	cli.OffTerminal(t, cs, "launch\n", cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId)...)
	for _, typed := range []string{"buy\n", "yes\n", ""} {
		cli.AsPerson(t, true, typed)
		code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId)...)
		if code != 1 || !strings.Contains(errs, "Type launch") || !strings.Contains(errs, "cancelled; nothing was launched") {
			t.Errorf("typed %q: exit %d\n%s", typed, code, errs)
		}
	}
	if rows := cli.Reservations(t, cs.URL); len(rows[0].InstanceIds) != 0 {
		t.Fatalf("instances launched without the word: %v", rows[0].InstanceIds)
	}
	cli.AsPerson(t, true, "launch\n")
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId)...)
	if rows := cli.Reservations(t, cs.URL); code != 0 || len(rows[0].InstanceIds) != 1 {
		t.Errorf("typed launch: exit %d, %+v\n%s", code, rows[0], errs)
	}
}

func TestLaunchDryRun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	cli.AsPerson(t, false, "")
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--dry-run", "--count", "2")...)
	if code != 0 || !strings.Contains(out, "Dry run: allowed") || !strings.Contains(out, "ec2:RunInstances") ||
		!strings.Contains(out, "the subnet is in "+b.AvailabilityZone) || !strings.Contains(out, "Nothing was launched") ||
		strings.Contains(out, "checked when launching") {
		t.Errorf("exit %d, %q\n%s", code, out, errs)
	}
	code, out, _ = cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--dry-run", "-o", "json")...)
	var dr map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &dr) != nil || dr["DryRun"] != true || dr["Allowed"] != true ||
		dr["Action"] != "ec2:RunInstances" || dr["CapacityReservationId"] != b.CapacityReservationId {
		t.Errorf("json dry run: exit %d\n%s", code, out)
	}
	// The dry run now checks the subnet's zone, as the launch does.
	other := subnetOutside(t, cs.URL, b.AvailabilityZone)
	code, out, errs = cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--dry-run", "--subnet", other)...)
	if code != 1 || out != "" || !strings.Contains(errs, "but the block is in "+b.AvailabilityZone) || !strings.Contains(errs, "Nothing was launched") {
		t.Errorf("dry run into another zone: exit %d, %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows[0].InstanceIds) != 0 {
		t.Errorf("a dry run launched %v", rows[0].InstanceIds)
	}
	var journaled []string
	for _, l := range cmdtest.JournalLines(t) {
		if l.Action == "RunInstances" {
			journaled = append(journaled, l.Phase)
		}
	}
	if len(journaled) != 0 {
		t.Errorf("a dry run reached the journal: %v", journaled)
	}
}

func TestLaunchBadFlags(t *testing.T) {
	cs := cmdtest.StartSim(t)
	id := "cr-0123456789abcdef0"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"launch", "--ami", cmdtest.AMI}, "exactly one RESERVATION_ID"},
		{[]string{"launch", id, "cr-1", "--ami", cmdtest.AMI}, "exactly one RESERVATION_ID"},
		{[]string{"launch", "cbr-0123", "--ami", cmdtest.AMI}, "RESERVATION_ID \"cbr-0123\""},
		{[]string{"launch", id}, "--ami is required"},
		{[]string{"launch", id, "--ami", "ubuntu"}, "--ami \"ubuntu\""},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--count", "0"}, "--count 0"},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--count", "two"}, "-count"},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--subnet", "us-east-1a"}, "--subnet \"us-east-1a\""},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--security-group", "default"}, "--security-group \"default\""},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--security-group", "sg-1,"}, "-security-group"},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--region", "us-east-1,us-west-2"}, "one region"},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--region", "mars-1"}, "--region"},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "-o", "csv"}, "-o \"csv\""},
		{[]string{"launch", id, "--ami", cmdtest.AMI, "--nope"}, "-nope"},
		{[]string{"launch", "--cancel", ""}, "--cancel \"\""},
		{[]string{"launch", "--cancel", " "}, "--cancel \" \""},
	} {
		before := cs.Calls.Load()
		code, out, errs := cli.Run(append(tc.args, "--endpoint-url", cs.URL, "--yes")...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s", tc.args, code, out, errs)
		}
		if n := cs.Calls.Load() - before; n != 0 {
			t.Errorf("%v: %d calls before the usage error", tc.args, n)
		}
	}
}

// cli runs `gpublock launch` as the program does, with the commands its tests run to buy what
// it acts on and to list what it did.
var cli = cmdtest.NewCLI(NewCmdLaunch, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

func TestLaunchUnknownReservation(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, "cr-0123456789abcdef0", "--yes")...)
	if code != 1 || !strings.Contains(errs, "no Capacity Block cr-0123456789abcdef0 in us-east-1") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}
