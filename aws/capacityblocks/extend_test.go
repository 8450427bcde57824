package capacityblocks

import (
	"context"
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
	if n := rc.Count(func(r simtest.Recorded) bool { return r.Action == "PurchaseCapacityBlockExtension" && !r.DryRun }); n != 0 {
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
