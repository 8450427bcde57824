package awsapi

import (
	"testing"
	"time"
)

func TestProgressOf(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// 28 left with 0.5 tokens at 0.15/s: the next call in 3⅓s, the last (28-0.5)/0.15 = 183⅓s on.
	p := progressOf("us-east-1", 12, 28, 0.5, 0.15, now)
	wait, left, ok := p.Pace(now)
	if d := wait - 3333*time.Millisecond; !ok || d < 0 || d > time.Millisecond {
		t.Errorf("wait %v, want 3⅓s", wait)
	}
	if d := left - 183333*time.Millisecond; d < 0 || d > time.Millisecond {
		t.Errorf("end in %v, want 183⅓s", left)
	}
	if got, want := p.Line(now), "us-east-1 12/40 calls · waiting 4s for AWS's rate · done in ~3m"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	// Within the tokens in hand: no wait, nothing left to wait for.
	if wait, left, ok := progressOf("us-east-1", 0, 3, 3.5, 0.15, now).Pace(now); !ok || wait != 0 || left != 0 {
		t.Errorf("within the burst: wait %v left %v", wait, left)
	}
	// Not paced: no wait, no estimate.
	if p := progressOf("us-east-1", 1, 3, 0, 0, now); p.Line(now) != "us-east-1 1/4 calls" {
		t.Errorf("unpaced: %+v %q", p, p.Line(now))
	}
}
