package sources

import (
	"context"
	"testing"
	"time"

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
