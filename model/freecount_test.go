package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The free count is one rule, which the CLI's blocks table and the launch confirmations
// (the CLI's and the TUI's dialog, model.LaunchFacts) both state: before the start the
// count bought (AWS says 0 available while the payment is pending), once active AWS's
// available count, and nothing once over.
func TestFreeCountIsOneRuleForEveryFrontEnd(t *testing.T) {
	for _, c := range []struct {
		state BlockState
		want  int
	}{{StatePaymentPending, 2}, {StateScheduled, 2}, {StateActive, 1}, {StateExpired, 0}, {StateFailed, 0}} {
		b := Block{ReservationID: "cr-1", InstanceType: "p5.48xlarge", TotalCount: 2, AvailableCount: 1, State: c.state}
		if c.state == StatePaymentPending {
			b.AvailableCount = 0
		}
		if got := b.FreeCount(); got != c.want {
			t.Errorf("%s: FreeCount %d, want %d", c.state, got, c.want)
		}
		f := LaunchFacts(b, "123456789012", "", nil)
		if !strings.Contains(f.Lines[2].Value, fmt.Sprintf("× 2, %d free", c.want)) {
			t.Errorf("%s: the launch confirmation says %q", c.state, f.Lines[2].Value)
		}
	}
}

// An offering is for sale until its start, not at it.
func TestStarted(t *testing.T) {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	o := Offering{ID: "cb-1", Start: start}
	if o.Started(start.Add(-time.Second)) || !o.Started(start) || !o.Started(start.Add(time.Hour)) {
		t.Fatal("Started is not start ≤ now")
	}
	if s := o.StartedSentence(nil); s != "Offering cb-1 started at 2026-12-01 11:30 UTC: AWS no longer sells it, and nothing was bought. Search again." {
		t.Fatalf("%q", s)
	}
}
