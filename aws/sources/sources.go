// Package sources is the program's capacity sources together over the aws packages, as
// source.Backend: the calls about an offering or a reservation go to its source, and the
// combining of several is source's (Search, List). The terminal UI uses it, against AWS or
// the emulator alike.
package sources

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/reporting"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// New is the API client and the program's capacity sources over it (in model.Sources'
// order) as one source.Backend. The sources are a slice, not variadic, so that a caller
// cannot forget them and get a backend that sells nothing.
func New(c *awsapi.Client, srcs []source.Source, opts ...Option) source.Backend {
	var o options
	for _, f := range opts {
		f(&o)
	}
	return backend{c: c, blocks: capacityblocks.New(c), spend: spend.New(c, srcs...), srcs: srcs,
		auto: autoextend.New(c, o.notifier, nil)}
}

// backend names no source but for the Capacity Blocks' own questions (subnets, the
// largest count, nearby searches).
type backend struct {
	c      *awsapi.Client
	blocks *capacityblocks.Client
	spend  *spend.Service
	srcs   []source.Source // in model.Sources' order
	auto   *autoextend.Recorder
}

// source is the source s.
func (b backend) source(s model.Source) (source.Source, error) {
	if src, ok := source.BySource(b.srcs, s); ok {
		return src, nil
	}
	return nil, fmt.Errorf("%s are not available in this build", s.Plural())
}

func (b backend) Caps(s model.Source) source.Caps {
	if src, ok := source.BySource(b.srcs, s); ok {
		return src.Caps()
	}
	return source.Caps{}
}

func (b backend) Identity(ctx context.Context) (source.Identity, error) {
	id, err := b.c.Identity(ctx)
	if err != nil {
		return source.Identity{}, explain(err)
	}
	return id, nil
}

// Search is source.Search, the market cache's rows shown at once, as stale, while the
// calls run. A search no source can make is each region's error, in Split's words.
func (b backend) Search(ctx context.Context, q model.Query) <-chan source.SearchEvent {
	ch, skips, err := source.Search(capacityblocks.WithCachedRows(ctx), b.srcs, q)
	if err == nil {
		return ch
	}
	out := make(chan source.SearchEvent, 1+len(q.Regions))
	out <- source.SearchEvent{Skips: skips}
	regions := q.Regions
	if len(regions) == 0 {
		regions = []string{b.c.Region()}
	}
	for _, r := range regions {
		out <- source.SearchEvent{Region: r, Status: &model.RegionStatus{Region: r, State: model.RegionError, Err: err, Message: err.Error()}}
	}
	close(out)
	return out
}

func (b backend) LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error) {
	n, err := b.blocks.LargestCount(ctx, region, instanceType, days, start, end)
	if err != nil {
		return 0, explain(err)
	}
	return n, nil
}

func (b backend) Alternatives(ctx context.Context, q model.Query) ([]source.Suggestion, error) {
	alts, err := b.blocks.Alternatives(ctx, q)
	if err != nil {
		return nil, explain(err)
	}
	return alts, nil
}

// Blocks is source.List at the backend's time.
func (b backend) Blocks(ctx context.Context, regions []string) (source.BlockList, error) {
	list, err := source.List(ctx, b.srcs, regions)
	list.Now = b.c.Now(ctx)
	return list, err
}

// Report is reporting.Gather for the backend's account over regions, every region the
// sources sell in (model.Regions) when none is named, as the blocks screen lists them.
func (b backend) Report(ctx context.Context, regions []string, from, to time.Time) (report.Input, error) {
	return reporting.Gather(ctx, b.c, b.srcs, regions, from, to)
}

// Forget makes the next listing cover every region, the quiet ones too.
func (b backend) Forget() { source.Forget(b.srcs) }

func (b backend) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	src, err := b.source(blk.Source)
	if err != nil {
		return nil, err
	}
	choices, err := src.ExtensionChoices(ctx, blk, found)
	var (
		le *capacityblocks.ExtensionLengthsError
		ae *source.ActionError
	)
	switch {
	case err == nil:
	case errors.As(err, &le):
		return choices, errors.New(le.Error())
	case errors.As(err, &ae):
		return choices, ae
	}
	// Any other error names the lengths that could not be asked, in the source's words.
	return choices, err
}

func (b backend) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	src, err := b.source(blk.Source)
	if err != nil {
		return nil, err
	}
	offs, err := src.ExtensionOfferings(ctx, blk, days)
	if err != nil {
		return nil, actionError(src.Explain, err)
	}
	return offs, nil
}

func explain(err error) error { return source.Explained(awsapi.ExplainError, err) }

// ClientOf is the aws client behind a backend New made, for the tests that check through
// it what the UI did; ok is false for any other backend.
func ClientOf(b source.Backend) (c *awsapi.Client, ok bool) {
	ab, ok := b.(backend)
	return ab.c, ok
}
