package flows

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
)

// Read-only mode is said in the header on every screen, beside SIMULATED or LIVE, so that
// the missing buy and extend keys are not taken for a fault; without it the header does not
// say it.
func TestHeaderSaysReadOnly(t *testing.T) {
	for _, ro := range []bool{true, false} {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		opts := actionTestOptions(b)
		opts.ReadOnly = ro
		s := newScreen(t, ui.New(opts), 100, 30)
		text := s.WaitText("123456789012")
		head := strings.SplitN(text, "\n", 2)[0]
		if strings.Contains(head, "READ-ONLY") != ro {
			t.Errorf("read-only %v: header %q", ro, head)
		}
		s.Press("2")
		text = s.WaitText("refresh")
		if head := strings.SplitN(text, "\n", 2)[0]; strings.Contains(head, "READ-ONLY") != ro {
			t.Errorf("read-only %v, blocks screen: header %q", ro, head)
		}
		final(s)
	}
}
