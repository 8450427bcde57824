package capacityblocks

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// cachedAndFresh splits a search's offerings into those sent from the cache and those
// answered now, and checks that every cached step comes before the first fresh one.
func cachedAndFresh(t *testing.T, evs []source.SearchEvent) (cached, fresh []model.Offering) {
	t.Helper()
	for _, ev := range evs {
		if !ev.CachedAt.IsZero() {
			if len(fresh) > 0 {
				t.Fatalf("a cached row came after a fresh one")
			}
			cached = append(cached, ev.Offerings...)
		} else {
			fresh = append(fresh, ev.Offerings...)
		}
	}
	return cached, fresh
}

func sortedIDs(offs []model.Offering) []string {
	ids := offeringIDs(offs)
	slices.Sort(ids)
	return ids
}

func TestSearchShowsCachedRowsFirstThenFreshOnes(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	dir := t.TempDir()
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	q := baseQuery()

	_, _, evs := collect(t, c.Search(WithCachedRows(context.Background()), q))
	cached, first := cachedAndFresh(t, evs)
	if len(cached) != 0 || len(first) == 0 {
		t.Fatalf("cold search: %d cached, %d fresh rows", len(cached), len(first))
	}

	// A second client stands for a restart: the file is what carries the answer.
	c2 := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	_, _, evs = collect(t, c2.Search(WithCachedRows(context.Background()), q))
	cached, fresh := cachedAndFresh(t, evs)
	if !slices.Equal(sortedIDs(cached), sortedIDs(first)) {
		t.Fatalf("cached rows %v, want the first answer %v", sortedIDs(cached), sortedIDs(first))
	}
	if !slices.Equal(sortedIDs(fresh), sortedIDs(first)) {
		t.Fatalf("the warm search did not ask again: fresh %v", sortedIDs(fresh))
	}
	if evs[0].Status == nil && evs[0].CachedAt.IsZero() {
		t.Fatalf("first event neither status nor cached: %+v", evs[0])
	}

	// Without WithCachedRows (a purchase's look-up) no cached row is ever sent.
	_, _, evs = collect(t, c2.Search(context.Background(), q))
	if cached, _ := cachedAndFresh(t, evs); len(cached) != 0 {
		t.Fatalf("a search that did not ask got %d cached rows", len(cached))
	}
}

// A restarted search of the default window ("now" to four weeks on) asks a window that
// has moved since: the last answer's rows that lie in it show at once, and a search of
// several types per call fills each type's cell.
func TestRestartedSearchOfAMovedWindowShowsCachedRows(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	dir := t.TempDir()
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	q := sweepQuery()
	q.End = q.Start.Add(28 * 24 * time.Hour)
	_, _, evs := collect(t, c.Search(WithCachedRows(context.Background()), q))
	_, first := cachedAndFresh(t, evs)
	moved := q
	moved.Start, moved.End = q.Start.Add(7*time.Minute), q.End.Add(7*time.Minute)
	uniq := func(offs []model.Offering) []string {
		var ids []string
		for _, o := range offs {
			ids = append(ids, o.Region+"/"+o.ID)
		}
		slices.Sort(ids)
		return slices.Compact(ids)
	}
	var in []model.Offering
	for _, o := range first {
		if !o.Start.Before(moved.Start) && !o.End.After(moved.End) {
			in = append(in, o)
		}
	}
	want := uniq(in)
	if len(want) == 0 || len(want) == len(first) && len(first) < 2 {
		t.Fatalf("the first answer (%d rows) leaves nothing to show in the moved window", len(first))
	}
	c2 := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	_, _, evs = collect(t, c2.Search(WithCachedRows(context.Background()), moved))
	cached, _ := cachedAndFresh(t, evs)
	if got := uniq(cached); !slices.Equal(got, want) {
		t.Fatalf("cached rows %v, want the first answer's in the moved window %v", got, want)
	}
	types := map[string]bool{}
	for _, o := range cached {
		types[o.InstanceType] = true
	}
	if !types["p5.48xlarge"] || !types["p5en.48xlarge"] {
		t.Fatalf("cached rows of types %v, want both asked", types)
	}
}

