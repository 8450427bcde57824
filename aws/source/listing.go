package source

import (
	"errors"
	"strings"
)

// ListingProblem is one failure of a listing of blocks or plans: a region that could not be
// read, one read without some details (Partial), or a failure that names no region.
type ListingProblem struct {
	Region  string // "" when the failure names no region
	Partial bool
	Err     error // the cause, for ExplainError
}

// ListingFailures is what a listing could not read, sorted by kind, the one reading of a
// listing's error that the commands and the terminal UI share.
type ListingFailures struct {
	Problems []ListingProblem // in the order the error lists them
	Failed   map[string]bool  // regions whose blocks could not be listed
	Partial  map[string]bool  // regions whose blocks are listed without some details
	Other    bool             // a failure that names no region
	// Accounts are the accounts of a listing over several whose part failed, wholly or in
	// some regions, by BlockProblem.Account, in the order of the problems.
	Accounts []string
}

// ClassifyListing reads the error of Blocks, BlockScanner.Scan or a source's listing: one
// *RegionFailure per region, joined, and possibly failures that name no region.
func ClassifyListing(err error) ListingFailures {
	lf := ListingFailures{Failed: map[string]bool{}, Partial: map[string]bool{}}
	for _, e := range Unjoin(err) {
		if e == nil {
			continue
		}
		var rf *RegionFailure
		if !errors.As(e, &rf) {
			lf.Other = true
			lf.Problems = append(lf.Problems, ListingProblem{Err: e})
			continue
		}
		lf.Problems = append(lf.Problems, ListingProblem{Region: rf.Region, Partial: rf.Partial, Err: rf.Err})
		if rf.Partial {
			lf.Partial[rf.Region] = true
		} else {
			lf.Failed[rf.Region] = true
		}
	}
	return lf
}

// ProblemGroup is one explanation of a listing's failures and the regions it holds for:
// with no credentials every region fails alike, and the explanation is said once.
type ProblemGroup struct {
	Regions []string // in the listing's order; none for a failure that names no region
	Partial bool
	Message string
}

// Where names the group's regions, "us-east-1, us-west-2, …", "" for none.
func (g ProblemGroup) Where() string { return strings.Join(g.Regions, ", ") }

// Grouped is the problems with the same explanation (explain's words) and kind (failed or
// partial) gathered into one group, in the order each first appears. A failure that names
// no region is grouped with the others of its words.
func (lf ListingFailures) Grouped(explain func(error) string) []ProblemGroup {
	var out []ProblemGroup
	index := map[string]int{}
	for _, p := range lf.Problems {
		msg := explain(p.Err)
		key := msg
		if p.Partial {
			key = "partial\x00" + msg
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, ProblemGroup{Partial: p.Partial, Message: msg})
		}
		if p.Region != "" {
			out[i].Regions = append(out[i].Regions, p.Region)
		}
	}
	return out
}

// NoneRead reports whether every one of the regions listed failed, so that an empty list
// says nothing about what exists and must not be shown as "no blocks".
func (lf ListingFailures) NoneRead(listed []string) bool {
	if len(listed) == 0 {
		return false
	}
	for _, r := range listed {
		if !lf.Failed[r] {
			return false
		}
	}
	return true
}

// Unjoin is the errors an errors.Join holds, the error alone otherwise, none for nil.
func Unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// RegionFailure is the failure of one region in a multi-region call.
type RegionFailure struct {
	Region string
	// Partial is true when the region's results are listed but some details are missing.
	Partial bool
	Err     error
}

func (e *RegionFailure) Error() string { return e.Region + ": " + RedactError(e.Err) }
func (e *RegionFailure) Unwrap() error { return e.Err }
