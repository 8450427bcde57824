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

// boughtBlock buys the cheapest us-east-1 offering and returns it as Blocks lists it.
func boughtBlock(t *testing.T, c *Client) (model.Offering, model.Block) {
	t.Helper()
	o := firstOffering(t, c)
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	return o, res.Block
}

func blockByID(t *testing.T, c *Client, id string) model.Block {
	t.Helper()
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatalf("blocks: %v", err)
	}
	for _, b := range blocks {
		if b.ReservationID == id {
			return b
		}
	}
	t.Fatalf("block %s not listed among %+v", id, blocks)
	return model.Block{}
}

func TestBlocksMergeEverySource(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)

	b := blockByID(t, c, bought.ReservationID)
	if b.State != model.StatePaymentPending || b.TotalCount != o.Count || b.AvailableCount != 0 || b.BlockID == "" {
		t.Errorf("before the start: %+v", b)
	}
	sim.SetTime(o.Start.Add(time.Hour))
	b = blockByID(t, c, bought.ReservationID)
	if b.State != model.StateActive || b.AvailableCount != o.Count || b.Interconnect == "" || b.Region != "us-east-1" ||
		b.InstanceType != o.InstanceType || !b.End.Equal(o.End) {
		t.Errorf("after the start: %+v", b)
	}

	res, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1, Name: "trainer"})
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	if len(res.Instances) != 1 || !strings.HasPrefix(res.Instances[0].ID, "i-") || res.SubnetID == "" || !res.Permission.Allowed {
		t.Fatalf("launch result %+v", res)
	}
	checkJournal(t, c, res.RequestID, "launched")
	b = blockByID(t, c, bought.ReservationID)
	if b.RunningCount != 1 || len(b.Instances) != 1 || b.Instances[0].ID != res.Instances[0].ID || b.AvailableCount != o.Count-1 {
		t.Errorf("after the launch: running %d, instances %+v, available %d", b.RunningCount, b.Instances, b.AvailableCount)
	}
}

func TestBlocksOfEmptyAndDownRegions(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{Down: []string{"us-west-2"}})
	c := newTestClient(t, url, nil)
	blocks, err := c.Blocks(context.Background(), []string{"us-east-1", "us-west-2"})
	if len(blocks) != 0 {
		t.Errorf("blocks in a fresh account: %+v", blocks)
	}
	var rf *source.RegionFailure
	if !errors.As(err, &rf) || rf.Region != "us-west-2" || rf.Partial {
		t.Fatalf("err %v, want us-west-2's failure", err)
	}
}

func TestLaunchTraps(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	runs := func() int { return rc.Count(func(r simtest.Recorded) bool { return r.Action == "RunInstances" }) }
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
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "RunInstances" && !r.DryRun }); n != 0 {
		t.Errorf("%d real RunInstances after a failed dry run", n)
	}
}

func TestExtendBlock(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)

	if _, err := c.ExtensionOfferings(context.Background(), b, 15); err == nil {
		t.Error("a 15-day extension was asked for")
	}
	offs, err := c.ExtensionOfferings(context.Background(), b, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(offs) == 0 {
		t.Fatal("no extension offering for an active block")
	}
	off := offs[0]
	if off.ID == "" || !off.Start.Equal(b.End) || off.Fee.IsZero() || off.DurationHours != 24 {
		t.Errorf("extension offering %+v for block ending %s", off, b.End)
	}

	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Extend(context.Background(), b, off)
	if err != nil {
		t.Fatalf("extend: %v", err)
	}
	if res.Outcome != source.Bought || !res.Recovered || res.Extension.OfferingID != off.ID {
		t.Fatalf("extend result %+v", res)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlockExtension" && !r.DryRun }); n != 1 {
		t.Errorf("%d extension purchases, want 1", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	checkJournal(t, c, res.RequestID, source.Bought)
	after := blockByID(t, c, bought.ReservationID)
	if len(after.Extensions) != 1 || after.Extensions[0].OfferingID != off.ID {
		t.Errorf("extensions after: %+v", after.Extensions)
	}

	var capped model.Money
	c = newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MaxSpend = &capped })
	if _, err := c.Extend(context.Background(), after, off); !errors.Is(err, source.ErrOverSpendCap) {
		t.Errorf("extension above the cap: %v", err)
	}
}

