package tuibackend

import (
	"context"
	"errors"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

func (b awsBackend) Now(ctx context.Context) time.Time { return b.c.Now(ctx) }

func (b awsBackend) JournalPath() (string, error) { return b.c.JournalPath() }

func (b awsBackend) Platforms() []string { return aws.Platforms() }

func (b awsBackend) CheckPurchase(ctx context.Context, o model.Offering, platform string) (backend.Permission, error) {
	src, err := b.source(o.Source)
	if err != nil {
		return backend.Permission{}, err
	}
	p, err := src.CheckPurchase(ctx, o, platform)
	return permission(src, p, err)
}

// permission is a dry run's answer for the UI: a source without a dry run says so in its
// own sentence, which the dialog shows instead of asking.
func permission(src aws.Source, p aws.Permission, err error) (backend.Permission, error) {
	if errors.Is(err, aws.ErrNoDryRun) {
		return backend.Permission{}, err
	}
	if err != nil {
		return backend.Permission{}, actionErrorIn(src, err)
	}
	return backend.Permission(p), nil
}

func (b awsBackend) Purchase(ctx context.Context, o model.Offering, platform string, tags map[string]string) (backend.PurchaseResult, error) {
	src, err := b.source(o.Source)
	if err != nil {
		return backend.PurchaseResult{}, &backend.ActionError{Outcome: backend.NotDone, Summary: err.Error(), Err: err}
	}
	res, err := src.Purchase(ctx, o, platform, tags)
	if err != nil {
		return backend.PurchaseResult{RequestID: res.RequestID}, actionErrorIn(src, err)
	}
	if res.Outcome != aws.Bought {
		// Purchase reports every other outcome as an error; this is a guard, not a path.
		return backend.PurchaseResult{RequestID: res.RequestID}, &backend.ActionError{Outcome: backend.OutcomeUnknown,
			Summary: "The purchase ended without a " + src.Caps().Noun + " and without an error.", Hint: "Do not buy again; check the console."}
	}
	return backend.PurchaseResult{RequestID: res.RequestID, Block: res.Block, Recovered: res.Recovered,
		Settled: settledSentences(res.Settled), NotRecorded: notRecorded(res.JournalErr)}, nil
}

func settledSentences(ss []aws.Settled) []string {
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
	return aws.RedactError(err)
}

func (b awsBackend) Block(ctx context.Context, region, reservationID string) (model.Block, bool, error) {
	// The id's form says which source to ask; an id no source could have is nowhere.
	src, ok := aws.SourceOwning(b.srcs, reservationID)
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
	subs, err := b.c.Subnets(ctx, region, az)
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

func launchSpec(s backend.LaunchSpec) aws.LaunchSpec {
	return aws.LaunchSpec{ImageID: s.ImageID, Count: s.Count, KeyName: s.KeyName, SubnetID: s.SubnetID,
		SecurityGroupIDs: s.SecurityGroupIDs, Name: s.Name, Tags: s.Tags}
}

func (b awsBackend) CheckLaunch(ctx context.Context, blk model.Block, spec backend.LaunchSpec) (backend.Permission, error) {
	if err := launchable(blk); err != nil {
		return backend.Permission{}, err
	}
	p, err := b.c.CheckLaunch(ctx, blk, launchSpec(spec))
	if err != nil {
		return backend.Permission{}, actionError(err)
	}
	return backend.Permission(p), nil
}

func (b awsBackend) Launch(ctx context.Context, blk model.Block, spec backend.LaunchSpec) (backend.LaunchResult, error) {
	if err := launchable(blk); err != nil {
		return backend.LaunchResult{}, err
	}
	res, err := b.c.Launch(ctx, blk, launchSpec(spec))
	if err != nil {
		return backend.LaunchResult{RequestID: res.RequestID}, actionError(err)
	}
	return backend.LaunchResult{RequestID: res.RequestID, SubnetID: res.SubnetID, Instances: res.Instances}, nil
}

// launchable refuses, before any call, a launch into a reservation whose source gpublock
// does not launch into (a training plan is used by SageMaker's jobs instead).
func launchable(blk model.Block) *backend.ActionError {
	if caps, ok := aws.CapsOf(blk.Source); ok && caps.Launch {
		return nil
	}
	return &backend.ActionError{Outcome: backend.NotDone, Summary: "gpublock does not launch instances into a " + blk.Source.Label() + "."}
}

// actionError turns the adapter's errors into the UI's, keeping the adapter's sentences.
func actionError(err error) *backend.ActionError { return actionErrorWith(aws.ExplainError, err) }

// actionErrorIn is actionError with the source's explanations for errors that are not a
// *aws.PurchaseError (whose Sold, by aws.OfferingSold, knows every source's code).
func actionErrorIn(src aws.Source, err error) *backend.ActionError {
	return actionErrorWith(src.Explain, err)
}

func actionErrorWith(explain func(error) aws.Explanation, err error) *backend.ActionError {
	var pe *aws.PurchaseError
	if !errors.As(err, &pe) {
		ex := explain(err)
		return &backend.ActionError{Outcome: backend.NotDone, Summary: ex.Summary, Hint: ex.Hint, Code: ex.Code, Err: err}
	}
	e := &backend.ActionError{Outcome: backend.NotDone, Summary: pe.Explanation.Summary, Hint: pe.Explanation.Hint, Code: pe.Explanation.Code, Err: err,
		OverCap: errors.Is(err, aws.ErrOverSpendCap), ReadOnly: errors.Is(err, aws.ErrReadOnly), AlreadyBought: errors.Is(err, aws.ErrAlreadyBought)}
	if e.Summary == "" {
		e.Summary = pe.Error()
	}
	switch pe.Outcome {
	case aws.Unknown:
		e.Outcome = backend.OutcomeUnknown
	case aws.Bought:
		e.Outcome = backend.Done
	}
	e.Sold = aws.OfferingSold(err)
	return e
}
