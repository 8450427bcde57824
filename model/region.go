package model

import "fmt"

// RegionState is where a region's part of a search stands. The sources report it and both
// front ends read it, so it is declared once here.
type RegionState int

const (
	RegionSearching RegionState = iota // calls still running
	RegionOK                           // finished, with offerings
	RegionEmpty                        // finished, nothing on offer
	RegionThrottled                    // AWS is throttling; the SDK is backing off and retrying
	RegionError                        // finished, at least one call failed (see Message)
	RegionCancelled                    // set by a front end when a search is cancelled before the region finished
)

func (s RegionState) String() string {
	switch s {
	case RegionSearching:
		return "searching"
	case RegionOK:
		return "ok"
	case RegionEmpty:
		return "empty"
	case RegionThrottled:
		return "throttled"
	case RegionError:
		return "error"
	case RegionCancelled:
		return "cancelled"
	}
	return fmt.Sprintf("RegionState(%d)", int(s))
}

// Done reports whether the region has finished (ok, empty, error or cancelled).
func (s RegionState) Done() bool {
	return s == RegionOK || s == RegionEmpty || s == RegionError || s == RegionCancelled
}

// RegionStatus is the state of one region in a search.
type RegionStatus struct {
	Region    string
	State     RegionState
	Offerings int    // delivered so far for this region
	Message   string // why, for errors and throttling; a note for empty regions
	Err       error  // the first error of an errored region, for the source's explanation
}

// String gives the short form people see: "searching", "ok 12", "empty",
// "throttled (retrying)", "error (message)".
func (s RegionStatus) String() string {
	switch s.State {
	case RegionOK:
		return fmt.Sprintf("ok %d", s.Offerings)
	case RegionThrottled:
		return "throttled (retrying)"
	case RegionError:
		return "error (" + s.Message + ")"
	}
	return s.State.String()
}

// RegionTally folds the statuses a search reports into which regions answered and which
// failed: the one reading of "every region failed" that a search's callers share.
type RegionTally struct {
	Answered map[string]bool // regions that finished with their answer, or part of it
	Failed   map[string]bool // regions with a call that failed
}

// NewRegionTally is an empty tally.
func NewRegionTally() RegionTally {
	return RegionTally{Answered: map[string]bool{}, Failed: map[string]bool{}}
}

// Add counts a region's status once it is done; it reports whether the region failed.
func (t RegionTally) Add(st RegionStatus) (failed bool) {
	if !st.State.Done() {
		return false
	}
	if st.State == RegionError {
		t.Failed[st.Region] = true
	}
	// A region that failed after delivering offerings still answered, in part.
	if st.State != RegionError || st.Offerings > 0 {
		t.Answered[st.Region] = true
	}
	return st.State == RegionError
}

// Merge adds another source's tally for the same search.
func (t RegionTally) Merge(o RegionTally) {
	for r := range o.Answered {
		t.Answered[r] = true
	}
	for r := range o.Failed {
		t.Failed[r] = true
	}
}

// AllFailed reports that no region answered and at least one failed: the search found
// nothing only because it could not ask, which must not read as "nothing on offer".
func (t RegionTally) AllFailed() bool { return len(t.Answered) == 0 && len(t.Failed) > 0 }
