package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// The auto-extension policy opens the extend dialog on a block it would extend once the
// block reaches the lead, with the policy's length, and asks once per block and lead:
// cancelled, it is not asked again on the next listing.
func TestAutoExtendAsksOnScreen(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := buyBlock(t, b, testNow.Add(24*time.Hour))
	var tag string
	for k, v := range bought.Tags {
		tag = k + "=" + v // the block's own tag stands for the one that asks for the policy
	}
	p, err := model.NewAutoExtendPolicy(2, tag, model.NewWarnRules([]time.Duration{12 * time.Hour}))
	if err != nil || tag == "" {
		t.Fatalf("policy over tag %q: %v", tag, err)
	}
	opts := testOptions(b)
	opts.StartOnBlocks, opts.NoNotify, opts.AutoExtend = true, true, p
	sim.SetTime(o.Start.Add(time.Hour))
	s := newScreen(t, New(opts), 200, 40)
	text := s.waitText(bought.ReservationID)
	if strings.Contains(text, "Extend "+bought.ReservationID) {
		t.Fatalf("asked before the lead:\n%s", text)
	}
	listed := func(at time.Time) string {
		sim.SetTime(at)
		s.press("r")
		return s.waitFor("the listing at "+at.Format("15:04"), func(text string) bool { return strings.Contains(text, "as of "+at.UTC().Format("15:04")) })
	}
	sim.SetTime(o.End.Add(-10 * time.Hour))
	s.press("r")
	// The lengths stream in; the policy's is chosen once it is listed.
	s.waitFor("the extend dialog, the policy's 2 days chosen", func(text string) bool {
		return strings.Contains(text, "Extend "+bought.ReservationID) && strings.Contains(text, "› 2d")
	})
	s.press("esc")
	text = listed(o.End.Add(-9 * time.Hour))
	if strings.Contains(text, "Extend "+bought.ReservationID) {
		t.Errorf("asked again at the same lead:\n%s", text)
	}
	s.final()
}
