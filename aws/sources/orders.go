package sources

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

var _ source.OrderBook = backend{}

func (b backend) Orders(ctx context.Context) ([]model.Order, time.Time, error) {
	book, err := orders.Open(ctx, b.c)
	if err != nil {
		return nil, time.Time{}, explain(err)
	}
	os, err := book.List()
	return os, b.c.Now(ctx), err
}

// PlaceOrder keeps o as `gpublock order` does: the order keeps the spending cap as its
// own --max-spend; read-only mode places nothing.
func (b backend) PlaceOrder(ctx context.Context, o model.Order) (model.Order, error) {
	cfg := b.c.Config()
	if cfg.ReadOnly {
		return o, &source.ActionError{Outcome: source.NotBought, Err: source.ErrReadOnly,
			Explanation: source.Explanation{Summary: model.ReadOnlyRefusal(cfg.ReadOnlyRule, "ordered")}}
	}
	if o.MaxSpend == nil && cfg.MaxSpend != nil {
		m := *cfg.MaxSpend
		o.MaxSpend = &m
	}
	book, err := orders.Open(ctx, b.c)
	if err != nil {
		return o, explain(err)
	}
	return book.Place(o, b.c.Now(ctx))
}

func (b backend) CancelOrder(ctx context.Context, id string) (model.Order, error) {
	book, err := orders.Open(ctx, b.c)
	if err != nil {
		return model.Order{}, explain(err)
	}
	return book.Cancel(id, b.c.Now(ctx))
}
