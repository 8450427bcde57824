package capacityblocks

import (
	"context"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// A dedicated block takes only instances launched dedicated (the emulator refuses a
// mismatch as AWS does): the launch carries the block's tenancy, and a default block's
// launch says none.
func TestLaunchCarriesTheBlocksTenancy(t *testing.T) {
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
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
