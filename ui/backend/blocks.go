package backend

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/model"
)

// BlocksBackend is the part of Backend the blocks screen and the extend dialog use.
type BlocksBackend interface {
	// Blocks lists the account's reservations in the regions, Capacity Blocks and training
	// plans; the error is set only when no region answered.
	Blocks(ctx context.Context, regions []string) (BlockList, error)
	ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error)
	// ExtensionChoices asks for every length an extension of b could have at once; the
	// error names the lengths that could not be asked, beside the choices found. found, when
	// not nil, is handed each choice as soon as its length has answered (from any goroutine).
	ExtensionChoices(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error)
}

// BlockList is one listing of the account's Capacity Blocks.
type BlockList struct {
	Blocks []model.Block
	// Fees is what was paid for each block (its purchase and its extensions), by reservation
	// id, as this machine's purchase journal recorded it. A block bought elsewhere is absent:
	// AWS's reservation carries no fee. A training plan's is SageMaker's own figure.
	Fees map[string]model.Money
	// Now is the backend's time when the list was made: the emulator's clock may be moved, and
	// the countdowns must follow it.
	Now time.Time
	// Problems are the regions that failed, or answered with some details missing.
	Problems []BlockProblem
	// Quiet are the regions not listed this time because they had no block when last
	// listed; they are listed again every few minutes.
	Quiet []string
}

// Rescanner is a backend that lists quiet regions again only now and then; RescanAll
// makes the next listing cover every region (after a purchase, or r).
type Rescanner interface{ RescanAll() }

// BlockProblem is a region whose part of the listing failed (Partial: some details missing).
type BlockProblem struct {
	Region  string
	Partial bool
	Message string
}
