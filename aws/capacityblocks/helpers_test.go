package capacityblocks

import (
	"context"
	"sort"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// newTestClient is the source over the real adapter pointed at the emulator at url
// (apitest.Client).
func newTestClient(t testing.TB, url string, tweak func(*awsapi.Config)) *Client {
	t.Helper()
	return New(apitest.Client(t, url, tweak))
}

// recordedClient is a client of a fresh emulator of seed 1, served behind a recorder.
func recordedClient(t *testing.T) (*ec2sim.Server, *simtest.Recorder, *Client) {
	t.Helper()
	sim, rc, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	return sim, rc, newTestClient(t, url, nil)
}

// servedClient is a client of a fresh emulator of seed 1.
func servedClient(t *testing.T) (*ec2sim.Server, *Client) {
	t.Helper()
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{})
	return sim, newTestClient(t, url, nil)
}

// baseQuery asks for one p5.48xlarge for 2 days in the next two weeks in three regions.
func baseQuery() model.Query {
	return model.Query{
		InstanceTypes: []string{"p5.48xlarge"},
		Count:         1,
		Durations:     model.DurationRange{MinDays: 2, MaxDays: 2},
		Start:         simtest.Start,
		End:           simtest.Start.Add(14 * 24 * time.Hour),
		Regions:       []string{"us-east-1", "us-east-2", "us-west-2"},
	}
}

// collect drains a search.
func collect(t testing.TB, ch <-chan source.SearchEvent) ([]model.Offering, map[string]model.RegionStatus, []source.SearchEvent) {
	t.Helper()
	var offs []model.Offering
	final := map[string]model.RegionStatus{}
	var evs []source.SearchEvent
	for ev := range ch {
		evs = append(evs, ev)
		offs = append(offs, ev.Offerings...)
		if ev.Status != nil {
			final[ev.Status.Region] = *ev.Status
		}
	}
	return offs, final, evs
}

func offeringIDs(offs []model.Offering) []string {
	ids := make([]string, len(offs))
	for i, o := range offs {
		ids[i] = o.Region + "/" + o.ID + "/" + o.Fee.String()
	}
	sort.Strings(ids)
	return ids
}

// backendOf is the backend the market cache's cells of c are of.
func backendOf(c *Client) string {
	_, b := c.api.MarketCache()
	return b
}

// demoAPI is a client of the built-in simulator's backend that makes no call.
func demoAPI(t testing.TB) *awsapi.Client {
	t.Helper()
	api, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", Cloud: awsapi.CloudDemo, JournalDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// runningBlock buys the cheapest us-east-1 offering and moves the emulator an hour into
// it: the offering, and the block as it is listed then.
func runningBlock(t *testing.T, sim *ec2sim.Server, c *Client) (model.Offering, model.Block) {
	t.Helper()
	o, bought := boughtBlock(t, c)
	sim.SetTime(o.Start.Add(time.Hour))
	return o, blockByID(t, c, bought.ReservationID)
}

// oneDayExtensions is what AWS offers to extend b by a day; the test fails if nothing.
func oneDayExtensions(t *testing.T, c *Client, b model.Block) []model.ExtensionOffering {
	t.Helper()
	offs, err := c.ExtensionOfferings(context.Background(), b, 1)
	if err != nil || len(offs) == 0 {
		t.Fatalf("extension offerings %+v, %v", offs, err)
	}
	return offs
}

// extendable is a block bought and an hour into its run on an emulator with faults f,
// recording its calls (rc), with the 1-day extension offerings it is sold.
func extendable(t *testing.T, f ec2sim.Faults) (*ec2sim.Server, *simtest.Recorder, *Client, model.Block, []model.ExtensionOffering) {
	t.Helper()
	sim, rc, url := simtest.NewRecordedSim(t, 1, f)
	c := newTestClient(t, url, nil)
	_, b := runningBlock(t, sim, c)
	offs := oneDayExtensions(t, c, b)
	return sim, rc, c, b, offs
}
