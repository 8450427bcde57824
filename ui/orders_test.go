package ui

import (
	"context"
	"regexp"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

var orderIDRE = regexp.MustCompile(`Placed (ord-[0-9a-f]+)`)

// From a search, o places an order for the form's search: the ceiling typed, the rule and
// the worst case shown, the purchase's word typed; ctrl+o lists the orders with their state
// and countdown, and x x cancels one.
func TestOrderFromTheSearchAndTheOrdersList(t *testing.T) {
	b, s := orderAt(t, "4.5")
	text := s.WaitText("Worst case")
	uitest.MustContain(t, text, "$4.50 per accelerator-hour", "lowest cost per", "Type buy to place it", "cannot be cancelled")
	s.Type("buy")
	s.Press("enter")
	text = s.WaitText("Placed ord-")
	id := orderIDRE.FindStringSubmatch(text)
	if id == nil {
		t.Fatalf("no order id:\n%s", text)
	}
	os, _, err := b.(source.OrderBook).Orders(context.Background())
	if err != nil || len(os) != 1 || os[0].ID != id[1] || os[0].State != model.OrderOpen || os[0].Ceiling.Amount.Cmp(model.MustMoney("4.5")) != 0 {
		t.Fatalf("orders kept: %+v, %v", os, err)
	}
	s.Press("esc", "ctrl+o")
	text = s.WaitText("expires in")
	uitest.MustContain(t, text, "Orders", "open", "expires in", "Waiting for a watcher")
	s.Press("x")
	s.WaitText("x again cancels")
	s.Press("x")
	s.WaitText("Cancelled " + id[1])
	s.WaitText("cancelled")
	final(s)
	if os, _, _ := b.(source.OrderBook).Orders(context.Background()); len(os) != 1 || os[0].State != model.OrderCancelled {
		t.Fatalf("after x x: %+v", os)
	}
}

// A wrong word places nothing.
func TestOrderNeedsTheWord(t *testing.T) {
	b, s := orderAt(t, "4.5")
	s.WaitText("Worst case")
	s.Type("yes")
	s.Press("enter")
	s.WaitText(`"yes" is not buy`)
	s.Press("esc")
	final(s)
	if os, _, _ := b.(source.OrderBook).Orders(context.Background()); len(os) != 0 {
		t.Fatalf("placed %+v", os)
	}
}

// orderAt is the order dialog for the search of the form, opened with o after it, with
// ceiling typed and entered.
func orderAt(t *testing.T, ceiling string) (source.Backend, *screen) {
	t.Helper()
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, New(actionTestOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	s.FoundCount()
	s.Press("o")
	s.WaitText("Place an order")
	s.Type(ceiling)
	s.Press("tab", "enter")
	return b, s
}
