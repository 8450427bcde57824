package source

import (
	"context"
	"time"

	"github.com/gpublock/gpublock/model"
)

// OrderBook is a Backend that keeps orders (aws/orders) in its account's state store: the
// terminal UI places, lists and cancels them through it. Filling them is a watcher's.
type OrderBook interface {
	// Orders are the account's orders, oldest first, and the backend's now (countdowns
	// to expiry follow the emulator's clock).
	Orders(ctx context.Context) ([]model.Order, time.Time, error)
	// PlaceOrder checks o and keeps it open, with its id; refused in read-only mode.
	PlaceOrder(ctx context.Context, o model.Order) (model.Order, error)
	// CancelOrder cancels an open order.
	CancelOrder(ctx context.Context, id string) (model.Order, error)
}
