package blocks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// scanSources lists the reservations of every source --source names, each through its
// own listing (the Capacity Blocks' skips the regions found empty for a while). The
// failures of a source other than the default one (the first registered) name it, and a
// region stays listed in part when an earlier source's reservations stand. The fees paid
// are the sources' (the journal's, for the blocks; SageMaker's own, for the plans).
func (a *Options) scanSources(ctx context.Context, regions []string) ([]model.Block, map[string]model.Money, error) {
	var (
		blocks []model.Block
		fees   = map[string]model.Money{}
		errs   []error
	)
	for i, src := range a.sources {
		l, err := src.List(ctx, regions)
		blocks = append(blocks, l.Blocks...)
		maps.Copy(fees, l.Fees)
		for _, e := range source.Unjoin(err) {
			var rf *source.RegionFailure
			switch {
			case e == nil:
			case cmdutil.SourcePrefix(src.Caps().Source) != "" && errors.As(e, &rf):
				errs = append(errs, &source.RegionFailure{Region: rf.Region, Err: fmt.Errorf("%s%w", cmdutil.SourcePrefix(src.Caps().Source), rf.Err), Partial: i > 0})
			default:
				errs = append(errs, e)
			}
		}
	}
	return blocks, fees, errors.Join(errs...)
}

// openSources opens every source --source names, in their order.
func (a *Options) openSources(client *awsapi.Client) error {
	srcs, _, _ := a.src.Check() // validated before
	for _, s := range srcs {
		src, err := cmdutil.OpenSource(client, s)
		if err != nil {
			return err
		}
		a.sources = append(a.sources, src)
	}
	return nil
}

// partsSource is the first source listed whose reservations are made of parts (training
// plans), which have their own table and JSON; ok is false when none is listed.
func (a *Options) partsSource() (model.Source, bool) {
	srcs, _, _ := a.src.Check()
	i := slices.IndexFunc(srcs, func(s model.Source) bool { caps, _ := cmdutil.CapsOf(s); return cmdutil.HasParts(caps) })
	if i < 0 {
		return 0, false
	}
	return srcs[i], true
}

// splitParts separates the reservations made of parts (training plans) of a listing from
// the blocks, by what their source's capabilities say.
func splitParts(all []model.Block) (blocks, plans []model.Block) {
	for _, b := range all {
		if caps, _ := cmdutil.CapsOf(b.Source); cmdutil.HasParts(caps) {
			plans = append(plans, b)
		} else {
			blocks = append(blocks, b)
		}
	}
	return blocks, plans
}