// Without ec2:PurchaseCapacityBlockExtension (the emulator's deny fault), the dry run says
// so, and Extend refuses before any real call.
func TestExtendNotAllowedNamesTheAction(t *testing.T) {
	_, rc, c, b, offs := extendable(t, ec2sim.Faults{Deny: []string{"PurchaseCapacityBlockExtension"}})
	perm, err := c.CheckExtend(context.Background(), b, offs[0])
	if err != nil || perm.Allowed || perm.Action != "ec2:PurchaseCapacityBlockExtension" || !strings.Contains(perm.Message, "ec2:PurchaseCapacityBlockExtension") {
		t.Fatalf("permission %+v, %v", perm, err)
	}
	res, err := c.Extend(context.Background(), b, offs[0])
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Outcome != source.NotBought || pe.Explanation.Action != "ec2:PurchaseCapacityBlockExtension" || res.Outcome != source.NotBought {
		t.Fatalf("err %v, result %+v", err, res)
	}
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlockExtension" && !r.DryRun }); n != 0 {
		t.Errorf("%d extension purchases without permission", n)
	}
	if after := blockByID(t, c, b.ReservationID); len(after.Extensions) != 0 || !after.End.Equal(b.End) {
		t.Errorf("the block changed: %+v", after)
	}
}

// A purchase whose payment fails (the emulator's payfail fault) stays listed, payment-failed,
// with nothing to launch into and nothing to extend.
func TestPaymentFailedBlockListed(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{PayFail: 1})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	if bought.State != model.StatePaymentPending {
		t.Fatalf("just bought: %s", bought.State)
	}
	sim.SetTime(simtest.Start.Add(10 * time.Minute))
	b := blockByID(t, c, bought.ReservationID)
	if b.State != model.StatePaymentFailed || b.TotalCount != o.Count || b.AvailableCount != 0 || b.BlockID == "" {
		t.Fatalf("after the payment failed: %+v", b)
	}
	sim.SetTime(o.Start.Add(time.Hour))
	b = blockByID(t, c, bought.ReservationID)
	if b.State != model.StatePaymentFailed {
		t.Fatalf("at its start: %s", b.State)
	}
	if _, err := c.CheckLaunch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err == nil {
		t.Error("a launch into a payment-failed block was checked as possible")
	}
	if _, err := c.ExtensionOfferings(context.Background(), b, 1); err == nil {
		t.Error("a payment-failed block was offered an extension")
	}
}

// An extension whose payment fails is listed as such, and the block keeps its end.
func TestExtensionPaymentFailedListed(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	b := blockByID(t, c, bought.ReservationID)
	offs, err := c.ExtensionOfferings(context.Background(), b, 1)
	if err != nil || len(offs) == 0 {
		t.Fatalf("extension offerings %+v, %v", offs, err)
	}
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	res, err := c.Extend(context.Background(), b, offs[0])
	if err != nil || res.Outcome != source.Bought || res.Extension.Status != model.ExtensionPaymentPending {
		t.Fatalf("extend: %+v, %v", res, err)
	}
	sim.SetTime(o.Start.Add(time.Hour + 10*time.Minute))
	after := blockByID(t, c, bought.ReservationID)
	if len(after.Extensions) != 1 || after.Extensions[0].Status != model.ExtensionPaymentFailed || !after.End.Equal(b.End) || after.State != model.StateActive {
		t.Errorf("after the extension's payment failed: %s until %s (was %s), extensions %+v", after.State, after.End, b.End, after.Extensions)
	}
}
