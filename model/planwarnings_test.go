package model

import (
	"strings"
	"testing"
	"time"
)

func TestPlanWarningsSayJobsStop(t *testing.T) {
	end := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	plan := Block{Source: SourceTrainingPlan, ReservationID: "tp-1", Region: "us-east-1", InstanceType: "ml.p5.48xlarge",
		TotalCount: 2, RunningCount: 2, State: StateActive, Start: end.Add(-48 * time.Hour), End: end}
	now := end.Add(-35 * time.Minute)
	ws := DefaultWarnRules().Warnings(plan, now)
	if len(ws) == 0 || ws[0].Kind != WarnExpiring {
		t.Fatalf("warnings %v, want EXPIRING first", ws)
	}
	s := ws[0].Sentence(plan, now)
	if !strings.Contains(s, "training plan tp-1") || !strings.Contains(s, "stops its jobs") || !strings.Contains(s, "11:00 UTC") {
		t.Errorf("sentence %q", s)
	}
	block := plan
	block.Source = SourceCapacityBlock
	if bs := ws[0].Sentence(block, now); strings.Contains(bs, "jobs") {
		t.Errorf("a block's sentence speaks of jobs: %q", bs)
	}
}

func TestPlanWarningKeyNamesRegion(t *testing.T) {
	end := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	a := Block{Source: SourceTrainingPlan, ReservationID: "tp-1", Region: "us-east-1", State: StateActive, End: end}
	b := a
	b.Region = "us-west-2"
	w := Warning{Kind: WarnExpiring}
	if w.Key(a) == w.Key(b) {
		t.Errorf("plans of one name in two regions share the key %q", w.Key(a))
	}
}

// Every warning a plan can have is said of a plan: its region, never the empty zone of a
// block's wording ("(ml.p5.48xlarge × 1, )").
func TestPlanSentencesNameAPlan(t *testing.T) {
	start := time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC)
	plan := Block{Source: SourceTrainingPlan, ReservationID: "tp-1", Region: "us-east-1", InstanceType: "ml.p5.48xlarge",
		TotalCount: 1, State: StatePaymentPending, Start: start, End: start.Add(48 * time.Hour)}
	now := start.Add(-22 * time.Hour)
	for _, k := range []WarningKind{WarnPaymentPending, WarnPaymentSlow, WarnPaymentFailed, WarnIdle, WarnExpiring} {
		s := k.Sentence(plan, now)
		if !strings.Contains(s, "training plan tp-1 (ml.p5.48xlarge × 1, us-east-1)") || strings.Contains(s, ", )") {
			t.Errorf("%v: %q", k, s)
		}
	}
	if s := WarnPaymentSlow.Sentence(plan, now); !strings.Contains(s, "payment pending for over") {
		t.Errorf("a slow payment: %q", s)
	}
}
