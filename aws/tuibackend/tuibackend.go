// Package tuibackend is the terminal UI's capacity sources over the aws packages: it
// implements ui/backend.Backend with the real adapters, against AWS or the emulator alike.
package tuibackend

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// FromAWS adapts the aws package's client to the UI's backend.Backend. This package is the
// one place that knows both, so that the UI never links the SDK.
func FromAWS(c *aws.Client) backend.Backend { return awsBackend{c, c.NewBlockScanner()} }

type awsBackend struct {
	c    *aws.Client
	scan *aws.BlockScanner // the blocks of every region, the empty ones now and then
}

func (b awsBackend) Identity(ctx context.Context) (backend.Identity, error) {
	id, err := b.c.Identity(ctx)
	if err != nil {
		return backend.Identity{}, explain(err)
	}
	return backend.Identity{Account: id.Account, ARN: id.ARN, UserID: id.UserID}, nil
}

func (b awsBackend) Search(ctx context.Context, q model.Query) <-chan backend.SearchEvent {
	in := b.c.Search(ctx, q)
	out := make(chan backend.SearchEvent, 16)
	go func() {
		defer close(out)
		for ev := range in {
			e := backend.SearchEvent{Region: ev.Region, Offerings: ev.Offerings, CallsDone: ev.CallsDone, CallsTotal: ev.CallsTotal}
			if ev.Status != nil {
				st := backend.RegionStatus{Region: ev.Status.Region, State: regionState(ev.Status.State), Offerings: ev.Status.Offerings, Message: ev.Status.Message}
				if ev.Status.Err != nil && st.Message == "" {
					st.Message = explain(ev.Status.Err).Error()
				}
				e.Status = &st
			}
			select {
			case out <- e:
			case <-ctx.Done():
				// Nobody reads any more; let the adapter finish and close its channel.
				for range in {
				}
				return
			}
		}
	}()
	return out
}

func regionState(s aws.RegionState) backend.RegionState {
	switch s {
	case aws.RegionOK:
		return backend.RegionOK
	case aws.RegionEmpty:
		return backend.RegionEmpty
	case aws.RegionThrottled:
		return backend.RegionThrottled
	case aws.RegionError:
		return backend.RegionError
	}
	return backend.RegionSearching
}

func (b awsBackend) LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error) {
	n, err := b.c.LargestCount(ctx, region, instanceType, days, start, end)
	if err != nil {
		return 0, explain(err)
	}
	return n, nil
}

func (b awsBackend) Alternatives(ctx context.Context, q model.Query) ([]backend.Suggestion, error) {
	alts, err := b.c.Alternatives(ctx, q)
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
	return explainedError{msg: aws.ExplainError(err).String(), err: err}
}

// ClientOf is the aws client behind a backend FromAWS made, for the tests that check through
// it what the UI did; ok is false for any other backend.
func ClientOf(b backend.Backend) (c *aws.Client, ok bool) {
	ab, ok := b.(awsBackend)
	return ab.c, ok
}
