package model

import (
	"strings"
	"testing"
)

// A plan's end stops its jobs, which a warning says; a block's end adds nothing, its
// countdowns say it. Both sell up to 26 weeks, and each one's rule accepts its longest.
func TestSourceEndNoteAndMaxDays(t *testing.T) {
	if n := SourceTrainingPlan.EndNote(); !strings.Contains(n, "jobs stop") {
		t.Errorf("plan end note %q", n)
	}
	if n := SourceCapacityBlock.EndNote(); n != "" {
		t.Errorf("block end note %q", n)
	}
	for _, s := range Sources() {
		if err := s.CheckDays(s.MaxDays()); err != nil {
			t.Errorf("%s: its longest, %d days: %v", s, s.MaxDays(), err)
		}
		if err := s.CheckDays(s.MaxDays() + 1); err == nil {
			t.Errorf("%s: %d days accepted", s, s.MaxDays()+1)
		}
	}
}
