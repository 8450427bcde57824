// Package backend is the surface the terminal UI asks of a capacity source: the interface and
// the plain types it speaks in. It is its own package, importing neither the SDK nor the UI,
// so that the adapter (aws/tuibackend) and the UI's tests can both import it.
package backend

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Backend is everything the UI asks of AWS. The UI owns this interface so that it never
// links the SDK; aws/tuibackend satisfies it, against AWS or against the emulator alike.
type Backend interface {
	Identity(ctx context.Context) (Identity, error)
	// Search streams what a search finds; the channel is closed when it is done or ctx is
	// cancelled.
	Search(ctx context.Context, q model.Query) <-chan SearchEvent
	// LargestCount is the largest count, 1–64, with any offering; 0 when there is none.
	LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error)
	// Alternatives are nearby searches that find something, when a search finds nothing.
	Alternatives(ctx context.Context, q model.Query) ([]Suggestion, error)
	// Caps is what a source can do, which the screens and dialogs read instead of asking
	// which source it is.
	Caps(s model.Source) SourceCaps
	// Spender buys and launches (actions.go).
	Spender
	// BlocksBackend lists and extends blocks (blocks.go).
	BlocksBackend
}

// SourceCaps is what sets a source apart for the UI (aws.SourceCaps, as registered).
type SourceCaps struct {
	// DryRun: a purchase and an extension can be checked without spending; NoDryRun, when
	// not, is the sentence that says so.
	DryRun   bool
	NoDryRun string
	// Launch: gpublock launches instances into the reservation.
	Launch bool
	// PurchaseAction and ExtendAction are the IAM actions that spend.
	PurchaseAction, ExtendAction string
}

// Identity is who the calls are made as.
type Identity struct{ Account, ARN, UserID string }

// SearchEvent is one message of a streaming search: offerings of one page, a region's new
// status, or both, with the progress of the calls.
type SearchEvent struct {
	Region     string
	Offerings  []model.Offering
	Status     *model.RegionStatus
	CallsDone  int
	CallsTotal int
	// CachedAt, when set, says Offerings are a past answer from the market cache, asked
	// then: shown as stale until the fresh answer replaces them, never bought.
	CachedAt time.Time
	// Progress is Region's calls done and left, AWS's wait and the estimated end; nil
	// when the step names no region.
	Progress *model.RegionProgress
}

// Suggestion is a search that may find something when another found nothing.
type Suggestion struct {
	Description string
	Query       model.Query
	Offerings   int
}
