package aws

import (
	"context"
	"errors"

	"github.com/gpublock/gpublock/model"
)

// ErrNotListed is FindByID's answer when the search ran to its end without the id: the
// offering was sold, expired, or the search differs from the one that listed it.
var ErrNotListed = errors.New("not listed")

// FindByID runs a search and takes the offering with this id from it, stopping the search
// once found; it also returns how many offerings the search listed, for the caller's "not
// among them" message. The error is ErrNotListed, ctx's own error when ctx ended first, or a
// *RegionFailure for a region that failed before the id was found (its Err for ExplainError),
// since an id missing from a region that did not answer says nothing about the id.
func FindByID[O any](ctx context.Context, search func(context.Context) <-chan Step[O], idOf func(O) string, id string) (O, int, error) {
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		found  *O
		failed *RegionFailure
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
			failed = &RegionFailure{Region: st.Region, Err: st.Err}
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

// FindOffering runs the Capacity Block search again and takes the offering with this id.
func (c *Client) FindOffering(ctx context.Context, q model.Query, id string) (model.Offering, int, error) {
	return FindByID(ctx, func(ctx context.Context) <-chan SearchEvent { return c.Search(ctx, q) },
		func(o model.Offering) string { return o.ID }, id)
}

// FindBlock lists the region's blocks and takes the one with this reservation id. found is
// false with a nil error when the region was read and has no such block; the error is the
// listing's, when it could not be read.
func (c *Client) FindBlock(ctx context.Context, region, id string) (b model.Block, found bool, err error) {
	blocks, err := c.Blocks(ctx, []string{region})
	for _, b := range blocks {
		if b.ReservationID == id {
			return b, true, nil
		}
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return model.Block{}, false, err
}
