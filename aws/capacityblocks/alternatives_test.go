package capacityblocks

import (
	"context"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

func TestLargestCount(t *testing.T) {
	_, rc, url := simtest.NewRecordedSim(t, 5, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-2"}
	n, err := c.LargestCount(context.Background(), "us-east-2", "p5.48xlarge", 2, q.Start, q.End)
	if err != nil {
		t.Fatal(err)
	}
	if calls := rc.Total(); calls > 8 {
		t.Errorf("%d calls; bisection needs at most 8", calls)
	}
	has := func(count int) bool {
		q.Count = count
		offs, _, _ := collect(t, c.Search(context.Background(), q))
		return len(offs) > 0
	}
	if n == 0 {
		if has(1) {
			t.Fatal("LargestCount 0, yet one instance is on offer")
		}
		t.Fatal("the market of seed 5 offers no p5.48xlarge for 2 days in us-east-2: this test needs a market that does")
	}
	if !has(n) {
		t.Errorf("LargestCount %d, but nothing is on offer for %d", n, n)
	}
	if n < model.MaxCount && has(n+1) {
		t.Errorf("LargestCount %d, but %d is on offer too", n, n+1)
	}
	t.Logf("largest count %d", n)

	for _, bad := range []struct {
		region, typ string
		days        int
	}{{"us-east-2", "m5.large", 2}, {"", "p5.48xlarge", 2}, {"us-east-2", "p5.48xlarge", 15}} {
		if _, err := c.LargestCount(context.Background(), bad.region, bad.typ, bad.days, q.Start, q.End); err == nil {
			t.Errorf("LargestCount%v accepted", bad)
		}
	}
}

func TestAlternativesWhenNothingIsFound(t *testing.T) {
	_, c := servedClient(t)
	// A query the market of seed 1 has nothing for, even split into segments across the
	// zones: 64 instances for 14 days starting in the next three days.
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	q.Count = 64
	q.Durations = model.DurationRange{MinDays: 14, MaxDays: 14}
	q.End = simtest.Start.Add(17 * 24 * time.Hour)
	if offs, _, _ := collect(t, c.Search(context.Background(), q)); len(offs) != 0 {
		t.Fatalf("the market of seed 1 offers %d × p5.48xlarge in us-east-1: this test needs a query that finds nothing", q.Count)
	}
	sugs, err := c.Alternatives(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if len(sugs) == 0 {
		t.Fatalf("no alternative for %d × p5.48xlarge", q.Count)
	}
	for _, s := range sugs {
		if s.Description == "" || s.Offerings == 0 {
			t.Errorf("suggestion %+v", s)
		}
		offs, _, _ := collect(t, c.Search(context.Background(), s.Query))
		if len(offs) != s.Offerings {
			t.Errorf("suggestion %q claims %d offerings, its query finds %d", s.Description, s.Offerings, len(offs))
		}
		if err := s.Query.Validate(simtest.Start); err != nil {
			t.Errorf("suggestion %q is not a valid query: %v", s.Description, err)
		}
		t.Logf("%s: %d", s.Description, s.Offerings)
	}
}
