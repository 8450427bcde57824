package search

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// An offering whose start has passed is not for sale: the clock's tick (Revalidate) takes
// it off the table, and buy on a row that started between two ticks says so and opens no
// purchase.
func TestStartedOfferingsGoAndCannotBeBought(t *testing.T) {
	now := testNow
	m := found(t, false, 3)
	m.pc = &program.Context{Ctx: context.Background(), Theme: theme.New(false), Clock: program.NewClock(func() time.Time { return now }),
		Location: time.UTC, Width: 160, Height: 48}
	first := m.Table().Row(0)

	// Between ticks: the first offering has started, the table still holds it.
	now = first.Start.Add(time.Minute)
	if !m.table.Select(first.ID) {
		t.Fatal("the first offering is not on the table")
	}
	m, cmd := press(m, "enter")
	if cmd != nil {
		if _, open := cmd().(screen.OpenPurchase); open {
			t.Fatal("buy on a started offering opened the purchase dialog")
		}
	}
	if f := flashText(m); !strings.Contains(f, "started at") || !strings.Contains(f, "nothing was bought") {
		t.Fatalf("flash %q", f)
	}

	// The tick takes it off; the others stay and can be bought.
	m = m.Revalidate()
	if m.Table().Len() != 2 {
		t.Fatalf("%d rows after the tick, want 2", m.Table().Len())
	}
	if line := ansi.Strip(m.progressLine(160)); !strings.Contains(line, "Found 3 offerings") || !strings.Contains(line, "1 started since and left the table") {
		t.Fatalf("progress line %q", line)
	}
	for id := range m.Table().IDs() {
		if id == first.ID {
			t.Fatal("the started offering is still on the table")
		}
	}
	if o, ok := m.Table().Selected(); !ok || !o.Start.After(now) {
		t.Fatalf("selected %+v", o)
	}
	_, cmd = press(m, "enter")
	if cmd == nil {
		t.Fatal("buy on an offering yet to start did nothing")
	}
	if _, open := cmd().(screen.OpenPurchase); !open {
		t.Fatal("buy on an offering yet to start did not open the purchase")
	}
}
