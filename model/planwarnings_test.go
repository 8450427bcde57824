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
