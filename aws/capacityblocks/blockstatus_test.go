package capacityblocks

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// What DescribeCapacityBlockStatus reports of a running block (the emulator's
// interconnect and unavailable faults) reaches the block, and its warnings.
func TestBlockStatusProblemsListed(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
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
