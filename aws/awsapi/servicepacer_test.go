package awsapi

import (
	"testing"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

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
