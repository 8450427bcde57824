package capacityblocks

import (
	"context"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// The hints of a refused extension or launch name the step against the same backend: a
// demo's `gpublock blocks` keeps --demo and the block's region.
func TestRefusalHintsKeepTheDemo(t *testing.T) {
	c := New(demoAPI(t))
	err := c.checkExtendable(model.Block{ReservationID: "cr-1"})
	if err == nil || !strings.Contains(err.Error(), "Pick a block from `gpublock blocks --demo`.") {
		t.Errorf("extend without a region: %v", err)
	}
	_, err = c.planLaunch(context.Background(), model.Block{ReservationID: "cr-1", Region: "us-west-2"}, source.LaunchSpec{Count: 1})
	if err == nil || !strings.Contains(err.Error(), "Pick a block from `gpublock blocks --demo --region us-west-2`.") {
		t.Errorf("launch without a zone: %v", err)
	}
}
