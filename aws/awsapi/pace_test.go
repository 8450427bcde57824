package awsapi

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

func TestPacerBurstThenRateThenBackoff(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := newPacer(apilimit.Limit{Burst: 10, Rate: 2}, 0.05, func() time.Time { return now })
	for i := 0; i < 9; i++ { // 10 less the 5% headroom, rounded down
		if d := p.take(); d != 0 {
			t.Fatalf("call %d of the burst waits %v", i+1, d)
		}
	}
	d := p.take()
	if want := time.Second * 10 / 19; d < want-time.Millisecond || d > want+time.Millisecond {
		t.Fatalf("after the burst, wait %v, want 1/1.9 s", d)
	}
	now = now.Add(d)
	if p.take() != 0 {
		t.Fatal("no token after the wait")
	}
	now = now.Add(10 * time.Second) // full again
	p.throttled()
	if p.take() == 0 {
		t.Error("a token right after AWS said the bucket was empty")
	}
	if p.rate >= p.full {
		t.Errorf("rate %v after a throttle, want below %v", p.rate, p.full)
	}
	for i := 0; i < 10; i++ {
		p.succeeded()
	}
	if p.rate != p.full {
		t.Errorf("rate %v after successes, want back to %v", p.rate, p.full)
	}
}

// A service's pacer is one per client, service and endpoint: every source built over the
// client spends the same buckets.
func TestServicePacerIsOnePerServiceAndEndpoint(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	c := newTestClient(t, url, nil)
	a := c.NewServicePacer(url, "sagemaker", apilimit.SageMaker())
	if b := c.NewServicePacer(url, "sagemaker", apilimit.SageMaker()); b != a {
		t.Error("a second pacer of the same service and endpoint has buckets of its own")
	}
	if b := c.NewServicePacer("", "sagemaker", apilimit.SageMaker()); b == a {
		t.Error("another endpoint shares the buckets")
	}
	if b := c.NewServicePacer(url, "other", apilimit.SageMaker()); b == a {
		t.Error("another service shares the buckets")
	}
	if b := newTestClient(t, url, nil).NewServicePacer(url, "sagemaker", apilimit.SageMaker()); b == a {
		t.Error("another client shares the buckets")
	}
}
