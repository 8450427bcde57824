package capacityblocks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
)

func isRun(r simtest.Recorded) bool    { return r.Action == "RunInstances" && !r.DryRun }
func isDryRun(r simtest.Recorded) bool { return r.Action == "RunInstances" && r.DryRun }

func TestCheckLaunch(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	spec := source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}

	// Not active yet: caught before any call.
	_, err := c.CheckLaunch(context.Background(), blockByID(t, c, bought.ReservationID), spec)
	var pe *source.ActionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "not active yet") {
		t.Errorf("check before the start: %v", err)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "RunInstances" }); n != 0 {
		t.Errorf("%d RunInstances calls for a scheduled block", n)
	}

	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)
	perm, err := c.CheckLaunch(context.Background(), b, spec)
	if err != nil || !perm.Allowed || perm.Action != "ec2:RunInstances" {
		t.Fatalf("check of an active block: %+v, %v", perm, err)
	}
	if dry, real := rc.Count(isDryRun), rc.Count(isRun); dry != 1 || real != 0 {
		t.Errorf("%d dry runs and %d real launches, want 1 and 0", dry, real)
	}
	// The dry run carries what the launch would: the market type, the target and a subnet of the zone.
	var form map[string][]string
	rc.Mu.Lock()
	for _, r := range rc.Calls {
		if isDryRun(r) {
			form = r.Form
		}
	}
	rc.Mu.Unlock()
	if form["InstanceMarketOptions.MarketType"][0] != "capacity-block" ||
		form["CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId"][0] != b.ReservationID ||
		!strings.HasPrefix(form["SubnetId"][0], "subnet-") {
		t.Errorf("dry-run form %v", form)
	}
	if after := blockByID(t, c, bought.ReservationID); len(after.Instances) != 0 || after.AvailableCount != o.Count {
		t.Errorf("a check started instances: %+v", after)
	}

	// A subnet of another zone is refused by the same check as Launch's.
	subnets, err := c.api.EC2("us-east-1").DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subnets.Subnets {
		if aws.ToString(s.AvailabilityZone) != b.AvailabilityZone {
			spec.SubnetID = aws.ToString(s.SubnetId)
		}
	}
	if spec.SubnetID == "" {
		t.Fatal("no subnet outside the block's zone")
	}
	if _, err := c.CheckLaunch(context.Background(), b, spec); err == nil || !strings.Contains(err.Error(), "but the block is in "+b.AvailabilityZone) {
		t.Errorf("subnet of another zone: %v", err)
	}
	spec.SubnetID = ""
	if _, err := c.CheckLaunch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: o.Count + 1}); err == nil || !strings.Contains(err.Error(), "free") {
		t.Errorf("too many: %v", err)
	}
	if dry := rc.Count(isDryRun); dry != 1 {
		t.Errorf("%d dry runs after checks that fail locally, want still 1", dry)
	}

	// Without the permission: not allowed, named, and no error.
	sim.SetFaults(ec2sim.Faults{Deny: []string{"RunInstances"}})
	perm, err = c.CheckLaunch(context.Background(), b, spec)
	if err != nil || perm.Allowed || perm.Action != "ec2:RunInstances" || !strings.Contains(perm.Message, "ec2:RunInstances") {
		t.Errorf("without permission: %+v, %v", perm, err)
	}
	if real := rc.Count(isRun); real != 0 {
		t.Errorf("%d real launches", real)
	}
}

func TestCheckLaunchInReadOnlyMode(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	ro := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.ReadOnly = true })
	b := blockByID(t, ro, bought.ReservationID)
	perm, err := ro.CheckLaunch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1})
	if err != nil || !perm.Allowed {
		t.Errorf("a read-only dry run: %+v, %v", perm, err)
	}
	if _, err := ro.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); !errors.Is(err, source.ErrReadOnly) {
		t.Errorf("read-only launch: %v", err)
	}
	if real := rc.Count(isRun); real != 0 {
		t.Errorf("%d real launches in read-only mode", real)
	}
}
