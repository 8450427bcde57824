package sources

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
)

// The backend takes the program's sources and asks the one a reservation's id belongs to;
// a source without launches refuses one before any call, in its capability's words.
func TestBackendDispatchesBySource(t *testing.T) {
	c := &awsapi.Client{}
	b := New(c, []source.Source{capacityblocks.New(c), trainingplans.Source(trainingplans.New(c))}).(backend)
	if len(b.srcs) != 2 || b.srcs[0].Caps().Source != model.SourceCapacityBlock || b.srcs[1].Caps().Source != model.SourceTrainingPlan {
		t.Fatalf("sources %d, want the blocks then the plans", len(b.srcs))
	}
	// An id no source could have is nowhere, without a call.
	if _, found, err := b.Block(context.Background(), "us-east-1", "not an id!"); found || err != nil {
		t.Errorf("bad id: found %v, %v", found, err)
	}
	plan := model.Block{Source: model.SourceTrainingPlan, ReservationID: "my-plan", Region: "us-east-1"}
	_, err := b.CheckLaunch(context.Background(), plan, source.LaunchSpec{})
	var ae *source.ActionError
	if !errors.As(err, &ae) || ae.Outcome != source.NotBought || !strings.Contains(ae.Summary, "Training Plan") {
		t.Errorf("launch into a plan: %v", err)
	}
	if _, err := b.Launch(context.Background(), plan, source.LaunchSpec{}); !errors.As(err, &ae) {
		t.Errorf("launch into a plan went ahead: %v", err)
	}
	// Through the spend service too: the source refuses it before any call.
	if _, err := b.Prepare(context.Background(), source.Intent{Kind: source.SpendLaunch, Block: plan}); !errors.As(err, &ae) || !strings.Contains(ae.Summary, "Training Plan") {
		t.Errorf("a launch into a plan, prepared: %v", err)
	}
}
