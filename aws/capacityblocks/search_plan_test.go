package capacityblocks

import (
	"testing"
	"time"

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

// An answer of several types that reaches AWS's cap may have left some out: each type it
// holds fewer than the cap of is asked again alone; an answer under the cap is whole.
func TestPossiblyCut(t *testing.T) {
	call := searchCall{"us-east-1", []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge"}, 1}
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
	one := searchCall{"us-east-1", []string{"p5.48xlarge"}, 1}
	if got := possiblyCut(one, 6, map[string][]model.Offering{"p5.48xlarge": offs(6)}); got != nil {
		t.Fatalf("a call of one type is asked again: %v", got)
	}
}
