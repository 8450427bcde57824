package sources

import (
	"context"
	"errors"

	"github.com/gpublock/gpublock/aws/atstart"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

func (b backend) JournalPath() (string, error) { return b.c.JournalPath() }

func (b backend) Platforms() []string { return capacityblocks.Platforms() }

// sourceOf is the source of what the intent spends on.
func (b backend) sourceOf(in source.Intent) (source.Source, error) {
	s := in.Block.Source
	if in.Kind == source.SpendPurchase {
		s = in.Offering.Source
	}
	return b.source(s)
}

// Prepare is the spend service's Prepare: its refusal in its own words, which the command
// line prints too.
func (b backend) Prepare(ctx context.Context, in source.Intent) (source.Prepared, error) {
	src, err := b.sourceOf(in)
	if err != nil {
		return source.Prepared{Intent: in}, refusal(err)
	}
	p, err := b.spend.Prepare(ctx, src, in)
	if err != nil {
		return p, actionError(src.Explain, err)
	}
	return p, nil
}

// Commit is the spend service's Commit of what Prepare allowed; one not prepared here (its
// answer given by a test) is prepared first.
func (b backend) Commit(ctx context.Context, p source.Prepared) (source.SpendResult, error) {
	src, err := b.sourceOf(p.Intent)
	if err != nil {
		return source.SpendResult{}, refusal(err)
	}
	if p.Handle == nil {
		if p, err = b.spend.Prepare(ctx, src, p.Intent); err != nil {
			return source.SpendResult{Settled: p.Settled}, actionError(src.Explain, err)
		}
	}
	res, err := b.spend.Commit(ctx, p)
	if err != nil {
		return source.SpendResult{RequestID: res.RequestID}, actionError(src.Explain, err)
	}
	if res.Outcome != source.Bought {
		// Commit reports every other outcome as an error; this is a guard, not a path.
		return source.SpendResult{RequestID: res.RequestID}, &source.ActionError{Outcome: source.Unknown, Explanation: source.Explanation{
			Summary: "It ended without an answer and without an error.", Hint: "Do not try again before checking the console."}}
	}
	return res, nil
}

func (b backend) Block(ctx context.Context, region, reservationID string) (model.Block, bool, error) {
	// The id's form says which source to ask; an id no source could have is nowhere.
	src, ok := source.Owning(b.srcs, reservationID)
	if !ok {
		return model.Block{}, false, nil
	}
	blk, found, err := src.FindBlock(ctx, region, reservationID)
	if err != nil {
		return model.Block{}, false, source.Explained(src.Explain, err)
	}
	return blk, found, nil
}

func (b backend) Subnets(ctx context.Context, region, az string) ([]source.Subnet, error) {
	subs, err := b.blocks.Subnets(ctx, region, az)
	if err != nil {
		return nil, explain(err)
	}
	return subs, nil
}

// CheckLaunch is the launch's dry run through the spend service (allowed in read-only
// mode); a permission refused is a Permission, not an error, for the launch form.
func (b backend) CheckLaunch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.Permission, error) {
	if err := b.launchable(blk); err != nil {
		return source.Permission{}, err
	}
	src, err := b.source(blk.Source)
	if err != nil {
		return source.Permission{}, err
	}
	p, err := b.spend.Prepare(ctx, src, source.Intent{Kind: source.SpendLaunch, Block: blk, Launch: spec, CheckOnly: true})
	if err != nil && !errors.Is(err, spend.ErrNotAllowed) {
		return source.Permission{}, actionError(awsapi.ExplainError, err)
	}
	return p.Permission, nil
}

// Launch is Prepare and Commit of a launch the form's own confirmation agreed to.
func (b backend) Launch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.LaunchResult, error) {
	if err := b.launchable(blk); err != nil {
		return source.LaunchResult{}, err
	}
	return b.Commit(ctx, source.Prepared{Intent: source.Intent{Kind: source.SpendLaunch, Block: blk, Launch: spec}})
}

// launchable refuses, before any call, a launch into a reservation whose source gpublock
// does not launch into (a training plan is used by SageMaker's jobs instead).
func (b backend) launchable(blk model.Block) *source.ActionError {
	if b.Caps(blk.Source).Launch {
		return nil
	}
	return refusal(errors.New("gpublock does not launch instances into a " + blk.Source.Label() + "."))
}

// actionError is err as the Backend promises it: the spend path's or the source's own
// *source.ActionError, or any other error explained by the source.
func actionError(explain func(error) source.Explanation, err error) *source.ActionError {
	if ae, ok := errors.AsType[*source.ActionError](err); ok {
		return ae
	}
	return &source.ActionError{Outcome: source.NotBought, Explanation: explain(err), Err: err}
}

// refusal is a refusal before any call, in err's words.
func refusal(err error) *source.ActionError {
	return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: err.Error()}, Err: err}
}

// AttachLaunch is atstart's Attach, after the check that the block's source is launched into.
func (b backend) AttachLaunch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.AttachedLaunch, error) {
	if err := b.launchable(blk); err != nil {
		return source.AttachedLaunch{}, err
	}
	l, err := atstart.Attach(b.c, blk, spec)
	if err != nil {
		return source.AttachedLaunch{}, actionError(inWords, err)
	}
	return l.Attached(), nil
}

// AttachLaunches is atstart's AttachGroup, after the check that every block's source is
// launched into.
func (b backend) AttachLaunches(ctx context.Context, shares []model.LaunchShare, spec source.LaunchSpec) ([]source.AttachedLaunch, error) {
	for _, sh := range shares {
		if err := b.launchable(sh.Block); err != nil {
			return nil, err
		}
	}
	ls, err := atstart.AttachGroup(b.c, shares, spec)
	if err != nil {
		return nil, actionError(inWords, err)
	}
	out := make([]source.AttachedLaunch, len(ls))
	for i, l := range ls {
		out[i] = l.Attached()
	}
	return out, nil
}

func (b backend) AttachedLaunches(ctx context.Context) ([]source.AttachedLaunch, error) {
	ls, err := atstart.List(b.c)
	if err != nil {
		return nil, err
	}
	out := make([]source.AttachedLaunch, len(ls))
	for i, l := range ls {
		out[i] = l.Attached()
	}
	return out, nil
}

func (b backend) CancelAttached(ctx context.Context, reservationID string) (source.AttachedLaunch, error) {
	l, err := atstart.Cancel(b.c, reservationID)
	if err != nil {
		return source.AttachedLaunch{}, actionError(inWords, err)
	}
	return l.Attached(), nil
}

// inWords explains a local error (the attached launches' file) in its own words.
func inWords(err error) source.Explanation {
	return source.Explanation{Summary: source.RedactError(err)}
}
