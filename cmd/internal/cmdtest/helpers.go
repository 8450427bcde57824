package cmdtest

import (
	"os"
	"path/filepath"
	"strings"
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

// LineWith is the first line of text that holds every part, in order, or "".
func LineWith(text string, parts ...string) string {
	for _, l := range strings.Split(text, "\n") {
		rest, ok := l, true
		for _, p := range parts {
			i := strings.Index(rest, p)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(p):]
		}
		if ok {
			return l
		}
	}
	return ""
}

// TempFile writes body to a file called name in a directory of the test's own, and returns
// its path.
func TempFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Fault is the emulator's fault of spec, as `gpublock sim --fault` reads it.
func Fault(t *testing.T, spec string) ec2sim.Faults {
	t.Helper()
	var f ec2sim.Faults
	if err := ec2sim.ParseFault(spec, &f); err != nil {
		t.Fatal(err)
	}
	return f
}
