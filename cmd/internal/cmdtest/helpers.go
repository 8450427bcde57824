package cmdtest

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/sagemakersim"
)

// Down is the emulator's fault of regions that do not answer.
func Down(regions ...string) ec2sim.Faults { return ec2sim.Faults{Down: regions} }

// MustTime reads an RFC 3339 time, or fails the test.
func MustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// OfferingsArgs is `gpublock offerings` against the emulator at url, for p5.48xlarge for
// 2 days in the first two weeks of its clock, then extra.
func OfferingsArgs(url string, extra ...string) []string {
	return append([]string{"offerings", "--endpoint-url", url, "--type", "p5.48xlarge", "--duration", "2d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15"}, extra...)
}

// StartPlanSim is StartSim serving SageMaker too.
func StartPlanSim(t *testing.T, tweak ...func(*ec2sim.Options)) *Sim {
	t.Helper()
	return StartSim(t, append([]func(*ec2sim.Options){func(o *ec2sim.Options) {
		o.Protocols = []ec2sim.Protocol{sagemakersim.Protocol()}
	}}, tweak...)...)
}
