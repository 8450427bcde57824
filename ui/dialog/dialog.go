// Package dialog is what the dialogs of the terminal UI (ui/dialog/launch, receipt,
// purchase, extend, help) share with the root that opens them and routes their messages:
// the Dialog interface, the environment the root hands each one (Env), the messages a
// dialog sends the root (RootMsg) and receives from it (SizeMsg), the numbering that keeps
// a closed dialog's answers from a newer one (NextSeq), the block poll several of them
// make, and the frame and lines they are drawn with.
package dialog

import (
	"context"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// Dialog is a box over the screen that takes every key while it is open. Update returns
// the dialog as it now is and whether it closed.
type Dialog interface {
	Update(msg tea.Msg) (d Dialog, cmd tea.Cmd, closed bool)
	View(width, height int) string
}

// Footer is a dialog that names its own keys for the root's footer.
type Footer interface {
	Footer() string
}

// Env is what the dialogs that spend money or start instances (purchase, receipt, launch,
// extend) take from the root.
type Env struct {
	*program.Context               // theme, clock, backend, identity, shared with the root
	Poll             time.Duration // between looks at a block's state
	MaxSpend         *model.Money
	MaxSpendRule     string            // where the cap came from, for model.CapRefusal
	Tags             map[string]string // default tags of a purchase
	AMI              string            // default AMI of a launch
	Size             screen.Rect       // the body the dialog is drawn in
	Prices           *pricing.Catalog  // nil: the embedded one
	// Organization: the accounts listed are the organization's whole set, whose Capacity
	// Block instances a purchase counts against AWS's cap first; OrganizationPartial: only
	// some of its accounts are listed, so the count may be low.
	Organization, OrganizationPartial bool
}

// CallCtx is the parent of the dialog's calls: the program's, or Background in a test that
// built a context without one.
func (e Env) CallCtx() context.Context {
	if e.Context == nil || e.Ctx == nil {
		return context.Background()
	}
	return e.Ctx
}

// RootMsg asks the root, from a dialog, to say something in the status line or to run the
// search again (an offering was sold meanwhile, or bought: the results are out of date).
type RootMsg struct {
	Flash   string
	Refresh bool
}

// SizeMsg is the size of the body a dialog is drawn in, sent when the terminal is resized:
// a confirmation that does not fit whole cannot be confirmed.
type SizeMsg screen.Rect

var seq atomic.Int64

// NextSeq numbers a dialog (or a dialog's new round of calls), so that the answer of a
// closed dialog's command never reaches a newer one.
func NextSeq() int64 { return seq.Add(1) }

// Cancelled closes a dialog saying what was not done.
func Cancelled(what string) tea.Cmd {
	return func() tea.Msg { return RootMsg{Flash: what} }
}

// Sleep waits d and reports whether it did; false when ctx ended first (the program is
// quitting), so that a poll is not made for nobody.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// BlockPolledMsg is a look at a block that dialog asked for. The root reads it too: the
// blocks screen shows the block as it now is.
type BlockPolledMsg struct {
	Dialog int64
	Block  model.Block
	Found  bool
	Err    error
}

// PollBlock looks at a block after wait, on the backend.
func PollBlock(env Env, dialog int64, b model.Block, wait time.Duration) tea.Cmd {
	ctx, be := env.CallCtx(), env.Backend
	return func() tea.Msg {
		if !Sleep(ctx, wait) {
			return nil
		}
		blk, ok, err := be.Block(ctx, b.Region, b.ReservationID)
		return BlockPolledMsg{Dialog: dialog, Block: blk, Found: ok, Err: err}
	}
}

// BlockSettled: the state a receipt or a launch stops watching for. Payment takes a few
// minutes; then the block is scheduled, or active when it has started.
func BlockSettled(s model.BlockState) bool { return s != model.StatePaymentPending && s != "" }
