package blocks

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

// runOrder runs `gpublock order args...` on the emulator.
func runOrder(t *testing.T, cs *cmdtest.Sim, args ...string) (int, string, string) {
	t.Helper()
	return cli.Run(append([]string{"order", "--endpoint-url", cs.URL, "--region", "us-east-1"}, args...)...)
}

func listOrders(t *testing.T, cs *cmdtest.Sim) []model.Order {
	t.Helper()
	return cli.Orders(t, "--endpoint-url", cs.URL, "--region", "us-east-1")
}

func purchasesInJournal(t *testing.T) int {
	t.Helper()
	n := 0
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "PurchaseCapacityBlock" && e.Phase == "intent" {
			n++
		}
	}
	return n
}

// An order placed on the command line is filled by blocks --watch once, notified once, and
// a restarted watch buys nothing more.
func TestWatchFillsAnOrderOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := runOrder(t, cs, "--type", "p5.48xlarge,p5en.48xlarge", "--count", "2", "--duration", "2d-4d",
		"--max-per-accelerator-hour", "100", "--expires", "+3d", "--yes")
	if code != 0 || !strings.HasPrefix(out, "ord-") || !strings.Contains(errs, "Worst case") {
		t.Fatalf("order: exit %d\n%s\n%s", code, out, errs)
	}
	h := &cmdtest.Hook{}
	code, errs = watchRounds(t, cs, h, 3)
	if code != 0 || !strings.Contains(errs, "FILLED") {
		t.Fatalf("watch: exit %d\n%s", code, errs)
	}
	os := listOrders(t, cs)
	if len(os) != 1 || os[0].State != model.OrderFilled || os[0].Filled == nil || len(os[0].Filled.Reservations) == 0 {
		t.Fatalf("orders after the watch: %+v", os)
	}
	if n := purchasesInJournal(t); n != 1 {
		t.Fatalf("%d purchases journalled, want 1", n)
	}
	if _, errs = watchRounds(t, cs, h, 2); strings.Contains(errs, "FILLED") || purchasesInJournal(t) != 1 {
		t.Fatalf("a restarted watch bought again:\n%s", errs)
	}
	h.Mu.Lock()
	filled := strings.Count(strings.Join(h.Kinds, ","), "order-filled")
	h.Mu.Unlock()
	if filled != 1 {
		t.Errorf("the webhook got %v, want order-filled once", h.Kinds)
	}
	// The list says what was bought.
	if code, out, _ := runOrder(t, cs, "--list"); code != 0 || !strings.Contains(out, "filled") || !strings.Contains(out, os[0].Filled.Reservations[0]) {
		t.Errorf("order --list: exit %d\n%s", code, out)
	}
}

// A watch in read-only mode buys nothing for an order, and says why in the list.
func TestReadOnlyWatchBuysNoOrder(t *testing.T) {
	cs := cmdtest.StartSim(t)
	if code, _, errs := runOrder(t, cs, "--type", "p5.48xlarge", "--count", "2", "--duration", "2d-4d", "--max-fee", "1000000", "--yes"); code != 0 {
		t.Fatalf("order: exit %d\n%s", code, errs)
	}
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--read-only")
	if code != 0 || purchasesInJournal(t) != 0 {
		t.Fatalf("read-only watch: exit %d, %d purchases\n%s", code, purchasesInJournal(t), errs)
	}
	if os := listOrders(t, cs); len(os) != 1 || os[0].State != model.OrderOpen || !strings.Contains(os[0].Why, "read-only") {
		t.Errorf("orders: %+v", os)
	}
}
