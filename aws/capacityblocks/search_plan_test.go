package capacityblocks

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// everyDuration is the whole market (every region × type the catalog sells) for every
// duration from 1 day to 26 weeks, in a window each of them fits.
func everyDuration() model.Query {
	q := wholeMarket()
	q.End = q.Start.Add(model.MaxLeadTime + 182*24*time.Hour)
	return q
}

func callsPerRegion(calls []searchCall) map[string]int {
	per := map[string]int{}
	for _, c := range calls {
		per[c.region]++
	}
	return per
}

// A whole-market search asks for the types a region sells in one call per duration:
// at most 40% of the calls of one type per call, and at most 30% in the busiest region.
func TestPlanAsksSeveralTypesInOneCall(t *testing.T) {
	q := everyDuration()
	_, perType, _ := planSearch(q, 1)
	_, calls, _ := planSearch(q, maxTypesPerCall)
	if len(perType) != 1558 {
		t.Fatalf("the per-type plan makes %d calls, want the 1,558 of 41 region × type pairs × 38 durations", len(perType))
	}
	if 100*len(calls) > 40*len(perType) {
		t.Fatalf("%d calls, more than 40%% of the per-type plan's %d", len(calls), len(perType))
	}
	before, after := callsPerRegion(perType), callsPerRegion(calls)
	if before["us-east-1"] != 380 {
		t.Fatalf("per type, us-east-1 has %d calls, want 380 (10 types × 38 durations)", before["us-east-1"])
	}
	for r, n := range after {
		if 100*n > 30*before[r] && r == "us-east-1" {
			t.Fatalf("%s: %d calls, more than 30%% of its %d per type", r, n, before[r])
		}
		if n > before[r] {
			t.Fatalf("%s: %d calls, more than its %d per type", r, n, before[r])
		}
	}
	t.Logf("%d calls (per type %d); us-east-1 %d (per type %d)", len(calls), len(perType), after["us-east-1"], before["us-east-1"])

	// Against the emulator (its cap per type), the calls made are the calls planned, or
	// hardly more: only an answer of exactly six is asked again type by type.
	_, made, _ := searchCountedPerRegion(t, q, false, false)
	total := 0
	for _, n := range made {
		total += n
	}
	if 100*total > 40*len(perType) || 100*made["us-east-1"] > 30*before["us-east-1"] {
		t.Fatalf("made %d calls (us-east-1 %d), more than 40%% of %d (us-east-1 30%% of %d)", total, made["us-east-1"], len(perType), before["us-east-1"])
	}
	t.Logf("made %d calls; us-east-1 %d", total, made["us-east-1"])

	// Every region × type × duration the per-type plan asks is still asked, once; a type
	// a region does not sell is not asked at all; an UltraServer type goes alone.
	type cell struct {
		region, typ string
		days        int
	}
	seen := map[cell]int{}
	for _, c := range calls {
		for _, tn := range c.types {
			typ, _ := model.LookupType(tn)
			if !typ.Sells(c.region) {
				t.Fatalf("%s asked in %s, which does not sell it", tn, c.region)
			}
			if typ.UltraServer && len(c.types) != 1 {
				t.Fatalf("UltraServer %s asked with %v", tn, c.types)
			}
			seen[cell{c.region, tn, c.days}]++
		}
		if len(c.types) > maxTypesPerCall {
			t.Fatalf("%d types in one call", len(c.types))
		}
	}
	for _, c := range perType {
		if seen[cell{c.region, c.types[0], c.days}] != 1 {
			t.Fatalf("%s %s %dd asked %d times", c.region, c.types[0], c.days, seen[cell{c.region, c.types[0], c.days}])
		}
	}
	if len(seen) != len(perType) {
		t.Fatalf("%d cells asked, the per-type plan asks %d", len(seen), len(perType))
	}
}

