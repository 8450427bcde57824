package ui

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

// FromAWS adapts the aws package's client to Backend. The UI keeps types of its own so
// that its tests and its code compile against one small surface; this is the one place
// that knows both.
func FromAWS(c *aws.Client) Backend { return awsBackend{c, c.NewBlockScanner()} }

type awsBackend struct {
	c    *aws.Client
	scan *aws.BlockScanner // the blocks of every region, the empty ones now and then
}

func (b awsBackend) Identity(ctx context.Context) (Identity, error) {
	id, err := b.c.Identity(ctx)
	if err != nil {
		return Identity{}, explain(err)
	}
	return Identity{Account: id.Account, ARN: id.ARN, UserID: id.UserID}, nil
}

func (b awsBackend) Search(ctx context.Context, q model.Query) <-chan SearchEvent {
	in := b.c.Search(ctx, q)
	out := make(chan SearchEvent, 16)
	go func() {
		defer close(out)
		for ev := range in {
			e := SearchEvent{Region: ev.Region, Offerings: ev.Offerings, CallsDone: ev.CallsDone, CallsTotal: ev.CallsTotal}
			if ev.Status != nil {
				st := RegionStatus{Region: ev.Status.Region, State: regionState(ev.Status.State), Offerings: ev.Status.Offerings, Message: ev.Status.Message}
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

func regionState(s aws.RegionState) RegionState {
	switch s {
	case aws.RegionOK:
		return RegionOK
	case aws.RegionEmpty:
		return RegionEmpty
	case aws.RegionThrottled:
		return RegionThrottled
	case aws.RegionError:
		return RegionError
	}
	return RegionSearching
}

func (b awsBackend) LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error) {
	n, err := b.c.LargestCount(ctx, region, instanceType, days, start, end)
	if err != nil {
		return 0, explain(err)
	}
	return n, nil
}

func (b awsBackend) Alternatives(ctx context.Context, q model.Query) ([]Suggestion, error) {
	alts, err := b.c.Alternatives(ctx, q)
	if err != nil {
		return nil, explain(err)
	}
	out := make([]Suggestion, len(alts))
	for i, a := range alts {
		out[i] = Suggestion{Description: a.Description, Query: a.Query, Offerings: a.Offerings}
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
