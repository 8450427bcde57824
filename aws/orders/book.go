// Package orders keeps gpublock's orders (capacity wanted under a ceiling, bought once when
// the market offers it) in the state store beside the journal, and fills them: a search, the
// order's rule (model.PickForOrder), the offering asked fresh, the approval command, and one
// purchase through the one spend path, under a claim that no other gpublock sharing the store
// overrides while it holds.
package orders

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/store"
	"github.com/gpublock/gpublock/model"
)

// Book is the orders of one backend and account.
type Book struct{ recs store.Records[model.Order] }

// In is the book kept in st (a backend's and account's store).
func In(st store.Store) Book { return Book{recs: store.RecordsOf[model.Order](st, "orders")} }

// Open is the book of c's backend and account.
func Open(ctx context.Context, c *awsapi.Client) (Book, error) {
	st, err := c.StateStore(ctx)
	if err != nil {
		return Book{}, err
	}
	return In(st), nil
}

// Where names the book for messages.
func (b Book) Where() string { return b.recs.Where() }

// List is every order, oldest first.
func (b Book) List() ([]model.Order, error) { return b.recs.List() }

// Get is one order.
func (b Book) Get(id string) (model.Order, error) {
	os, err := b.List()
	if err != nil {
		return model.Order{}, err
	}
	for _, o := range os {
		if o.ID == id {
			return o, nil
		}
	}
	return model.Order{}, notFound(id)
}

// ErrNotFound is wrapped by the error of an id the book does not hold.
var ErrNotFound = errors.New("no such order")

func notFound(id string) error { return fmt.Errorf("%w: %s", ErrNotFound, id) }

// NewID is a fresh order id.
func NewID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "ord-" + hex.EncodeToString(b[:])
}

// Place adds o, open, with a fresh id when it has none.
func (b Book) Place(o model.Order, now time.Time) (model.Order, error) {
	if err := Check(o, now); err != nil {
		return o, err
	}
	if o.ID == "" {
		o.ID = NewID()
	}
	o.State, o.Created = model.OrderOpen, now.UTC()
	err := b.recs.Update(func(os []model.Order, save func([]model.Order) error) error {
		for _, x := range os {
			if x.ID == o.ID {
				return fmt.Errorf("order %s exists already", o.ID)
			}
		}
		return save(append(os, o))
	})
	return o, err
}

// Check is why o cannot be placed at now, or nil.
func Check(o model.Order, now time.Time) error {
	if err := o.Ceiling.Check(); err != nil {
		return err
	}
	if !o.Expires.After(now) {
		return fmt.Errorf("the order would expire at %s, which is not after now (%s)", o.Expires.UTC().Format(model.LayoutMinuteZone), now.UTC().Format(model.LayoutMinuteZone))
	}
	if o.MaxSpend != nil && o.MaxSpend.Cmp(model.Money{}) <= 0 {
		return errors.New("--max-spend must be above zero")
	}
	if o.Then.Launch && strings.TrimSpace(o.Then.ImageID) == "" {
		return errors.New("--then launch needs --image AMI_ID")
	}
	if _, ok := o.Tags[OrderTag]; ok {
		return fmt.Errorf("the tag %s is the order's own: it names the order that bought a reservation", OrderTag)
	}
	return model.CheckTags(o.Tags)
}

// ErrNotCancellable is wrapped by the refusal to cancel an order that is buying or closed.
var ErrNotCancellable = errors.New("cannot be cancelled")

// Cancel closes an open order. One being filled is refused: its purchase may have gone
// through, and the next round settles it from AWS.
func (b Book) Cancel(id string, now time.Time) (model.Order, error) {
	return b.change(id, func(o *model.Order) error {
		switch o.State {
		case model.OrderOpen:
		case model.OrderFilling:
			return fmt.Errorf("%w: order %s is being bought now (request tag %s); whether it was bought is settled from AWS on the next round",
				ErrNotCancellable, id, o.Claim.RequestID)
		default:
			return fmt.Errorf("%w: order %s is %s already", ErrNotCancellable, id, o.State)
		}
		o.State, o.Closed, o.Why = model.OrderCancelled, now.UTC(), "cancelled"
		return nil
	})
}

// errUnchanged tells change to save nothing and return no error.
var errUnchanged = errors.New("unchanged")

// change runs f on order id under the book's lock and saves what it made of it; f's error
// saves nothing.
func (b Book) change(id string, f func(o *model.Order) error) (model.Order, error) {
	var out model.Order
	err := b.recs.Update(func(os []model.Order, save func([]model.Order) error) error {
		for i := range os {
			if os[i].ID != id {
				continue
			}
			o := os[i]
			if err := f(&o); err != nil {
				out = os[i]
				return err
			}
			os[i], out = o, o
			return save(os)
		}
		return notFound(id)
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	return out, err
}
