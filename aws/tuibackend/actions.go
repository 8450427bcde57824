package tuibackend

import (
	"context"
	"errors"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

func (b awsBackend) Now(ctx context.Context) time.Time { return b.c.Now(ctx) }

func (b awsBackend) JournalPath() (string, error) { return b.c.JournalPath() }

func (b awsBackend) Platforms() []string { return capacityblocks.Platforms() }

// intent is the UI's intent in the spend service's terms.
func intent(in backend.Intent) source.Intent {
	return source.Intent{Kind: source.SpendKind(in.Kind), Offering: in.Offering, Platform: in.Platform, Tags: in.Tags,
		Block: in.Block, Extension: in.Extension, Launch: launchSpec(in.Launch)}
}

// sourceOf is the source of what the intent spends on.
func (b awsBackend) sourceOf(in backend.Intent) (source.Source, error) {
	s := in.Block.Source
	if in.Kind == backend.SpendPurchase {
		s = in.Offering.Source
	}
	return b.source(s)
}

// Prepare is the spend service's Prepare: its refusal in its own words, which the command
// line prints too.
func (b awsBackend) Prepare(ctx context.Context, in backend.Intent) (backend.Prepared, error) {
	out := backend.Prepared{Intent: in}
	src, err := b.sourceOf(in)
	if err != nil {
		return out, &backend.ActionError{Outcome: backend.NotDone, Summary: err.Error(), Err: err}
	}
	p, err := b.spend.Prepare(ctx, src, intent(in))
	out.Permission, out.NoDryRun, out.Settled, out.Account = backend.Permission(p.Permission), p.NoDryRun, settledSentences(p.Settled), p.Account
	if err != nil {
		return out, actionErrorIn(src, err)
	}
	out.Handle = p
	return out, nil
}

// Commit is the spend service's Commit of what Prepare allowed; one not prepared here (its
// answer given by a test) is prepared first.
func (b awsBackend) Commit(ctx context.Context, p backend.Prepared) (backend.SpendResult, error) {
	src, err := b.sourceOf(p.Intent)
	if err != nil {
		return backend.SpendResult{}, &backend.ActionError{Outcome: backend.NotDone, Summary: err.Error(), Err: err}
	}
	prep, ok := p.Handle.(spend.Prepared)
	if !ok {
		if prep, err = b.spend.Prepare(ctx, src, intent(p.Intent)); err != nil {
			return backend.SpendResult{Settled: settledSentences(prep.Settled)}, actionErrorIn(src, err)
		}
	}
	res, err := b.spend.Commit(ctx, prep)
	out := backend.SpendResult{RequestID: res.RequestID}
	if err != nil {
		return out, actionErrorIn(src, err)
	}
	if res.Outcome != source.Bought {
		// Commit reports every other outcome as an error; this is a guard, not a path.
		return out, &backend.ActionError{Outcome: backend.OutcomeUnknown,
			Summary: "It ended without an answer and without an error.", Hint: "Do not try again before checking the console."}
	}
	return backend.SpendResult{RequestID: res.RequestID, Block: res.Block, Extension: res.Extension, Instances: res.Instances, SubnetID: res.SubnetID,
		Recovered: res.Recovered, Settled: settledSentences(res.Settled), NotRecorded: notRecorded(res.JournalErr)}, nil
}

func settledSentences(ss []source.Settled) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Sentence())
	}
	return out
}

func notRecorded(err error) string {
	if err == nil {
		return ""
	}
	return source.RedactError(err)
}

func (b awsBackend) Block(ctx context.Context, region, reservationID string) (model.Block, bool, error) {
	// The id's form says which source to ask; an id no source could have is nowhere.
	src, ok := source.Owning(b.srcs, reservationID)
	if !ok {
		return model.Block{}, false, nil
	}
	blk, found, err := src.FindBlock(ctx, region, reservationID)
	if err != nil {
		return model.Block{}, false, explainerOf(src)(err)
	}
	return blk, found, nil
}

