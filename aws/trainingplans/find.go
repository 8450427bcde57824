package trainingplans

import (
	"context"

	gaws "github.com/gpublock/gpublock/aws"
)

// FindOffering runs the training plan search again and takes the offering with this id,
// by the finder every source shares (gaws.FindByID and its errors).
func (c *Client) FindOffering(ctx context.Context, q Query, id string) (Offering, int, error) {
	return gaws.FindByID(ctx, func(ctx context.Context) <-chan SearchEvent { return c.Search(ctx, q) },
		func(o Offering) string { return o.ID }, id)
}