// A cell whose fresh answer no longer holds a row drops it from the cache.
func TestSearchReplacesACellWholeAndDropsGoneRows(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	dir := t.TempDir()
	path := filepath.Join(dir, "market-aws.jsonl")
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 {
		t.Fatal("the emulator offered nothing to cache")
	}
	cell := marketcache.Cell{Source: model.SourceCapacityBlock.Name(), Cloud: backendOf(c), Region: "us-east-1",
		Type: "p5.48xlarge", Count: 1, Days: 2, Start: q.Start, End: q.End}
	// A row AWS no longer offers, as if cached by an earlier search.
	gone := offs[0]
	gone.ID = "cb-gone"
	held := marketcache.Open(path).Get(time.Now(), cell)
	if len(held) != 1 {
		t.Fatalf("cache holds %d entries for the cell", len(held))
	}
	if err := marketcache.Open(path).Put(cell, time.Now().Add(-time.Hour), append(held[0].Offerings, gone)); err != nil {
		t.Fatal(err)
	}
	_, _, evs := collect(t, c.Search(WithCachedRows(context.Background()), q))
	cached, fresh := cachedAndFresh(t, evs)
	if !hasID(cached, "cb-gone") || hasID(fresh, "cb-gone") {
		t.Fatalf("cached %v fresh %v", offeringIDs(cached), offeringIDs(fresh))
	}
	after := marketcache.Open(path).Get(time.Now(), cell)
	if len(after) != 1 || hasID(after[0].Offerings, "cb-gone") ||
		!slices.Equal(sortedIDs(after[0].Offerings), sortedIDs(offs)) {
		t.Fatalf("after the fresh answer the cell holds %v, want %v", offeringIDs(after[0].Offerings), sortedIDs(offs))
	}
	if time.Since(after[0].Asked) > time.Minute {
		t.Fatalf("the cell kept its old time %v", after[0].Asked)
	}
}

// A failed call leaves the cell's last answer in place.
func TestSearchFailedCallKeepsTheCell(t *testing.T) {
	sim, _ := simtest.Serve(t, 1, ec2sim.Faults{})
	// The same backend at the same address, failing the second time.
	var failing atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() {
			simtest.WriteEC2Error(w, http.StatusBadRequest, "UnauthorizedOperation", "no")
			return
		}
		sim.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "market-aws.jsonl")
	c := newTestClient(t, srv.URL, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	failing.Store(true)
	c2 := newTestClient(t, srv.URL, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
	_, _, evs := collect(t, c2.Search(WithCachedRows(context.Background()), q))
	cached, fresh := cachedAndFresh(t, evs)
	if len(fresh) != 0 || !slices.Equal(sortedIDs(cached), sortedIDs(offs)) {
		t.Fatalf("cached %v fresh %v", sortedIDs(cached), sortedIDs(fresh))
	}
	cell := marketcache.Cell{Source: model.SourceCapacityBlock.Name(), Cloud: backendOf(c), Region: "us-east-1",
		Type: "p5.48xlarge", Count: 1, Days: 2, Start: q.Start, End: q.End}
	if got := marketcache.Open(path).Get(time.Now(), cell); len(got) != 1 || len(got[0].Offerings) != len(offs) {
		t.Fatalf("the failure changed the cell: %+v", got)
	}
}

// Without a cache (--no-cache) a search sends and keeps nothing cached.
func TestSearchWithoutCache(t *testing.T) {
	_, c := servedClient(t)
	for range 2 {
		offs, _, evs := collect(t, c.Search(WithCachedRows(context.Background()), baseQuery()))
		if cached, _ := cachedAndFresh(t, evs); len(cached) != 0 || len(offs) == 0 {
			t.Fatalf("no cache: %d cached of %d rows", len(cached), len(offs))
		}
	}
}

func TestCacheBackendKeepsDemoAndEmulatorApart(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	emu := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.Cloud = awsapi.CloudEmulator })
	demo := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.Cloud = awsapi.CloudDemo })
	plain := newTestClient(t, url, nil)
	if backendOf(emu) != "emulator "+url || backendOf(demo) != "demo" || backendOf(plain) != "aws "+url {
		t.Fatalf("backends %q %q %q", backendOf(emu), backendOf(demo), backendOf(plain))
	}
}

func hasID(offs []model.Offering, id string) bool {
	return slices.ContainsFunc(offs, func(o model.Offering) bool { return o.ID == id })
}

