package awsapi

import (
	"context"
	"errors"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// ErrNotListed is FindByID's answer when the search ran to its end without the id: the
// offering was sold, expired, or the search differs from the one that listed it.
var ErrNotListed = errors.New("not listed")

// FindByID runs a search and takes the offering with this id from it, stopping the search
// once found; it also returns how many offerings the search listed, for the caller's "not
// among them" message. The error is ErrNotListed, ctx's own error when ctx ended first, or a
// *source.RegionFailure for a region that failed before the id was found (its Err for ExplainError),
// since an id missing from a region that did not answer says nothing about the id.
func FindByID[O any](ctx context.Context, search func(context.Context) <-chan source.Step[O], idOf func(O) string, id string) (O, int, error) {
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		found  *O
		failed *source.RegionFailure
		seen   int
		zero   O
	)
	for ev := range search(inner) {
		for i := range ev.Offerings {
			seen++
			if found == nil && idOf(ev.Offerings[i]) == id {
				o := ev.Offerings[i]
				found = &o
				cancel() // the rest of the search is not needed; the channel still drains
			}
		}
		if st := ev.Status; st != nil && st.State == model.RegionError && found == nil && failed == nil {
			failed = &source.RegionFailure{Region: st.Region, Err: st.Err}
		}
	}
	switch {
	case found != nil:
		return *found, seen, nil
	case failed != nil:
		return zero, seen, failed
	case ctx.Err() != nil:
		return zero, seen, ctx.Err()
	}
	return zero, seen, ErrNotListed
}
