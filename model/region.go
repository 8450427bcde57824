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
