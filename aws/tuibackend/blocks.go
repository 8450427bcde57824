package tuibackend

import (
	"context"
	"errors"
	"maps"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// Blocks lists every source's reservations. The first source's listing is the list: when
// none of its regions could be read the listing fails. Each further source's failure
// leaves the list standing, so it is only ever partial, and names its source.
func (b awsBackend) Blocks(ctx context.Context, regions []string) (backend.BlockList, error) {
	list := backend.BlockList{Now: b.c.Now(ctx)}
	for i, src := range b.srcs {
		l, err := src.List(ctx, regions)
		list.Blocks = append(list.Blocks, l.Blocks...)
		if len(l.Fees) > 0 {
			if list.Fees == nil {
				list.Fees = map[string]model.Money{}
			}
			maps.Copy(list.Fees, l.Fees)
		}
		lf := source.ClassifyListing(err)
		if i == 0 {
			list.Quiet = l.Quiet
			for _, g := range lf.Grouped(func(err error) string { return src.Explain(err).String() }) {
				list.Problems = append(list.Problems, backend.BlockProblem{Region: g.Where(), Partial: g.Partial, Message: g.Message})
			}
			if lf.NoneRead(l.Listed) {
				return list, explainerOf(src)(err)
			}
			continue
		}
		for _, g := range lf.Grouped(func(err error) string { return src.Explain(err).String() }) {
			list.Problems = append(list.Problems, backend.BlockProblem{Region: g.Where(), Partial: true,
				Message: src.Caps().Noun + "s: " + g.Message})
		}
	}
	return list, nil
}

// RescanAll makes the next listing cover every region, the quiet ones too.
func (b awsBackend) RescanAll() {
	for _, src := range b.srcs {
		if r, ok := src.(source.Rescanner); ok {
			r.Forget()
		}
	}
}

func (b awsBackend) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	src, err := b.source(blk.Source)
	if err != nil {
		return nil, err
	}
	choices, err := src.ExtensionChoices(ctx, blk, found)
	var (
		le *capacityblocks.ExtensionLengthsError
		pe *awsapi.PurchaseError
	)
	switch {
	case err == nil:
	case errors.As(err, &le):
		return choices, errors.New(le.Error())
	case errors.As(err, &pe):
		return choices, actionErrorIn(src, err)
	}
	// Any other error names the lengths that could not be asked, in the source's words.
	return choices, err
}

func (b awsBackend) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	src, err := b.source(blk.Source)
	if err != nil {
		return nil, err
	}
	offs, err := src.ExtensionOfferings(ctx, blk, days)
	if err != nil {
		return nil, actionErrorIn(src, err)
	}
	return offs, nil
}
