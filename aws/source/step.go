package source

import (
	"time"

	"github.com/gpublock/gpublock/model"
)

// Step is one step of a streaming search of any capacity source: a batch of offerings
// as it arrived, a change of a region's status, or both.
type Step[O any] struct {
	Region     string
	Offerings  []O                 // one batch as it arrived, already de-duplicated; may be empty
	Status     *model.RegionStatus // non-nil when that region's status changed
	CallsDone  int                 // finished calls, all pages followed
	CallsTotal int
	// CachedAt, when set, says Offerings are a past answer from the market cache, asked
	// then, and not yet asked again: shown, never bought. Only a search whose context
	// asked for them (WithCachedRows) gets such steps.
	CachedAt time.Time
	// Progress is Region's calls done and left, the wait its bucket imposes and the
	// estimated end, as of this step; nil on a step of no region.
	Progress *model.RegionProgress
	// Skips are the sources a search over several left out, and why (Split); only on
	// the first step of Search's stream.
	Skips []model.SourceSkip
	// Source is the source whose step this is, in Search's stream; its offerings,
	// progress and SourceStatus are that source's alone.
	Source model.Source
	// SourceStatus is Source's own status of the region, explained, when Status (every
	// source's together) changed: a front end that names each source's failures reads it.
	SourceStatus *model.RegionStatus
}

// SearchEvent is one step of a Capacity Block search: a page of offerings, a change of a
// region's status, or both.
type SearchEvent = Step[model.Offering]

// Explanation is an error as a person reads it: what happened, and what to do.
type Explanation struct {
	Summary   string // one short sentence
	Hint      string // what to do next; may be ""
	Code      string // the AWS error code, if any
	Action    string // the IAM action that was refused, for UnauthorizedOperation
	Retryable bool   // trying again later may work
}

func (e Explanation) String() string {
	if e.Hint == "" {
		return e.Summary
	}
	return e.Summary + " " + e.Hint
}
