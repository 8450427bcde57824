package capacityblocks

import (
	"context"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// FindOffering runs the Capacity Block search again and takes the offering with this id.
func (c *Client) FindOffering(ctx context.Context, q model.Query, id string) (model.Offering, int, error) {
	return awsapi.FindByID(ctx, func(ctx context.Context) <-chan source.SearchEvent { return c.Search(ctx, q) },
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

// FindGroup is FindBlock with the other reservations the same purchase made (one per
// segment of a segmented offering, found by the purchase's request tag), the block first
// of the group's order; the block alone when its purchase made only it.
func (c *Client) FindGroup(ctx context.Context, region, id string) ([]model.Block, bool, error) {
	blocks, err := c.Blocks(ctx, []string{region})
	for _, b := range blocks {
		if b.ReservationID == id {
			return model.Group(blocks, b), true, nil
		}
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return nil, false, err
}
