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
	"github.com/gpublock/gpublock/model"
)

func isRun(r simtest.Recorded) bool    { return r.Action == "RunInstances" && !r.DryRun }
func isDryRun(r simtest.Recorded) bool { return r.Action == "RunInstances" && r.DryRun }

func TestCheckLaunch(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o, bought := boughtBlock(t, c)
	spec := source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}

	// Not active yet: caught before any call.
	_, err := c.CheckLaunch(context.Background(), blockByID(t, c, bought.ReservationID), spec)
	var pe *source.ActionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "not active yet") {
		t.Errorf("check before the start: %v", err)
	}
	if n := rc.Of("RunInstances"); n != 0 {
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

func TestLaunchTraps(t *testing.T) {
	sim, rc, c := recordedClient(t)
	o, bought := boughtBlock(t, c)
	runs := func() int { return rc.Of("RunInstances") }
	spec := source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}

	_, err := c.Launch(context.Background(), blockByID(t, c, bought.ReservationID), spec)
	if err == nil || !strings.Contains(err.Error(), "not active yet") {
		t.Errorf("launch before the start: %v", err)
	}
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)

	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: o.Count + 1}); err == nil || !strings.Contains(err.Error(), "free") {
		t.Errorf("launch of too many: %v", err)
	}
	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ubuntu", Count: 1}); err == nil || !strings.Contains(err.Error(), "AMI") {
		t.Errorf("launch without an AMI id: %v", err)
	}
	subnets, err := c.api.EC2("us-east-1").DescribeSubnets(context.Background(), &ec2.DescribeSubnetsInput{})
	if err != nil || len(subnets.Subnets) < 2 {
		t.Fatalf("subnets: %v", err)
	}
	var other string
	for _, s := range subnets.Subnets {
		if aws.ToString(s.AvailabilityZone) != b.AvailabilityZone {
			other = aws.ToString(s.SubnetId)
		}
	}
	spec.SubnetID = other
	if _, err := c.Launch(context.Background(), b, spec); err == nil || !strings.Contains(err.Error(), b.AvailabilityZone) ||
		!strings.Contains(err.Error(), "zone") {
		t.Errorf("launch into another zone: %v", err)
	}
	if n := runs(); n != 0 {
		t.Errorf("%d RunInstances calls for launches that were caught before", n)
	}

	// What the adapter cannot see beforehand, AWS (here the emulator) refuses: the DryRun
	// catches it and the message is the known trap's.
	b.State = model.StateActive
	b.AvailableCount = 64
	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 2}); err == nil {
		t.Error("launching more than the block holds was accepted")
	}
	if n := rc.Sent("RunInstances"); n != 0 {
		t.Errorf("%d real RunInstances after a failed dry run", n)
	}
}

// A dedicated block takes only instances launched dedicated (the emulator refuses a
// mismatch as AWS does): the launch carries the block's tenancy, and a default block's
// launch says none.
func TestLaunchCarriesTheBlocksTenancy(t *testing.T) {
	sim, rc, c := recordedClient(t)
	var o model.Offering
	for d := 7; d < 56 && o.ID == ""; d++ {
		q := baseQuery()
		q.Regions, q.Durations = []string{"us-east-1"}, model.DurationRange{MinDays: 1, MaxDays: 1}
		q.Start = simtest.Start.Add(time.Duration(d) * 24 * time.Hour)
		q.End = q.Start.Add(72 * time.Hour)
		offs, _, _ := collect(t, c.Search(context.Background(), q))
		for _, off := range offs {
			if off.Tenancy == "dedicated" {
				o = off
				break
			}
		}
	}
	if o.ID == "" {
		t.Skip("the emulator sells no dedicated p5.48xlarge block in eight weeks")
	}
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, res.Block.ReservationID)
	if b.Tenancy != "dedicated" {
		t.Fatalf("the block of a dedicated offering is %q", b.Tenancy)
	}
	launched, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1})
	if err != nil || len(launched.Instances) != 1 {
		t.Fatalf("launch into a dedicated block: %+v, %v", launched, err)
	}
	rc.Mu.Lock()
	defer rc.Mu.Unlock()
	runs := 0
	for _, r := range rc.Calls {
		if r.Action == "RunInstances" {
			runs++
			if got := r.Form["Placement.Tenancy"]; len(got) != 1 || got[0] != "dedicated" {
				t.Errorf("RunInstances (dry run %v) with Placement.Tenancy %v, want dedicated", r.DryRun, got)
			}
		}
	}
	if runs != 2 {
		t.Errorf("%d RunInstances calls, want the dry run and the launch", runs)
	}
}

// The adapter over a whole lifecycle with AWS's longest payment, 12 hours: nothing may
// assume a block is paid within minutes. The purchase answers payment-pending, the block
// stays so for hours, a launch is refused locally with why, then the block is scheduled,
// active, and takes instances.
func TestLifecycleWithTwelveHourPayment(t *testing.T) {
	sim, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9,
		PaymentDelay: ec2sim.PaymentDelay{Min: 12 * time.Hour, Max: 12 * time.Hour}})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	q.Start = simtest.Start.Add(3 * 24 * time.Hour)
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatal("no offering three days ahead")
	}
	o := offs[0]
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	bought := res.Block
	if bought.State != model.StatePaymentPending {
		t.Fatalf("the purchase answered %s, want payment-pending", bought.State)
	}
	paid := sim.Now().Add(12 * time.Hour)
	if dl := o.Start.Add(-5 * time.Minute); dl.Before(paid) {
		paid = dl // AWS's deadline: paid by 5 minutes before the start
	}
	if paid.Sub(sim.Now()) < time.Hour {
		t.Fatalf("the block starts at %s, too soon for a long payment", o.Start)
	}

	sim.SetTime(paid.Add(-time.Minute))
	b := blockByID(t, c, bought.ReservationID)
	if b.State != model.StatePaymentPending {
		t.Fatalf("a minute before the payment: %s", b.State)
	}
	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err == nil ||
		!strings.Contains(err.Error(), "not active yet (payment-pending)") {
		t.Errorf("launch while payment-pending: %v", err)
	}

	sim.SetTime(paid.Add(time.Second))
	if b := blockByID(t, c, bought.ReservationID); b.State != model.StateScheduled {
		t.Fatalf("after the payment: %s, want scheduled", b.State)
	}
	sim.SetTime(o.Start.Add(time.Minute))
	b = blockByID(t, c, bought.ReservationID)
	if b.State != model.StateActive {
		t.Fatalf("at the start: %s", b.State)
	}
	launched, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1})
	if err != nil || len(launched.Instances) != 1 {
		t.Fatalf("launch once active: %+v, %v", launched, err)
	}
}
