// Package sourcestest is the emulator the front ends' tests drive: ec2sim served over HTTP
// and reached through the real adapters and SDK, as the program reaches AWS, with static
// credentials and none of the host's AWS configuration. Only tests import it.
package sourcestest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
)

// Env gives the test static credentials and empty AWS configuration files, and clears
// what would point the SDK elsewhere, so that the host's AWS setup never leaks in.
func Env(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"config", "credentials"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAUITEST0000000000")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "ui-test-secret")
	for _, k := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EC2", "AWS_ENDPOINT_URL_SAGEMAKER"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// Backend serves an emulator of opts (with SageMaker's protocol, and a clock slowed to a
// crawl unless opts sets its speed, so that a test's seconds do not move the market) and
// returns the backend the program would open on it: both sources, through the SDK.
func Backend(t testing.TB, opts ec2sim.Options) (source.Backend, *ec2sim.Server) {
	t.Helper()
	Env(t)
	return Emulator(t, opts)
}

// Emulator is Backend in the environment the test already has (Env's): another account's
// emulator beside the first, say.
func Emulator(t testing.TB, opts ec2sim.Options) (source.Backend, *ec2sim.Server) {
	t.Helper()
	if opts.Speed == 0 {
		opts.Speed = 1e-9
	}
	opts.Protocols = append(opts.Protocols, sagemakersim.Protocol())
	sim, err := ec2sim.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	c, err := awsapi.New(context.Background(), awsapi.Config{
		Region: "us-east-1", EndpointURL: srv.URL, Version: "test",
		MaxBackoff: 5 * time.Millisecond, JournalDir: filepath.Join(t.TempDir(), "journal"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return sources.New(c, []source.Source{capacityblocks.New(c), trainingplans.Source(trainingplans.New(c))}), sim
}

// ClientOf is the adapter behind a Backend, for what a test asks AWS directly.
func ClientOf(t testing.TB, b source.Backend) *awsapi.Client {
	t.Helper()
	c, ok := sources.ClientOf(b)
	if !ok {
		t.Fatalf("backend %T is not the adapter", b)
	}
	return c
}

// Reservations are the Capacity Blocks of the regions, as the adapter lists them.
func Reservations(t testing.TB, c *awsapi.Client, regions ...string) []model.Block {
	t.Helper()
	blocks, err := capacityblocks.New(c).Blocks(context.Background(), regions)
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// BuyBlock buys, through the adapter, the earliest (then cheapest) one-day p5.48xlarge block
// of us-east-1 starting in the week after from.
func BuyBlock(t testing.TB, b source.Backend, from time.Time) (*awsapi.Client, model.Offering, model.Block) {
	t.Helper()
	c := ClientOf(t, b)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 1, MaxDays: 1},
		Start: from, End: from.Add(7 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	var best model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		for _, o := range ev.Offerings {
			if best.ID == "" || o.Start.Before(best.Start) || (o.Start.Equal(best.Start) && o.Fee.Cmp(best.Fee) < 0) {
				best = o
			}
		}
	}
	if best.ID == "" {
		t.Fatal("no offering to buy")
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), best, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	return c, best, res.Block
}

// AwaitBlock is the block id as the backend lists it in us-east-1.
func AwaitBlock(t testing.TB, b source.Backend, id string) model.Block {
	t.Helper()
	list, err := b.Blocks(context.Background(), []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, blk := range list.Blocks {
		if blk.ReservationID == id {
			return blk
		}
	}
	t.Fatalf("block %s not listed", id)
	return model.Block{}
}

// BuyFirstBlock buys, through the adapter, the first two-day p5.48xlarge offering of
// us-east-1 in the two weeks after now, as the search lists it: the offering and the
// reservation.
func BuyFirstBlock(t testing.TB, c *awsapi.Client, now time.Time) (model.Offering, model.Block) {
	t.Helper()
	ctx := context.Background()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: now, End: now.Add(14 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	var offs []model.Offering
	for ev := range capacityblocks.New(c).Search(ctx, q) {
		offs = append(offs, ev.Offerings...)
	}
	if len(offs) == 0 {
		t.Fatal("no offering to buy")
	}
	o := offs[0]
	res, err := capacityblocks.New(c).Purchase(ctx, o, "", nil)
	if err != nil || res.Block.ReservationID == "" {
		t.Fatalf("buying %s: %+v, %v", o.ID, res, err)
	}
	return o, res.Block
}

// BlockNow is the reservation id as the adapter lists it now in us-east-1.
func BlockNow(t testing.TB, c *awsapi.Client, id string) model.Block {
	t.Helper()
	for _, b := range Reservations(t, c, "us-east-1") {
		if b.ReservationID == id {
			return b
		}
	}
	t.Fatalf("reservation %s is not listed", id)
	return model.Block{}
}
