package trainingplans

import (
	"context"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/model"
)

var ctx = context.Background()

// newSim serves an emulator with SageMaker behind a recorder; its clock barely moves.
func newSim(t testing.TB, f ec2sim.Faults) (*ec2sim.Server, string, *simtest.Recorder) {
	t.Helper()
	sim := simtest.NewSim(t, ec2sim.Options{Seed: 7, Start: simtest.Start, Speed: 1e-9, Faults: f, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
	rc := &simtest.Recorder{Next: sim}
	return sim, simtest.ServeHandler(t, rc), rc
}

// newClient is the real source pointed at the emulator (apitest.Client), looking a lost
// reply up 3 times.
func newClient(t testing.TB, url string, tweak func(*awsapi.Config)) *Client {
	t.Helper()
	base := apitest.Client(t, url, tweak)
	base.SetConfirmPace(3, time.Millisecond)
	return New(base)
}

// simClient is a client of a fresh emulator of newSim's, and its recorder.
func simClient(t testing.TB) (*ec2sim.Server, *simtest.Recorder, *Client) {
	t.Helper()
	sim, url, rc := newSim(t, ec2sim.Faults{})
	return sim, rc, newClient(t, url, nil)
}

func query(regions ...string) Query {
	return Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Days: []int{2, 3, 5}, Start: simtest.Start,
		End: simtest.Start.Add(model.MaxLeadTime), Regions: regions}
}

// collect drains a search.
func collect(t testing.TB, ch <-chan SearchEvent) ([]Offering, map[string]model.RegionStatus) {
	t.Helper()
	var offs []Offering
	last := map[string]model.RegionStatus{}
	for ev := range ch {
		offs = append(offs, ev.Offerings...)
		if ev.Status != nil {
			last[ev.Region] = *ev.Status
		}
	}
	return offs, last
}

// someOffering searches until it has one.
func someOffering(t testing.TB, c *Client) Offering {
	t.Helper()
	offs, st := collect(t, c.Search(ctx, query("us-east-1", "us-east-2", "us-west-2")))
	if len(offs) == 0 {
		t.Fatalf("no offering anywhere: %v", st)
	}
	return offs[0]
}
