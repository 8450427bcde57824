package model

import "testing"

func TestRegionStateDoneAndWords(t *testing.T) {
	done := map[RegionState]bool{RegionSearching: false, RegionThrottled: false, RegionOK: true, RegionEmpty: true, RegionError: true, RegionCancelled: true}
	for s, want := range done {
		if s.Done() != want {
			t.Errorf("%v.Done() = %v, want %v", s, s.Done(), want)
		}
	}
	for st, want := range map[RegionStatus]string{
		{State: RegionOK, Offerings: 12}:        "ok 12",
		{State: RegionThrottled}:                "throttled (retrying)",
		{State: RegionError, Message: "denied"}: "error (denied)",
		{State: RegionCancelled}:                "cancelled",
		{State: RegionState(42)}:                "RegionState(42)",
	} {
		if got := st.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", st, got, want)
		}
	}
}

func TestRegionTally(t *testing.T) {
	tally := NewRegionTally()
	steps := []struct {
		st     RegionStatus
		failed bool
	}{
		{RegionStatus{Region: "us-east-1", State: RegionSearching}, false},
		{RegionStatus{Region: "us-east-1", State: RegionError}, true},
		{RegionStatus{Region: "eu-west-2", State: RegionThrottled}, false},
	}
	for _, s := range steps {
		if got := tally.Add(s.st); got != s.failed {
			t.Errorf("Add(%v) = %v, want %v", s.st, got, s.failed)
		}
	}
	if !tally.AllFailed() || len(tally.Answered) != 0 || !tally.Failed["us-east-1"] || tally.Failed["eu-west-2"] {
		t.Fatalf("one region failed, one still running: %+v", tally)
	}
	// A region that failed after delivering offerings answered in part.
	tally.Add(RegionStatus{Region: "eu-west-2", State: RegionError, Offerings: 3})
	if tally.AllFailed() || !tally.Answered["eu-west-2"] || !tally.Failed["eu-west-2"] {
		t.Fatalf("a region with offerings counts as answered: %+v", tally)
	}
	other := NewRegionTally()
	other.Add(RegionStatus{Region: "ap-south-1", State: RegionEmpty})
	fresh := NewRegionTally()
	fresh.Add(RegionStatus{Region: "us-east-1", State: RegionError})
	fresh.Merge(other)
	if fresh.AllFailed() || !fresh.Answered["ap-south-1"] || !fresh.Failed["us-east-1"] {
		t.Errorf("merged: %+v", fresh)
	}
	if NewRegionTally().AllFailed() {
		t.Error("a search with no status yet has not failed")
	}
}
