package capacityblocks

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

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
	sim, c := servedClient(t)
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
	sim, c := servedClient(t)
	o, b := runningBlock(t, sim, c)
	offs := oneDayExtensions(t, c, b)
	sim.SetFaults(ec2sim.Faults{PayFail: 1})
	res, err := c.Extend(context.Background(), b, offs[0])
	if err != nil || res.Outcome != source.Bought || res.Extension.Status != model.ExtensionPaymentPending {
		t.Fatalf("extend: %+v, %v", res, err)
	}
	sim.SetTime(o.Start.Add(time.Hour + 10*time.Minute))
	after := blockByID(t, c, b.ReservationID)
	if len(after.Extensions) != 1 || after.Extensions[0].Status != model.ExtensionPaymentFailed || !after.End.Equal(b.End) || after.State != model.StateActive {
		t.Errorf("after the extension's payment failed: %s until %s (was %s), extensions %+v", after.State, after.End, b.End, after.Extensions)
	}
}

// The stop time AWS writes in a state transition reason is read; any other reason is no time.
func TestTransitionTime(t *testing.T) {
	if got := transitionTime("User initiated (2026-12-03 11:00:02 GMT)"); !got.Equal(time.Date(2026, 12, 3, 11, 0, 2, 0, time.UTC)) {
		t.Errorf("transitionTime = %v", got)
	}
	for _, r := range []string{"", "User initiated", "Server.SpotInstanceTermination (soon)", "x (2026-13-03 11:00:02 GMT)"} {
		if got := transitionTime(r); !got.IsZero() {
			t.Errorf("transitionTime(%q) = %v, want zero", r, got)
		}
	}
}

// What DescribeCapacityBlockStatus reports of a running block (the emulator's
// interconnect and unavailable faults) reaches the block, and its warnings.
func TestBlockStatusProblemsListed(t *testing.T) {
	sim, c := servedClient(t)
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	if b := blockByID(t, c, bought.ReservationID); b.Interconnect != "ok" || b.UnavailableCount != 0 {
		t.Fatalf("a healthy block: interconnect %q, unavailable %d", b.Interconnect, b.UnavailableCount)
	}
	var f ec2sim.Faults
	for _, spec := range []string{"interconnect=impaired", "unavailable=1"} {
		if err := ec2sim.ParseFault(spec, &f); err != nil {
			t.Fatal(err)
		}
	}
	sim.SetFaults(f)
	b := blockByID(t, c, bought.ReservationID)
	if b.Interconnect != "impaired" || b.UnavailableCount != 1 {
		t.Fatalf("interconnect %q, unavailable %d; want impaired and 1", b.Interconnect, b.UnavailableCount)
	}
	kinds := map[model.WarningKind]bool{}
	for _, w := range model.DefaultWarnRules().Warnings(b, sim.Now()) {
		kinds[w.Kind] = true
	}
	if !kinds[model.WarnInterconnectImpaired] || !kinds[model.WarnCapacityUnavailable] {
		t.Errorf("warnings %v, want the interconnect and the capacity", kinds)
	}
}
