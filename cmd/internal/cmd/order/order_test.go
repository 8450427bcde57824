package order

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/orders"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

var cli = cmdtest.CLI{New: func(f *cmdutil.Factory) *cobra.Command { return NewCmdOrder(f, nil) }}

func runOrder(cs *cmdtest.Sim, args ...string) (int, string, string) {
	return cli.Run(append([]string{"order", "--endpoint-url", cs.URL, "--region", "us-east-1"}, args...)...)
}

var want = []string{"--type", "p5.48xlarge,p5en.48xlarge", "--count", "2", "--duration", "2d-4d"}

func list(t *testing.T, cs *cmdtest.Sim) []model.Order {
	t.Helper()
	return cli.Orders(t, "--endpoint-url", cs.URL, "--region", "us-east-1")
}

func TestBadOrdersAreUsageErrorsAndPlaceNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{want, "exactly one ceiling"},
		{append(want, "--max-fee", "1000", "--max-per-accelerator-hour", "4"), "exactly one ceiling"},
		{append(want, "--max-per-accelerator-hour", "0"), "above zero"},
		{append(want, "--max-per-accelerator-hour", "4,5"), "above zero"},
		{[]string{"--type", "p5.48xlarge", "--max-fee", "1000"}, "--duration"},
		{append(want, "--max-fee", "1000", "--then", "launch"), "--image"},
		{append(want, "--max-fee", "1000", "--then", "handoff", "--handoff-for", "karpenter"), "--handoff-file"},
		{append(want, "--max-fee", "1000", "--then", "dance"), "launch, handoff or notify"},
		{append(want, "--max-fee", "1000", "--on-refusal", "close"), "--approve-cmd"},
		{append(want, "--max-fee", "1000", "--expires", "-1d"), "expire"},
		{append(want, "--max-fee", "1000", "--tag", "gpublock-order=x"), "the order's own"},
		{[]string{"--list", "--cancel", "ord-1"}, "alone"},
		{[]string{"--list", "--max-fee", "1"}, "no order flags"},
	} {
		code, _, errs := runOrder(cs, append(tc.args, "--yes")...)
		if code != 2 || !strings.Contains(errs, tc.says) {
			t.Errorf("%v: exit %d, stderr %q: want 2 saying %q", tc.args, code, errs, tc.says)
		}
	}
	if os := list(t, cs); len(os) != 0 {
		t.Errorf("bad orders were placed: %+v", os)
	}
}

// Placing shows the worst case and asks for the purchase's word; another word places
// nothing, and without a terminal --yes is needed.
func TestPlacingAsksTheWordWithTheWorstCase(t *testing.T) {
	cs := cmdtest.StartSim(t)
	args := append(want, "--max-per-accelerator-hour", "4")
	cli.AsPerson(t, true, "no\n")
	code, _, errs := runOrder(cs, args...)
	// 16 accelerators × 95.5 usable hours × $4.
	if code != 1 || !strings.Contains(errs, "Worst case") || !strings.Contains(errs, "$6,112.00") || !strings.Contains(errs, "cannot be cancelled") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if os := list(t, cs); len(os) != 0 {
		t.Fatalf("a refused confirmation placed %+v", os)
	}
	cli.AsPerson(t, false, "")
	if code, _, errs := runOrder(cs, args...); code != 2 || !strings.Contains(errs, "--yes") {
		t.Fatalf("without a terminal: exit %d\n%s", code, errs)
	}
	if code, _, errs := runOrder(cs, append(args, "--read-only", "--yes")...); code == 0 || !strings.Contains(errs, "read-only") {
		t.Fatalf("read-only: exit %d\n%s", code, errs)
	}
	if os := list(t, cs); len(os) != 0 {
		t.Fatalf("placed %+v", os)
	}
}

