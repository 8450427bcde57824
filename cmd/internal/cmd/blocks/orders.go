package blocks

import (
	"context"
	"fmt"
	"io"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// fillOrders is the watch's order step: every open order is settled, expired, searched
// for or bought (aws/orders), once per round; each step is said on stderr.
func (a *Options) fillOrders(ctx context.Context, client *awsapi.Client, stderr io.Writer) {
	if a.filler == nil {
		f, err := cmdutil.OrderFiller(ctx, client, a.notifier, func(s string) { fmt.Fprintln(stderr, "gpublock blocks:", s) })
		if err != nil {
			fmt.Fprintf(stderr, "gpublock blocks: orders: not filled this round: %s\n", client.ExplainError(err))
			return
		}
		a.filler = f
	}
	if err := a.filler.FillAll(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "gpublock blocks: orders: %s\n", client.ExplainError(err))
	}
}
