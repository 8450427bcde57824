package model

import (
	"strings"
	"testing"
	"time"
)

func TestAutoExtendDecide(t *testing.T) {
	end := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	running := Block{ReservationID: "cr-1", Region: "us-east-1", State: StateActive, Start: end.AddDate(0, 0, -2), End: end, RunningCount: 1}
	p, err := NewAutoExtendPolicy(1, "", NewWarnRules([]time.Duration{24 * time.Hour, 2 * time.Hour, 40 * time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	none := map[string]bool{}
	if d := p.Decide(running, end.Add(-25*time.Hour), none); d.Verdict != AutoExtendNotYet {
		t.Errorf("before the lead: %+v", d)
	}
	d := p.Decide(running, end.Add(-20*time.Hour), none)
	if d.Verdict != AutoExtendNow || d.Lead != 24*time.Hour || d.Key != "auto-extend/cr-1/24h0m0s" {
		t.Fatalf("at the 24h lead: %+v", d)
	}
	decided := map[string]bool{d.Key: true}
	if d := p.Decide(running, end.Add(-20*time.Hour), decided); d.Verdict != AutoExtendNotYet {
		t.Errorf("decided at this lead, decided again: %+v", d)
	}
	// The end moved a day: the same lead, reached again, is not decided again.
	moved := running
	moved.End = end.Add(24 * time.Hour)
	if d := p.Decide(moved, end.Add(2*time.Hour), decided); d.Verdict != AutoExtendNotYet {
		t.Errorf("the same lead after the end moved: %+v", d)
	}
	// The next lead is a decision of its own.
	if d := p.Decide(running, end.Add(-90*time.Minute), decided); d.Verdict != AutoExtendNow || d.Lead != 2*time.Hour {
		t.Errorf("at the 2h lead: %+v", d)
	}
	// A watch started late decides at the shortest lead reached, which covers the longer.
	late := p.Decide(running, end.Add(-90*time.Minute), none)
	if late.Lead != 2*time.Hour {
		t.Fatalf("late: %+v", late)
	}
	if d := p.Decide(moved, end.Add(2*time.Hour), map[string]bool{late.Key: true}); d.Verdict != AutoExtendNotYet {
		t.Errorf("a longer lead after a decision at a shorter one: %+v", d)
	}
	// Past the cutoff: declined, with the refusal's words.
	if d := p.Decide(running, end.Add(-50*time.Minute), none); d.Verdict != AutoExtendDecline || !strings.Contains(d.Reason, "can no longer be extended") {
		t.Errorf("past the cutoff: %+v", d)
	}
	// Idle: not covered, unless tagged.
	idle := running
	idle.RunningCount = 0
	if d := p.Decide(idle, end.Add(-20*time.Hour), none); d.Verdict != AutoExtendNotYet {
		t.Errorf("idle: %+v", d)
	}
	idle.Tags = map[string]string{"gpublock:auto-extend": "true"}
	if d := p.Decide(idle, end.Add(-20*time.Hour), none); d.Verdict != AutoExtendNow {
		t.Errorf("idle, tagged: %+v", d)
	}
	// An extension being paid for: wait for the end to move.
	pending := running
	pending.Extensions = []Extension{{Status: ExtensionPaymentPending}}
	if d := p.Decide(pending, end.Add(-20*time.Hour), none); d.Verdict != AutoExtendNotYet {
		t.Errorf("payment pending: %+v", d)
	}
	if (AutoExtendPolicy{}).Decide(running, end.Add(-20*time.Hour), none).Verdict != AutoExtendNotYet {
		t.Error("off, yet it decided")
	}
	if _, err := NewAutoExtendPolicy(1, "", NewWarnRules([]time.Duration{40 * time.Minute})); err == nil {
		t.Error("leads within the cutoff accepted")
	}
}
