package advisor

import (
	"context"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// searchOver adapts the backend's streaming search to the advisor's pages; nil without a
// backend.
func searchOver(b source.Backend) SearchFunc {
	if b == nil {
		return nil
	}
	return func(ctx context.Context, q model.Query) <-chan Page {
		out := make(chan Page)
		go func() {
			defer close(out)
			for ev := range b.Search(ctx, q) {
				p := Page{Region: ev.Region, Offerings: ev.Offerings, Progress: ev.Progress}
				if ev.Status != nil && ev.Status.State == model.RegionError {
					p.Region, p.Failed = ev.Status.Region, ev.Status.Message
				}
				if len(p.Offerings) == 0 && p.Failed == "" && p.Progress == nil {
					continue
				}
				select {
				case out <- p:
				case <-ctx.Done():
					return
				}
			}
		}()
		return out
	}
}
