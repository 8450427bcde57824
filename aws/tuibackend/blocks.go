package tuibackend

import (
	"context"
	"errors"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

func (b awsBackend) Blocks(ctx context.Context, regions []string) (backend.BlockList, error) {
	scan, err := b.scan.Scan(ctx, regions)
	blocks := scan.Blocks
	list := backend.BlockList{Blocks: blocks, Now: b.c.Now(ctx), Quiet: scan.Quiet}
	lf := aws.ClassifyListing(err)
	for _, p := range lf.Problems {
		list.Problems = append(list.Problems, backend.BlockProblem{Region: p.Region, Partial: p.Partial, Message: aws.ExplainError(p.Err).String()})
	}
	list.Fees = b.c.FeesPaid(blocks)
	if lf.NoneRead(scan.Listed) {
		return list, explain(err)
	}
	// Plans are listed in every region asked: the scanner's quiet regions are EC2's.
	b.plans(ctx, regions, &list)
	return list, nil
}

// RescanAll makes the next listing cover every region, the quiet ones too.
func (b awsBackend) RescanAll() { b.scan.Forget() }

func (b awsBackend) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	if isPlan(blk.Source) {
		choices, err := b.planExtensionChoices(ctx, blk)
		if found != nil {
			for _, ch := range choices {
				found(ch)
			}
		}
		return choices, err
	}
	choices, err := b.c.ExtensionChoicesEach(ctx, blk, found)
	if err != nil {
		var le *aws.ExtensionLengthsError
		if errors.As(err, &le) {
			return choices, errors.New(le.Error())
		}
		return choices, actionError(err)
	}
	return choices, nil
}

func (b awsBackend) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	if isPlan(blk.Source) {
		offs, err := b.tp.ExtensionOfferings(ctx, trainingplans.PlanFromBlock(blk), days)
		if err != nil {
			return nil, planActionError(err)
		}
		return planExtensionOfferings(blk, offs), nil
	}
	offs, err := b.c.ExtensionOfferings(ctx, blk, days)
	if err != nil {
		return nil, actionError(err)
	}
	return offs, nil
}

func (b awsBackend) CheckExtend(ctx context.Context, blk model.Block, off model.ExtensionOffering) (backend.Permission, error) {
	if isPlan(blk.Source) {
		return backend.Permission{}, errNoDryRun
	}
	p, err := b.c.CheckExtend(ctx, blk, off)
	if err != nil {
		return backend.Permission{}, actionError(err)
	}
	return backend.Permission(p), nil
}

func (b awsBackend) Extend(ctx context.Context, blk model.Block, off model.ExtensionOffering) (backend.ExtendResult, error) {
	if isPlan(blk.Source) {
		return b.extendPlan(ctx, blk, off)
	}
	res, err := b.c.Extend(ctx, blk, off)
	if err != nil {
		return backend.ExtendResult{RequestID: res.RequestID}, actionError(err)
	}
	if res.Outcome != aws.Bought {
		return backend.ExtendResult{RequestID: res.RequestID}, &backend.ActionError{Outcome: backend.OutcomeUnknown,
			Summary: "The extension ended without an answer and without an error.", Hint: "Do not extend again; check the block's extension history."}
	}
	return backend.ExtendResult{RequestID: res.RequestID, Extension: res.Extension, Recovered: res.Recovered,
		Settled: settledSentences(res.Settled), NotRecorded: notRecorded(res.JournalErr)}, nil
}
