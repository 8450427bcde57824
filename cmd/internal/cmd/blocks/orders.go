package blocks

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
)

// OrderSearchEvery is the least time between two searches for one order, by any watcher
// sharing the state store: an order's search is a few calls per region, type and length,
// from the same request buckets (10 calls, 0.15 a second, per region) as every other.
const OrderSearchEvery = 5 * time.Minute

// fillOrders is the watch's order step: every open order is settled, expired, searched
// for or bought (aws/orders), once per round; each step is said on stderr.
func (a *Options) fillOrders(ctx context.Context, client *awsapi.Client, stderr io.Writer) {
	if a.filler == nil {
		book, err := orders.Open(ctx, client)
		if err != nil {
			fmt.Fprintf(stderr, "gpublock blocks: orders: not filled this round: %s\n", client.ExplainError(err))
			return
		}
		a.filler = &orders.Filler{Client: client, Sources: cmdutil.SourcesOver(client), Spend: cmdutil.SpendPath(client), Book: book,
			Notify: func(e notify.Event) { a.notifier.Send(e) }, Then: orders.ThenOf(client), SearchEvery: OrderSearchEvery,
			Say: func(s string) { fmt.Fprintln(stderr, "gpublock blocks:", s) }}
	}
	if err := a.filler.FillAll(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "gpublock blocks: orders: %s\n", client.ExplainError(err))
	}
}
