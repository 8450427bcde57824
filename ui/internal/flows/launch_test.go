package flows

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
)

var instanceRE = regexp.MustCompile(`(i-[0-9a-f]+)\s+(\w+)`)

// The receipt opens the launch form with l, on the block it has followed; on a block not
// yet started the form attaches the launch. A block still being paid for takes one too,
// the form saying that a failed payment cancels it.
func TestReceiptOpensLaunch(t *testing.T) {
	for _, paid := range []bool{true, false} {
		t.Run(map[bool]string{true: "scheduled", false: "payment-pending"}[paid], func(t *testing.T) {
			b, sim := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, ui.New(actionTestOptions(b)), 160, 48)
			s.SearchAndOpen()
			s.WaitText("✓ allowed")
			s.Type("buy")
			s.Press("enter")
			s.WaitText("BOUGHT")
			state, payment := "payment-pending", "Its payment is still being collected: a block whose payment fails never starts"
			if paid {
				sim.Advance(10 * time.Minute)
				s.WaitText("l launches instances into it · esc closes")
				state = "scheduled"
			} else {
				s.WaitText("l launches instances into it when it starts")
			}
			s.Press("l")
			text := s.WaitText("Launch into a block")
			if !strings.Contains(text, state+" · starts in") {
				t.Errorf("the launch form does not show the block's state and countdown:\n%s", text)
			}
			if got := strings.Contains(text, payment); got == paid {
				t.Errorf("the form says that a failed payment cancels the launch: %v, want %v:\n%s", got, !paid, text)
			}
			// Confirmed, it is attached to the block's start, not launched.
			s.Type("launch")
			s.Press("enter")
			s.WaitText("ATTACHED to cr-")
			if ls, err := b.AttachedLaunches(context.Background()); err != nil || len(ls) != 1 || !ls[0].Pending() {
				t.Fatalf("attached from the receipt: %+v, %v", ls, err)
			}
			final(s)
		})
	}
}
