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
