package capacityblocks

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// A Capacity Block's extension takes the one spend path: cancelled after it was prepared
// and before it was sent, nothing is sent, the journal says not bought, and the sentence
// says extended, not bought.
func TestExtensionCancelledBeforeSendingIsNotSent(t *testing.T) {
	_, rc, c, b, offs := extendable(t, ec2sim.Faults{})
	p, err := spend.New(c.api, c).Prepare(context.Background(), c, source.Intent{Kind: source.SpendExtend, Block: b, Extension: offs[0]})
	if err != nil || !p.Permission.Allowed || p.Account == "" {
		t.Fatalf("prepared %+v, %v", p, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := spend.New(c.api, c).Commit(ctx, p)
	if err == nil || res.Outcome != source.NotBought || !strings.Contains(err.Error(), "Cancelled before the extension was sent; nothing was extended.") {
		t.Fatalf("a cancelled extension: %+v, %v", res, err)
	}
	if n := rc.Sent("PurchaseCapacityBlockExtension"); n != 0 {
		t.Errorf("%d extension purchases sent after the cancel", n)
	}
	checkJournal(t, c, res.RequestID, source.NotBought)
	if len(blockByID(t, c, b.ReservationID).Extensions) != 0 {
		t.Error("the block was extended")
	}
}

// Read-only mode refuses an extension in its own words, before any call.
func TestReadOnlyExtensionSaysExtended(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.ReadOnly = true })
	before := rc.Total()
	b := model.Block{ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", State: model.StateActive}
	_, err := c.Extend(context.Background(), b, model.ExtensionOffering{ID: "cbe-1", DurationHours: 24})
	if err == nil || !strings.Contains(err.Error(), "nothing can be extended") || rc.Total() != before {
		t.Fatalf("read-only extension: %v, %d calls", err, rc.Total()-before)
	}
}

func TestExtendBlock(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	_, b := runningBlock(t, sim, c)

	before := rc.Of("DescribeCapacityBlockExtensionOfferings")
	if _, err := c.ExtensionOfferings(context.Background(), b, 15); err == nil || !strings.Contains(err.Error(), "Capacity Blocks are extended by 1 to 14 days") {
		t.Errorf("a 15-day extension: %v, want the rule of the source's lengths", err)
	}
	if n := rc.Of("DescribeCapacityBlockExtensionOfferings") - before; n != 0 {
		t.Errorf("a 15-day extension was asked for %d times", n)
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
	if n := rc.Sent("PurchaseCapacityBlockExtension"); n != 1 {
		t.Errorf("%d extension purchases, want 1", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	checkJournal(t, c, res.RequestID, source.Bought)
	after := blockByID(t, c, b.ReservationID)
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
	if n := rc.Sent("PurchaseCapacityBlockExtension"); n != 0 {
		t.Errorf("%d extension purchases without permission", n)
	}
	if after := blockByID(t, c, b.ReservationID); len(after.Extensions) != 0 || !after.End.Equal(b.End) {
		t.Errorf("the block changed: %+v", after)
	}
}
