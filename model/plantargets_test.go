package model

import (
	"testing"
	"time"
)

func TestTargetsWords(t *testing.T) {
	if got := TargetsWords(nil); got != "training job" {
		t.Errorf("no target: %q, want training job (SageMaker's default)", got)
	}
	if got := TargetsWords([]string{TargetEndpoint, TargetStudioApps, "other"}); got != "endpoint, Studio apps, other" {
		t.Errorf("%q", got)
	}
}

// A part's line counts its own hours, not anything around it, and says its status once bought.
func TestPartSummary(t *testing.T) {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	p := Part{AvailabilityZone: "us-east-2a", InstanceType: "ml.p5.48xlarge", Count: 2, Start: start, End: start.Add(36 * time.Hour)}
	if got, want := p.Summary(), "us-east-2a · 2 × ml.p5.48xlarge · Dec 01 11:30 – Dec 02 23:30 UTC · 36h"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	p.Hours, p.Status = 24, "Scheduled"
	if got, want := p.Summary(), "us-east-2a · 2 × ml.p5.48xlarge · Dec 01 11:30 – Dec 02 23:30 UTC · 24h · Scheduled"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := PlanStatus(StatePaymentPending); got != "Pending" {
		t.Errorf("payment-pending is %q in SageMaker's words, want Pending", got)
	}
}