// A listed offering older than FreshFor (a cached row, a screen left open) is asked again
// before anything is bought; a fresh one is not, and one no longer listed is refused.
func TestPurchaseOfAnOldListingAsksAgain(t *testing.T) {
	_, rc, c := recordedClient(t)
	q := baseQuery()
	q.Regions = []string{"us-east-1"}
	offs, _, _ := collect(t, c.Search(context.Background(), q))
	if len(offs) == 0 || offs[0].AskedAt.IsZero() {
		t.Fatalf("no stamped offering to buy: %d", len(offs))
	}
	describes := func() int {
		return rc.Of("DescribeCapacityBlockOfferings")
	}

	before := describes()
	fresh := offs[0]
	if _, err := spend.New(c.api, c).Prepare(context.Background(), c, source.Intent{Kind: source.SpendPurchase, Offering: fresh, CheckOnly: true}); err != nil {
		t.Fatalf("fresh: %v", err)
	}
	if describes() != before {
		t.Fatalf("a fresh offering was asked again")
	}

	old := offs[0]
	old.AskedAt = time.Now().Add(-2 * source.FreshFor)
	old.Fee = model.MustMoney("1.00") // what the old listing said; AWS's answer now wins
	p, err := spend.New(c.api, c).Prepare(context.Background(), c, source.Intent{Kind: source.SpendPurchase, Offering: old, CheckOnly: true})
	if err != nil {
		t.Fatalf("old: %v", err)
	}
	if describes() == before {
		t.Fatalf("an old offering was not asked again")
	}
	if p.Intent.Offering.Fee != offs[0].Fee || time.Since(p.Intent.Offering.AskedAt) > source.FreshFor {
		t.Fatalf("prepared %s asked %v, want AWS's %s now", p.Intent.Offering.Fee, p.Intent.Offering.AskedAt, offs[0].Fee)
	}

	gone := old
	gone.ID = "cb-0123456789abcdef0"
	if _, err := spend.New(c.api, c).Prepare(context.Background(), c, source.Intent{Kind: source.SpendPurchase, Offering: gone, CheckOnly: true}); err == nil ||
		!strings.Contains(err.Error(), "no longer offered") {
		t.Fatalf("a gone offering: %v", err)
	}

	// One that started (and ended) since it was listed is refused in words, without a
	// call: a window that has passed is no question to ask AWS.
	now := c.api.Now(context.Background())
	started := old
	started.Start, started.End = now.Add(-3*time.Hour), now.Add(-time.Hour)
	before = describes()
	_, err = spend.New(c.api, c).Prepare(context.Background(), c, source.Intent{Kind: source.SpendPurchase, Offering: started, CheckOnly: true})
	if err == nil || !strings.Contains(err.Error(), "started at") || !strings.Contains(err.Error(), "Search again") ||
		strings.Contains(err.Error(), "InvalidParameterValue") || describes() != before {
		t.Fatalf("a started offering: %v (%d calls)", err, describes()-before)
	}
}

// A large search says before it starts what AWS's buckets make it cost.
func TestCostOfTheWholeMarket(t *testing.T) {
	_, url := simtest.Serve(t, 1, ec2sim.Faults{})
	tab := apilimit.EC2()
	c := newTestClient(t, url, func(cfg *awsapi.Config) { cfg.RateLimits = &tab; cfg.Headroom = -1 })
	q := wholeMarket()
	_, calls, _ := planSearch(q, maxTypesPerCall)
	cost := c.CostOf(q)
	per := map[string]int{}
	for _, call := range calls {
		per[call.region]++
	}
	want := tab.For(opDescribeOfferings, true).Bound(per[cost.Region], 0)
	if cost.Calls != len(calls) || cost.Wait != want || cost.Wait < 3*time.Minute {
		t.Fatalf("cost %+v, want %d calls and %s in %s", cost, len(calls), want, cost.Region)
	}
	for r, n := range per {
		if n > per[cost.Region] {
			t.Fatalf("%s has %d calls, more than the busiest %s's %d", r, n, cost.Region, per[cost.Region])
		}
	}
	if got := cost.String(); !strings.HasPrefix(got, fmt.Sprintf("%d calls: about ", len(calls))) || !strings.HasSuffix(got, " minutes at AWS's rate in "+cost.Region) {
		t.Fatalf("said %q", got)
	}
	if got := (SearchCost{Calls: 1}).String(); got != "1 call" {
		t.Fatalf("unpaced: %q", got)
	}
}

// The cells that had offerings last time go first, then the home region, then the rest.
func TestOrderCalls(t *testing.T) {
	p5 := []string{"p5.48xlarge", "p5en.48xlarge"}
	calls := []searchCall{{region: "eu-north-1", types: p5, days: 1}, {region: "us-west-2", types: p5, days: 1}, {region: "us-east-1", types: p5, days: 1},
		{region: "us-west-2", types: p5, days: 2}, {region: "eu-north-1", types: p5, days: 2}}
	held := []marketcache.Entry{
		{Cell: marketcache.Cell{Region: "eu-north-1", Type: "p5.48xlarge", Days: 2}, Offerings: []model.Offering{{ID: "cb-1"}}},
		{Cell: marketcache.Cell{Region: "us-west-2", Type: "p5.48xlarge", Days: 1}}, // answered empty: no head start
	}
	got := orderCalls(calls, held, "us-west-2")
	want := []searchCall{{region: "eu-north-1", types: p5, days: 2}, {region: "us-west-2", types: p5, days: 1}, {region: "us-west-2", types: p5, days: 2},
		{region: "eu-north-1", types: p5, days: 1}, {region: "us-east-1", types: p5, days: 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}
