// Package tuibackend is the terminal UI's capacity sources over the aws packages: it
// implements ui/backend.Backend with the real adapters, against AWS or the emulator alike.
package tuibackend

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// FromAWS adapts the API client and the program's capacity sources over it (in
// model.Sources' order) to the UI's backend.Backend. This package is the one place that
// knows both, so that the UI never links the SDK.
func FromAWS(c *awsapi.Client, srcs ...source.Source) backend.Backend {
	b := awsBackend{c: c, blocks: capacityblocks.New(c), spend: spend.New(c, srcs...), bySource: map[model.Source]source.Source{}}
	for _, src := range srcs {
		b.srcs = append(b.srcs, src)
		b.bySource[src.Caps().Source] = src
	}
	return b
}

// awsBackend dispatches every call about an offering or a reservation to its source: it
// names no source but for the Capacity Blocks' own questions (subnets, the largest count,
// nearby searches).
type awsBackend struct {
	c        *awsapi.Client
	blocks   *capacityblocks.Client
	spend    *spend.Service
	srcs     []source.Source // in model.Sources' order
	bySource map[model.Source]source.Source
}

// source is the source s.
func (b awsBackend) source(s model.Source) (source.Source, error) {
	if src, ok := b.bySource[s]; ok {
		return src, nil
	}
	return nil, fmt.Errorf("%s are not available in this build", s.Plural())
}

func (b awsBackend) Caps(s model.Source) backend.SourceCaps {
	var c source.Caps
	if src, ok := b.bySource[s]; ok {
		c = src.Caps()
	}
	return backend.SourceCaps{DryRun: c.DryRun, NoDryRun: c.NoDryRun, Launch: c.Launch,
		PurchaseAction: c.PurchaseAction, ExtendAction: c.ExtendAction}
}

func (b awsBackend) Identity(ctx context.Context) (backend.Identity, error) {
	id, err := b.c.Identity(ctx)
	if err != nil {
		return backend.Identity{}, explain(err)
	}
	return backend.Identity{Account: id.Account, ARN: id.ARN, UserID: id.UserID}, nil
}

// Search searches the sources the query names (Capacity Blocks when it names none), each
// with the types it sells, and streams them into one channel.
func (b awsBackend) Search(ctx context.Context, q model.Query) <-chan backend.SearchEvent {
	out := make(chan backend.SearchEvent, 16)
	var srcs []model.Source
	for _, s := range model.Sources() {
		if _, linked := b.bySource[s]; linked && q.Searches(s) {
			srcs = append(srcs, s)
		}
	}
	m := &merged{done: map[model.Source]int{}, total: map[model.Source]int{}, regs: map[string]map[model.Source]model.RegionStatus{}, srcs: srcs}
	var wg sync.WaitGroup
	for _, s := range srcs {
		src := b.bySource[s]
		sq, ok := sourceQuery(q, s)
		if !ok && len(srcs) > 1 {
			// The other source sells the types; this one has nothing to say of them.
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, r := range regionsOf(q, b.c.Region()) {
					select {
					case out <- m.fold(s, backend.SearchEvent{Region: r, Status: &model.RegionStatus{Region: r, State: model.RegionEmpty}}):
					case <-ctx.Done():
						return
					}
				}
			}()
			continue
		}
		if !ok {
			sq = q // the source's own check names the type it does not sell
		}
		in := make(chan backend.SearchEvent, 16)
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(in)
			searchSource(ctx, src, sq, in)
		}()
		go func() {
			defer wg.Done()
			for e := range in {
				select {
				case out <- m.fold(s, e):
				case <-ctx.Done():
					// Nobody reads any more; let the adapter finish and close its channel.
					for range in {
					}
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(out) }()
	return out
}

// regionsOf is the regions a search covers: its own, or the client's when it names none.
func regionsOf(q model.Query, home string) []string {
	if len(q.Regions) > 0 {
		return q.Regions
	}
	return []string{home}
}

// searchSource runs one source's part of a search, in the UI's events.
func searchSource(ctx context.Context, src source.Source, q model.Query, out chan<- backend.SearchEvent) {
	// The screen shows the market cache's rows at once, as stale, while the calls run.
	for ev := range src.Search(capacityblocks.WithCachedRows(ctx), q) {
		e := backend.SearchEvent{Region: ev.Region, Offerings: ev.Offerings, CallsDone: ev.CallsDone, CallsTotal: ev.CallsTotal, CachedAt: ev.CachedAt, Progress: ev.Progress}
		e.Status = explainedStatus(ev.Status, explainerOf(src))
		send(ctx, out, e)
	}
}

func (b awsBackend) LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error) {
	n, err := b.blocks.LargestCount(ctx, region, instanceType, days, start, end)
	if err != nil {
		return 0, explain(err)
	}
	return n, nil
}

func (b awsBackend) Alternatives(ctx context.Context, q model.Query) ([]backend.Suggestion, error) {
	alts, err := b.blocks.Alternatives(ctx, q)
	if err != nil {
		return nil, explain(err)
	}
	out := make([]backend.Suggestion, len(alts))
	for i, a := range alts {
		out[i] = backend.Suggestion{Description: a.Description, Query: a.Query, Offerings: a.Offerings}
	}
	return out, nil
}

// explainedError keeps the original error for errors.Is while reading as the adapter's
// one-sentence explanation.
type explainedError struct {
	msg string
	err error
}

func (e explainedError) Error() string { return e.msg }
func (e explainedError) Unwrap() error { return e.err }

func explain(err error) error {
	return explainedError{msg: awsapi.ExplainError(err).String(), err: err}
}

// explainerOf is explain in the source's own words.
func explainerOf(src source.Source) func(error) error {
	return func(err error) error { return explainedError{msg: src.Explain(err).String(), err: err} }
}

// ClientOf is the aws client behind a backend FromAWS made, for the tests that check through
// it what the UI did; ok is false for any other backend.
func ClientOf(b backend.Backend) (c *awsapi.Client, ok bool) {
	ab, ok := b.(awsBackend)
	return ab.c, ok
}

// explainedStatus is a source's region status as the UI reads it: its error explained (and
// so redacted) by the source's explain, which also gives the message when there is none.
func explainedStatus(s *model.RegionStatus, explain func(error) error) *model.RegionStatus {
	if s == nil {
		return nil
	}
	st := *s
	if st.Err != nil {
		st.Err = explain(st.Err)
		if st.Message == "" {
			st.Message = st.Err.Error()
		}
	}
	return &st
}

// send hands the UI one event unless ctx has ended.
func send(ctx context.Context, out chan<- backend.SearchEvent, e backend.SearchEvent) {
	select {
	case out <- e:
	case <-ctx.Done():
	}
}
