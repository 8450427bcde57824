package capacityblocks

import (
	"context"
	"errors"
	"testing"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

func TestFindOfferingAgainByID(t *testing.T) {
	_, c := servedClient(t)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) < 2 {
		t.Fatalf("want two offerings to pick from, got %d", len(offs))
	}
	want := offs[len(offs)-1]
	got, _, err := c.FindOffering(context.Background(), q, want.ID)
	if err != nil || got.ID != want.ID || got.Fee.Cmp(want.Fee) != 0 || !got.Start.Equal(want.Start) {
		t.Fatalf("FindOffering(%s) = %+v, %v", want.ID, got, err)
	}
	_, seen, err := c.FindOffering(context.Background(), q, "cb-0000000000000000")
	if !errors.Is(err, awsapi.ErrNotListed) || seen != len(offs) {
		t.Errorf("an id not listed: seen %d of %d, err %v", seen, len(offs), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := c.FindOffering(ctx, q, want.ID); err == nil || errors.Is(err, awsapi.ErrNotListed) {
		t.Errorf("a cancelled look-up: %v, want the cancellation or its region's failure", err)
	}
}

func TestFindOfferingInARegionThatIsDown(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{Down: []string{"us-west-2"}})
	c := newTestClient(t, url, nil)
	q := baseQuery()
	q.Regions = []string{"us-west-2"}
	_, _, err := c.FindOffering(context.Background(), q, "cb-0000000000000000")
	var rf *source.RegionFailure
	if !errors.As(err, &rf) || rf.Region != "us-west-2" || rf.Err == nil || errors.Is(err, awsapi.ErrNotListed) {
		t.Fatalf("err %v, want us-west-2's failure (an id missing from a region that did not answer is not 'not listed')", err)
	}
}

// FindByID stops at the id and still drains the search; it keeps the first region's
// failure, not a later one's.
func TestFindByIDStopsAtTheID(t *testing.T) {
	first := errors.New("first")
	steps := []source.Step[string]{
		{Region: "a", Status: &model.RegionStatus{Region: "a", State: model.RegionError, Err: first}},
		{Region: "b", Status: &model.RegionStatus{Region: "b", State: model.RegionError, Err: errors.New("second")}},
		{Region: "c", Offerings: []string{"x", "y"}},
		{Region: "c", Offerings: []string{"z"}},
	}
	var stopped bool
	search := func(ctx context.Context) <-chan source.Step[string] {
		ch := make(chan source.Step[string])
		go func() {
			defer close(ch)
			for _, s := range steps {
				ch <- s
			}
			stopped = ctx.Err() != nil
		}()
		return ch
	}
	id := func(s string) string { return s }
	got, seen, err := awsapi.FindByID(context.Background(), search, id, "y")
	if err != nil || got != "y" || !stopped {
		t.Fatalf("FindByID(y) = %q, %d, %v; search told to stop: %v", got, seen, err, stopped)
	}
	_, seen, err = awsapi.FindByID(context.Background(), search, id, "w")
	var rf *source.RegionFailure
	if !errors.As(err, &rf) || rf.Region != "a" || rf.Err != first || seen != 3 {
		t.Fatalf("FindByID(w) = %d, %v; want region a's failure after 3 offerings", seen, err)
	}
}

func TestFindBlock(t *testing.T) {
	_, c := servedClient(t)
	_, bought := boughtBlock(t, c)
	b, found, err := c.FindBlock(context.Background(), "us-east-1", bought.ReservationID)
	if err != nil || !found || b.ReservationID != bought.ReservationID || b.Region != "us-east-1" {
		t.Fatalf("FindBlock = %+v, %v, %v", b, found, err)
	}
	b, found, err = c.FindBlock(context.Background(), "us-east-1", "cr-00000000000000000")
	if err != nil || found || b.ReservationID != "" {
		t.Fatalf("a block that does not exist: %+v, %v, %v", b, found, err)
	}
}

func TestFindBlockInARegionThatIsDown(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{Down: []string{"us-west-2"}})
	c := newTestClient(t, url, nil)
	_, found, err := c.FindBlock(context.Background(), "us-west-2", "cr-00000000000000000")
	if found || err == nil {
		t.Fatalf("found %v, err %v: a region that cannot be read must say so, not 'no such block'", found, err)
	}
}