// An answer of several types that is exactly AWS's cap may have left some out: each type
// it holds fewer than the cap of is asked again alone; an answer under the cap is whole,
// and one over it shows a cap per type, so each type's part is whole too.
func TestPossiblyCut(t *testing.T) {
	call := searchCall{region: "us-east-1", types: []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge"}, days: 1}
	offs := func(n int) []model.Offering { return make([]model.Offering, n) }
	if got := possiblyCut(call, 5, map[string][]model.Offering{"p5.48xlarge": offs(5)}); got != nil {
		t.Fatalf("under the cap: %v", got)
	}
	got := possiblyCut(call, 6, map[string][]model.Offering{"p5.48xlarge": offs(6)})
	if len(got) != 2 || got[0] != "p5en.48xlarge" || got[1] != "p4d.24xlarge" {
		t.Fatalf("six of p5: %v, want p5en and p4d asked again", got)
	}
	got = possiblyCut(call, 6, map[string][]model.Offering{"p5.48xlarge": offs(3), "p5en.48xlarge": offs(3)})
	if len(got) != 3 {
		t.Fatalf("three and three: %v, want all three asked again", got)
	}
	if got := possiblyCut(call, 9, map[string][]model.Offering{"p5.48xlarge": offs(6), "p5en.48xlarge": offs(3)}); got != nil {
		t.Fatalf("over the cap, six of p5 and three of p5en: %v, want nothing asked again", got)
	}
	one := searchCall{region: "us-east-1", types: []string{"p5.48xlarge"}, days: 1}
	if got := possiblyCut(one, 6, map[string][]model.Offering{"p5.48xlarge": offs(6)}); got != nil {
		t.Fatalf("a call of one type is asked again: %v", got)
	}
}

// searchCounted runs q against a fresh emulator and returns the offerings' ids, sorted,
// and the DescribeCapacityBlockOfferings calls made, with and without several types each.
func searchCounted(t *testing.T, q model.Query, oneTypePerCall, capAcrossTypes bool) (ids []string, calls, multi int) {
	t.Helper()
	ids, perRegion, multi := searchCountedPerRegion(t, q, oneTypePerCall, capAcrossTypes)
	for _, n := range perRegion {
		calls += n
	}
	return ids, calls, multi
}

// searchCountedPerRegion is searchCounted with the calls counted per region (the region
// the request was signed for).
func searchCountedPerRegion(t *testing.T, q model.Query, oneTypePerCall, capAcrossTypes bool) (ids []string, calls map[string]int, multi int) {
	t.Helper()
	sim, err := ec2sim.New(ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9, CapAcrossTypes: capAcrossTypes})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls = map[string]int{}
	var m atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		form, _ := url.ParseQuery(string(body))
		if form.Get("Action") == opDescribeOfferings {
			// Credential=KEY/DATE/REGION/ec2/aws4_request
			scope := strings.Split(r.Header.Get("Authorization"), "/")
			mu.Lock()
			if len(scope) > 2 {
				calls[scope[2]]++
			}
			mu.Unlock()
			if form.Has("InstanceTypePreference.2.InstanceType") {
				m.Add(1)
			}
		}
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, nil)
	c.oneTypePerCall = oneTypePerCall
	offs, st, _ := collect(t, c.Search(context.Background(), q))
	for r, s := range st {
		if s.State == model.RegionError {
			t.Fatalf("%s: %v", r, s.Err)
		}
	}
	for _, o := range offs {
		ids = append(ids, o.Region+"/"+o.InstanceType+"/"+o.ID)
	}
	slices.Sort(ids)
	mu.Lock()
	defer mu.Unlock()
	return ids, maps.Clone(calls), int(m.Load())
}

// Under both readings of AWS's cap (six across the types asked, or six per type), a search
// of several types per call finds every offering the per-type plan finds: where the cap is
// across types, an answer of six is asked again per type for the types it may have cut;
// where it is per type, an answer over six is whole and nothing is asked again.
func TestSearchOfSeveralTypesFindsWhatPerTypeFinds(t *testing.T) {
	for _, tc := range []struct {
		name         string
		count        int
		acrossTypes  bool
		askedAgain   bool // some answer must have been asked again type by type
		fewerCalls   bool // fewer calls than the per-type plan
		exactlyPlans bool // exactly the planned calls
	}{
		{"rich market, cap across types", 1, true, true, false, false},
		{"rich market, cap per type", 1, false, false, true, true},
		{"thin market, cap across types", 64, true, false, true, false},
		{"thin market, cap per type", 64, false, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := baseQuery()
			q.Regions = []string{"us-east-1", "us-west-2"}
			q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge", "p6-b200.48xlarge", "u-p6e-gb200x36"}
			q.Count = tc.count
			if tc.count > 4 {
				q.InstanceTypes = q.InstanceTypes[:4] // an UltraServer search takes at most 4
				q.End = q.Start.Add(3 * 24 * time.Hour)
			}
			q.Durations = model.DurationRange{MinDays: 1, MaxDays: 3}
			want, perType, _ := searchCounted(t, q, true, tc.acrossTypes)
			got, calls, multi := searchCounted(t, q, false, tc.acrossTypes)
			if len(want) == 0 {
				t.Fatal("the per-type plan found nothing")
			}
			if !slices.Equal(got, want) {
				t.Fatalf("several types per call found %d offerings:\n%v\nper type %d:\n%v", len(got), got, len(want), want)
			}
			_, planned, _ := planSearch(q, maxTypesPerCall)
			if multi == 0 || calls < len(planned) {
				t.Fatalf("%d calls (%d of several types), the plan has %d", calls, multi, len(planned))
			}
			t.Logf("%d offerings: %d calls (planned %d, %d of several types), per type %d", len(got), calls, len(planned), multi, perType)
			if tc.askedAgain && calls == len(planned) {
				t.Fatalf("no answer was asked again, yet the emulator's rich market fills six across types")
			}
			if tc.exactlyPlans && calls != len(planned) {
				t.Fatalf("%d calls, the plan's %d: an answer over six was asked again", calls, len(planned))
			}
			if tc.fewerCalls && calls >= perType {
				t.Fatalf("%d calls, the per-type plan's %d", calls, perType)
			}
		})
	}
}
