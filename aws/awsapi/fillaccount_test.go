package awsapi

import (
	"context"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// A block whose listing named no owner is the caller's: every reservation listed is the
// account's own. One the listing named keeps its account.
func TestFillAccountIsTheCallersIdentity(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	blocks := []model.Block{{ReservationID: "cr-1"}, {ReservationID: "cr-2", Account: "999988887777"}, {ReservationID: "cr-3"}}
	c.FillAccount(context.Background(), blocks)
	if blocks[0].Account != ec2sim.DemoAccount || blocks[2].Account != ec2sim.DemoAccount || blocks[1].Account != "999988887777" {
		t.Errorf("accounts %q %q %q", blocks[0].Account, blocks[1].Account, blocks[2].Account)
	}
}
