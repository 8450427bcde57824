package sources

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
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

// The backend's report covers every region the sources sell in, not only the home one,
// at the backend's time, with what the journal says was paid.
func TestReportCoversEveryRegion(t *testing.T) {
	ctx := context.Background()
	sim, url := simtest.ServeWith(t, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()}})
	c := apitest.Client(t, url, nil)
	cb := capacityblocks.New(c)
	b := New(c, []source.Source{cb, trainingplans.Source(trainingplans.New(c))})
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 1, MaxDays: 1},
		Start: simtest.Start, End: simtest.Start.Add(14 * 24 * time.Hour), Regions: []string{"us-west-2"}}
	var o model.Offering
	for ev := range cb.Search(ctx, q) {
		if o.ID == "" && len(ev.Offerings) > 0 {
			o = ev.Offerings[0]
		}
	}
	if o.ID == "" {
		t.Fatal("no offering in us-west-2")
	}
	bought, err := cb.Purchase(ctx, o, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	sim.SetTime(o.Start.Add(time.Hour))
	in, err := b.Report(ctx, nil, simtest.Start, simtest.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if !in.Now.Equal(sim.Now()) || len(in.Reservations) != 1 {
		t.Fatalf("report at %v (emulator %v): %+v", in.Now, sim.Now(), in.Reservations)
	}
	r := in.Reservations[0]
	if r.ID != bought.Block.ReservationID || r.Region != "us-west-2" || len(r.Payments) != 1 || r.Payments[0].Origin != report.FromJournal ||
		r.Payments[0].Amount.Cmp(o.Fee) != 0 || !r.Use.Known {
		t.Errorf("reservation %+v", r)
	}
}