func (b awsBackend) Subnets(ctx context.Context, region, az string) ([]backend.Subnet, error) {
	subs, err := b.blocks.Subnets(ctx, region, az)
	if err != nil {
		return nil, explain(err)
	}
	out := make([]backend.Subnet, len(subs))
	for i, s := range subs {
		out[i] = backend.Subnet{ID: s.ID, VpcID: s.VpcID, AvailabilityZone: s.AvailabilityZone, CIDR: s.CIDR, Name: s.Name,
			AvailableIPs: s.AvailableIPs, Default: s.DefaultForAZ}
	}
	return out, nil
}

func launchSpec(s backend.LaunchSpec) source.LaunchSpec {
	return source.LaunchSpec{ImageID: s.ImageID, Count: s.Count, KeyName: s.KeyName, SubnetID: s.SubnetID,
		SecurityGroupIDs: s.SecurityGroupIDs, Name: s.Name, Tags: s.Tags}
}

// CheckLaunch is the launch's dry run through the spend service (allowed in read-only
// mode); a permission refused is a Permission, not an error, for the launch form.
func (b awsBackend) CheckLaunch(ctx context.Context, blk model.Block, spec backend.LaunchSpec) (backend.Permission, error) {
	if err := b.launchable(blk); err != nil {
		return backend.Permission{}, err
	}
	src, err := b.source(blk.Source)
	if err != nil {
		return backend.Permission{}, err
	}
	in := intent(backend.Intent{Kind: backend.SpendLaunch, Block: blk, Launch: spec})
	in.CheckOnly = true
	p, err := b.spend.Prepare(ctx, src, in)
	if err != nil && !errors.Is(err, spend.ErrNotAllowed) {
		return backend.Permission{}, actionError(err)
	}
	return backend.Permission(p.Permission), nil
}

// Launch is Prepare and Commit of a launch the form's own confirmation agreed to.
func (b awsBackend) Launch(ctx context.Context, blk model.Block, spec backend.LaunchSpec) (backend.LaunchResult, error) {
	if err := b.launchable(blk); err != nil {
		return backend.LaunchResult{}, err
	}
	return b.Commit(ctx, backend.Prepared{Intent: backend.Intent{Kind: backend.SpendLaunch, Block: blk, Launch: spec}})
}

// launchable refuses, before any call, a launch into a reservation whose source gpublock
// does not launch into (a training plan is used by SageMaker's jobs instead).
func (b awsBackend) launchable(blk model.Block) *backend.ActionError {
	if src, ok := b.bySource[blk.Source]; ok && src.Caps().Launch {
		return nil
	}
	return &backend.ActionError{Outcome: backend.NotDone, Summary: "gpublock does not launch instances into a " + blk.Source.Label() + "."}
}

// actionError turns the adapter's errors into the UI's, keeping the adapter's sentences.
func actionError(err error) *backend.ActionError { return actionErrorWith(awsapi.ExplainError, err) }

// actionErrorIn is actionError with the source's explanations for errors that are not a
// *awsapi.PurchaseError (whose Sold, by awsapi.OfferingSold, knows every source's code).
func actionErrorIn(src source.Source, err error) *backend.ActionError {
	return actionErrorWith(src.Explain, err)
}

func actionErrorWith(explain func(error) source.Explanation, err error) *backend.ActionError {
	var pe *awsapi.PurchaseError
	if !errors.As(err, &pe) {
		ex := explain(err)
		return &backend.ActionError{Outcome: backend.NotDone, Summary: ex.Summary, Hint: ex.Hint, Code: ex.Code, Err: err}
	}
	e := &backend.ActionError{Outcome: backend.NotDone, Summary: pe.Explanation.Summary, Hint: pe.Explanation.Hint, Code: pe.Explanation.Code, Err: err,
		OverCap: errors.Is(err, spend.ErrOverSpendCap), ReadOnly: errors.Is(err, spend.ErrReadOnly), AlreadyBought: errors.Is(err, spend.ErrAlreadyBought)}
	if e.Summary == "" {
		e.Summary = pe.Error()
	}
	switch pe.Outcome {
	case source.Unknown:
		e.Outcome = backend.OutcomeUnknown
	case source.Bought:
		e.Outcome = backend.Done
	}
	e.Sold = awsapi.OfferingSold(err)
	return e
}
