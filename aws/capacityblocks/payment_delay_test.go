package capacityblocks

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// The adapter over a whole lifecycle with AWS's longest payment, 12 hours: nothing may
// assume a block is paid within minutes. The purchase answers payment-pending, the block
// stays so for hours, a launch is refused locally with why, then the block is scheduled,
// active, and takes instances.
func TestLifecycleWithTwelveHourPayment(t *testing.T) {
	sim, err := ec2sim.New(ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9,
		PaymentDelay: ec2sim.PaymentDelay{Min: 12 * time.Hour, Max: 12 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, nil)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	q.Start = simtest.Start.Add(3 * 24 * time.Hour)
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatal("no offering three days ahead")
	}
	o := offs[0]
	res, err := c.Purchase(context.Background(), o, "", nil)
	if err != nil {
		t.Fatalf("purchase: %v", err)
	}
	bought := res.Block
	if bought.State != model.StatePaymentPending {
		t.Fatalf("the purchase answered %s, want payment-pending", bought.State)
	}
	paid := sim.Now().Add(12 * time.Hour)
	if dl := o.Start.Add(-5 * time.Minute); dl.Before(paid) {
		paid = dl // AWS's deadline: paid by 5 minutes before the start
	}
	if paid.Sub(sim.Now()) < time.Hour {
		t.Fatalf("the block starts at %s, too soon for a long payment", o.Start)
	}

	sim.SetTime(paid.Add(-time.Minute))
	b := blockByID(t, c, bought.ReservationID)
	if b.State != model.StatePaymentPending {
		t.Fatalf("a minute before the payment: %s", b.State)
	}
	if _, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1}); err == nil ||
		!strings.Contains(err.Error(), "not active yet (payment-pending)") {
		t.Errorf("launch while payment-pending: %v", err)
	}

	sim.SetTime(paid.Add(time.Second))
	if b := blockByID(t, c, bought.ReservationID); b.State != model.StateScheduled {
		t.Fatalf("after the payment: %s, want scheduled", b.State)
	}
	sim.SetTime(o.Start.Add(time.Minute))
	b = blockByID(t, c, bought.ReservationID)
	if b.State != model.StateActive {
		t.Fatalf("at the start: %s", b.State)
	}
	launched, err := c.Launch(context.Background(), b, source.LaunchSpec{ImageID: "ami-0123456789abcdef0", Count: 1})
	if err != nil || len(launched.Instances) != 1 {
		t.Fatalf("launch once active: %+v, %v", launched, err)
	}
}
