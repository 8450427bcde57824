package trainingplans

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/model"
)

// The commands build a training-plan client per search over one base client; AWS counts
// their calls in one bucket, so they pace themselves by one: a second client's search
// waits for what the first one's drained, and nothing is throttled.
func TestClientsOverOneBaseShareTheBuckets(t *testing.T) {
	sm := apilimit.SageMaker()
	sm.Actions["SearchTrainingPlanOfferings"] = apilimit.Limit{Burst: 3, Rate: 2}
	sim, err := ec2sim.New(ec2sim.Options{Seed: 7, Start: simtest.Start, Speed: 1e-9, Protocols: []ec2sim.Protocol{sagemakersim.Protocol()},
		RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2(), SageMaker: sm}})
	if err != nil {
		t.Fatal(err)
	}
	var hit atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sim.ServeHTTP(throttleCounter{w, &hit}, r)
	}))
	t.Cleanup(srv.Close)
	first := newClient(t, srv.URL, nil)
	second := New(first.Base())
	for i, c := range []*Client{first, second} {
		_, st := collect(t, c.Search(ctx, query("us-east-1"))) // 3 calls each: the bucket's whole burst
		if s := st["us-east-1"]; s.State == model.RegionError {
			t.Fatalf("search %d: %v", i+1, s.Message)
		}
	}
	if n := hit.Load(); n != 0 {
		t.Errorf("%d calls throttled: the second client did not wait for the tokens the first one spent", n)
	}
}