func TestPlaceListCancel(t *testing.T) {
	cs := cmdtest.StartSim(t)
	code, out, errs := runOrder(cs, append(want, "--max-per-accelerator-hour", "4", "--max-spend", "5000", "--tag", "team=ml", "--yes")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	id := strings.Fields(out)[0]
	os := list(t, cs)
	if len(os) != 1 || os[0].ID != id || os[0].State != model.OrderOpen || os[0].MaxSpend == nil || os[0].MaxSpend.Cmp(model.MustMoney("5000")) != 0 ||
		os[0].Tags["team"] != "ml" || os[0].Ceiling.Kind != model.PerAcceleratorHour || len(os[0].Query.InstanceTypes) != 2 {
		t.Fatalf("listed %+v", os)
	}
	if !strings.Contains(errs, "$5,000.00: the most") {
		t.Errorf("the worst case is not capped by --max-spend:\n%s", errs)
	}
	if code, out, _ := runOrder(cs, "--list"); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "open") {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
	if code, _, errs := runOrder(cs, "--cancel", id); code != 0 {
		t.Fatalf("--cancel: exit %d\n%s", code, errs)
	}
	if os := list(t, cs); os[0].State != model.OrderCancelled {
		t.Errorf("after --cancel: %s", os[0].State)
	}
	if code, _, errs := runOrder(cs, "--cancel", id); code != 1 || !strings.Contains(errs, "cancelled already") {
		t.Errorf("cancelled twice: exit %d\n%s", code, errs)
	}
	if code, _, errs := runOrder(cs, "--cancel", "ord-000000000000"); code != 1 || !strings.Contains(errs, "no such order") {
		t.Errorf("unknown id: exit %d\n%s", code, errs)
	}
}

// The demo as a planning meeting watches it: an order placed with `gpublock order --demo`
// a little under the best price of the moment is not filled at once; once a watcher has seen
// an open order the demo's market gets cheaper minute by minute, and the watcher (here the
// demo's clock moved five minutes rather than waited for) fills it once, with the offering
// the rule names then. Before any order, the market keeps its prices.
func TestADemoOrderUnderTheBestPriceFillsOnceAsTheMarketDrops(t *testing.T) {
	cmdtest.Env(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, info, err := cmdutil.OpenBackend(ctx, cmdtest.AWSFlags(t, "--demo", "--region", "us-east-1"), io.Discard)
	if err != nil || info.Sim == nil {
		t.Fatalf("the demo backend: %v (%+v)", err, info)
	}
	var said []string
	watcher, err := cmdutil.OrderFiller(ctx, c, nil, func(s string) { said = append(said, s) })
	if err != nil {
		t.Fatal(err)
	}
	if watcher.SearchEvery != orders.DemoSearchEvery {
		t.Errorf("the demo's watcher searches every %s, want %s", watcher.SearchEvery, orders.DemoSearchEvery)
	}
	demo := func(args ...string) string {
		t.Helper()
		code, out, errs := cli.Run(append([]string{"order", "--demo", "--region", "us-east-1"}, args...)...)
		if code != 0 {
			t.Fatalf("order %v: exit %d\n%s\n%s", args, code, out, errs)
		}
		return out
	}
	get := func(id string) model.Order {
		t.Helper()
		o, err := watcher.Book.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	round := func() {
		t.Helper()
		if err := watcher.FillAll(ctx); err != nil {
			t.Fatal(err)
		}
	}
	order := []string{"--type", "p5.48xlarge,p5en.48xlarge", "--count", "2", "--duration", "2d-4d", "--expires", "+14d", "--yes"}

	// Until an order is open the demo's market keeps its prices, and its offerings their ids.
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Regions: []string{"us-east-1"},
		Durations: model.DurationRange{MinDays: 2, MaxDays: 2}, Start: info.Sim.Now(), End: info.Sim.Now().Add(14 * 24 * time.Hour)}
	var kept model.Offering
	for _, o := range searchNow(ctx, t, c, q, info.Sim.Now()) {
		if o.Start.Hour() == model.BoundaryHour && o.Start.Minute() == model.BoundaryMinute {
			kept = o // not a near-term block, which comes and goes by the hour
			break
		}
	}
	if kept.ID == "" {
		t.Fatal("the demo offers no 2-day block of 2 × p5.48xlarge in two weeks")
	}
	round()
	info.Sim.Advance(3 * time.Minute)
	if !slices.ContainsFunc(searchNow(ctx, t, c, q, info.Sim.Now()), func(o model.Offering) bool { return o.ID == kept.ID && o.Fee.Cmp(kept.Fee) == 0 }) {
		t.Fatalf("with no order open, three minutes moved %s at %s out of the demo's market", kept.ID, kept.Fee)
	}

	// The best price of the moment, as order --list shows it for an order nothing meets.
	demo(append(order, "--max-per-accelerator-hour", "0.01")...)
	round()
	os, err := watcher.Book.List()
	if err != nil || len(os) != 1 || os[0].Best == nil || os[0].Best.Within {
		t.Fatalf("an order at $0.01: %+v, %v", os, err)
	}
	probe := os[0]
	demo("--cancel", probe.ID)

	// 5% under it: nothing is bought until the market has dropped further.
	cents := probe.Best.Rate.MulRat(95, 100).Cents()
	ceiling := model.Ceiling{Kind: model.PerAcceleratorHour, Amount: model.MoneyFromCents(cents)}
	demo(append(order, "--max-per-accelerator-hour", fmt.Sprintf("%d.%02d", cents/100, cents%100))...)
	os, err = watcher.Book.List()
	if err != nil || len(os) != 2 {
		t.Fatalf("orders %+v, %v", os, err)
	}
	id := os[0].ID
	if id == probe.ID {
		id = os[1].ID
	}
	round()
	if o := get(id); o.State != model.OrderOpen || o.Best == nil || o.Best.Within {
		t.Fatalf("under a ceiling 5%% below the best price the order is at once %s (%s)", o.State, o.Why)
	}

	info.Sim.Advance(5 * time.Minute)
	offs := searchNow(ctx, t, c, get(id).Query, info.Sim.Now())
	want := model.PickForOrder(offs, ceiling, nil)
	if !want.Within {
		t.Fatalf("five minutes on, nothing in the demo's market is within %s: best %+v", ceiling.Amount, want.Best)
	}
	round()
	got := get(id)
	if got.State != model.OrderFilled || got.Filled == nil || got.Filled.Offering.ID != want.Buy.ID || !ceiling.Allows(want.Buy) {
		t.Fatalf("five minutes on the order is %s (%s), filled %+v; want filled with the rule's %s", got.State, got.Why, got.Filled, want.Buy.ID)
	}
	round()
	info.Sim.Advance(time.Minute)
	round()
	filled := 0
	for _, line := range said {
		if strings.Contains(line, "FILLED") && strings.Contains(line, id) {
			filled++
		}
	}
	if filled != 1 {
		t.Errorf("the watcher said the fill %d times, want once: %q", filled, said)
	}
	tagged := 0
	l, err := capacityblocks.New(c).List(ctx, []string{"us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range l.Blocks {
		if b.Tags[orders.OrderTag] != "" {
			tagged++
		}
	}
	if tagged != len(got.Filled.Reservations) || tagged == 0 || get(id).State != model.OrderFilled {
		t.Fatalf("%d reservations of orders, want the %d of the one fill: %+v", tagged, len(got.Filled.Reservations), got.Filled)
	}
}

// searchNow is the order's search from now on, as a watcher runs it: the fresh answers.
func searchNow(ctx context.Context, t *testing.T, c *awsapi.Client, q model.Query, now time.Time) []model.Offering {
	t.Helper()
	if q.Start.Before(now) {
		q.Start = now
	}
	ch, _, err := source.Search(ctx, cmdutil.SourcesOver(c), q)
	if err != nil {
		t.Fatal(err)
	}
	var offs []model.Offering
	for ev := range ch {
		if ev.CachedAt.IsZero() {
			offs = append(offs, ev.Offerings...)
		}
	}
	return offs
}
