package capacityblocks

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// buyIn buys the cheapest p5.48xlarge offering of the region.
func buyIn(t *testing.T, c *Client, region string) model.Block {
	t.Helper()
	q := baseQuery()
	q.Regions = []string{region}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatalf("no offering in %s", region)
	}
	best := offs[0]
	for _, o := range offs[1:] {
		if o.Fee.Cmp(best.Fee) < 0 {
			best = o
		}
	}
	res, err := c.Purchase(context.Background(), best, "", nil)
	if err != nil {
		t.Fatalf("purchase in %s: %v", region, err)
	}
	return res.Block
}

// Blocks bought in three regions by another machine (another journal) appear on a fresh
// start, with one listing call per region and detail calls only where blocks are; the
// next scan lists only the regions with blocks, until the empty ones are due again.
func TestScannerFindsEveryRegionsBlocksCheaply(t *testing.T) {
	_, rec, url := simtest.NewRecordedSim(t, 1, ec2sim.Faults{})
	elsewhere := newTestClient(t, url, nil)
	want := map[string]string{}
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-east-2"} {
		want[buyIn(t, elsewhere, r).ReservationID] = r
	}

	fresh := newTestClient(t, url, nil) // its own, empty journal; home region us-east-1
	s := fresh.NewBlockScanner()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	calls := func(action string) int {
		return rec.Of(action)
	}
	before := calls("DescribeCapacityReservations")
	res, err := s.Scan(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range res.Blocks {
		got[b.ReservationID] = b.Region
	}
	if len(got) != 3 {
		t.Fatalf("listed %v, want %v", got, want)
	}
	for id, r := range want {
		if got[id] != r {
			t.Errorf("%s listed in %q, want %s", id, got[id], r)
		}
	}
	if n := calls("DescribeCapacityReservations") - before; n != len(model.Regions()) {
		t.Errorf("%d listing calls, want one per region (%d)", n, len(model.Regions()))
	}
	if n := calls("DescribeCapacityBlocks"); n != 3 {
		t.Errorf("%d DescribeCapacityBlocks calls, want 3 (only where blocks are)", n)
	}
	if fees := fresh.FeesPaid(res.Blocks); len(fees) != 0 {
		t.Errorf("fees paid known on a machine that bought nothing: %v", fees)
	}
	if fees := elsewhere.FeesPaid(res.Blocks); len(fees) != 3 {
		t.Errorf("the buyer's journal knows %d fees, want 3", len(fees))
	}

	// The next scan: the three regions with blocks only.
	before = calls("DescribeCapacityReservations")
	now = now.Add(30 * time.Second)
	res, err = s.Scan(context.Background(), nil)
	if err != nil || len(res.Blocks) != 3 {
		t.Fatalf("second scan: %d blocks, %v", len(res.Blocks), err)
	}
	slices.Sort(res.Listed)
	if n := calls("DescribeCapacityReservations") - before; n != 3 || !slices.Equal(res.Listed, []string{"ap-south-1", "eu-north-1", "us-east-2"}) {
		t.Errorf("second scan listed %v (%d calls), want the three regions with blocks", res.Listed, n)
	}
	if len(res.Quiet) != len(model.Regions())-3 {
		t.Errorf("quiet regions %v", res.Quiet)
	}

	// A block bought meanwhile in a quiet region shows once that region is due.
	id := buyIn(t, elsewhere, "us-west-2").ReservationID
	now = now.Add(DefaultEmptyRescan)
	res, err = s.Scan(context.Background(), nil)
	if err != nil || len(res.Listed) != len(model.Regions()) || !slices.ContainsFunc(res.Blocks, func(b model.Block) bool { return b.ReservationID == id }) {
		t.Errorf("after %s: listed %v, %d blocks, %v; want every region and %s", DefaultEmptyRescan, res.Listed, len(res.Blocks), err, id)
	}
}

// A region that failed is not taken for empty: it is listed again on the next scan.
func TestScannerRetriesFailedRegions(t *testing.T) {
	sim, url := simtest.Serve(t, 1, ec2sim.Faults{Down: []string{"eu-north-1"}})
	c := newTestClient(t, url, nil)
	s := c.NewBlockScanner()
	if _, err := s.Scan(context.Background(), []string{"eu-north-1", "us-east-1"}); err == nil {
		t.Fatal("no error for a region that is down")
	}
	sim.SetFaults(ec2sim.Faults{})
	res, err := s.Scan(context.Background(), []string{"eu-north-1", "us-east-1"})
	if err != nil || !slices.Contains(res.Listed, "eu-north-1") || slices.Contains(res.Listed, "us-east-1") {
		t.Errorf("second scan listed %v (quiet %v), %v; want eu-north-1 again and us-east-1 quiet", res.Listed, res.Quiet, err)
	}
}
