package order

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/program"
)

// book keeps orders and what was cancelled; only the order calls are made of it.
type book struct {
	source.Backend
	cancelled []string
}

func (b *book) Orders(context.Context) ([]model.Order, time.Time, error) {
	return nil, time.Time{}, nil
}
func (b *book) PlaceOrder(_ context.Context, o model.Order) (model.Order, error) {
	return o, nil
}
func (b *book) CancelOrder(_ context.Context, id string) (model.Order, error) {
	b.cancelled = append(b.cancelled, id)
	return model.Order{ID: id, State: model.OrderCancelled}, nil
}

func open(ids ...string) []model.Order {
	var out []model.Order
	for _, id := range ids {
		out = append(out, model.Order{ID: id, State: model.OrderOpen})
	}
	return out
}

func press(t *testing.T, l List, key string) (List, tea.Cmd) {
	t.Helper()
	d, cmd, closed := l.Update(tea.KeyPressMsg{Code: rune(key[0]), Text: key})
	if closed {
		t.Fatalf("%s closed the list", key)
	}
	return d.(List), cmd
}

func listed(t *testing.T, l List, orders []model.Order) List {
	t.Helper()
	d, next, _ := l.Update(listedMsg{id: l.id, orders: orders})
	if next == nil {
		t.Fatal("a listing schedules no next read")
	}
	return d.(List)
}

// The list reads itself again while open; the order x was pressed on stays the one x
// again cancels, wherever a read in between moved it, and nothing is cancelled when it
// left the list.
func TestListReadAgainKeepsTheOrderConfirmed(t *testing.T) {
	b := &book{}
	l, _ := NewList(dialog.Env{Context: &program.Context{Backend: b}}, time.Millisecond)
	l = listed(t, l, open("ord-a", "ord-b"))
	l, _ = press(t, l, "j")
	l, _ = press(t, l, "x")
	if l.confirm != "ord-b" {
		t.Fatalf("x on ord-b asks to confirm %q", l.confirm)
	}
	// Read again: another order now stands where ord-b stood.
	l = listed(t, l, open("ord-c", "ord-a", "ord-b"))
	if l.selected() != "ord-b" {
		t.Fatalf("after the read the cursor is on %q, not ord-b", l.selected())
	}
	l, cmd := press(t, l, "x")
	if cmd == nil {
		t.Fatal("x again did not cancel")
	}
	cmd()
	if len(b.cancelled) != 1 || b.cancelled[0] != "ord-b" {
		t.Fatalf("cancelled %v, want ord-b", b.cancelled)
	}

	// x on ord-a, then ord-a leaves the list: x again only asks about the order selected.
	l = listed(t, l, open("ord-a", "ord-c"))
	l, _ = press(t, l, "k")
	l, _ = press(t, l, "x")
	if l.confirm != "ord-a" {
		t.Fatalf("x on ord-a asks to confirm %q", l.confirm)
	}
	l = listed(t, l, open("ord-c"))
	l, cmd = press(t, l, "x")
	if cmd != nil || l.confirm != "ord-c" || len(b.cancelled) != 1 {
		t.Fatalf("x after the confirmed order left: confirm %q, cancelled %v", l.confirm, b.cancelled)
	}
}

// Only the newest timer reads: r or a cancel in between does not start a second chain of
// reads.
func TestListTimerReadsOnce(t *testing.T) {
	l, _ := NewList(dialog.Env{Context: &program.Context{Backend: &book{}}}, time.Millisecond)
	l = listed(t, l, nil)
	stale := timerMsg{id: l.id, timer: l.timer}
	l = listed(t, l, nil) // r's answer
	if _, cmd, _ := l.Update(stale); cmd != nil {
		t.Fatal("a stale timer read the orders again")
	}
	if _, cmd, _ := l.Update(timerMsg{id: l.id, timer: l.timer}); cmd == nil {
		t.Fatal("the current timer did not read the orders")
	}
}
