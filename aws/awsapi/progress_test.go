package awsapi

import (
	"testing"
	"time"
)

func TestProgressOf(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// 28 left with 0.5 tokens at 0.15/s: the next call in 3⅓s, the last (28-0.5)/0.15 = 183⅓s on.
	p := progressOf("us-east-1", 12, 28, 0.5, 0.15, now)
	if d := p.Wait - 3333*time.Millisecond; d < 0 || d > time.Millisecond {
		t.Errorf("wait %v, want 3⅓s", p.Wait)
	}
	if d := p.End.Sub(now) - 183333*time.Millisecond; d < 0 || d > time.Millisecond {
		t.Errorf("end in %v, want 183⅓s", p.End.Sub(now))
	}
	if got, want := p.Line(now), "us-east-1 12/40 calls · waiting 4s for AWS's rate · done in ~3m"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	// Within the tokens in hand: no wait, ends now.
	if p := progressOf("us-east-1", 0, 3, 3.5, 0.15, now); p.Wait != 0 || !p.End.Equal(now) {
		t.Errorf("within the burst: wait %v end %v", p.Wait, p.End)
	}
	// Not paced: no wait, no estimate.
	if p := progressOf("us-east-1", 1, 3, 0, 0, now); p.Wait != 0 || !p.End.IsZero() || p.Line(now) != "us-east-1 1/4 calls" {
		t.Errorf("unpaced: %+v %q", p, p.Line(now))
	}
}
