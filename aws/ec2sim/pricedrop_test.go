package ec2sim

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

// With a price drop (the demo's), the market offers the same blocks as without one until the
// first step, every one of them cheaper after each step, and no cheaper after the last.
func TestPriceDropMakesEveryOfferingCheaperStepByStep(t *testing.T) {
	mk := func(drop *PriceDrop) *Server {
		s, err := New(Options{Seed: 1, Start: testStart, Speed: 1e-9, PriceDrop: drop})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	drop := simcore.DemoPriceDrop
	plain, dropping := mk(nil), mk(&drop)
	q := search{typ: "p5.48xlarge", count: 2, units: 2, instType: "p5.48xlarge", duration: 3 * 24 * time.Hour,
		from: testStart, to: testStart.Add(21 * 24 * time.Hour)}
	fees := func(s *Server, now time.Time) map[string]int64 {
		out := map[string]int64{}
		for _, o := range s.offerings(s.region("us-east-1"), "us-east-1", q, now) {
			out[o.AZ+" "+o.Start.String()] = o.Fee.Micros()
		}
		if len(out) == 0 {
			t.Fatalf("no offerings at %s", now)
		}
		return out
	}
	// The demo's drop waits to be asked: until then the market is the one without a drop.
	if got, want := fees(dropping, testStart.Add(5*drop.Every)), fees(plain, testStart.Add(5*drop.Every)); !equalFees(got, want) {
		t.Fatalf("a drop not yet started moved the market: %v, want %v", got, want)
	}
	if !dropping.core.StartPriceDrop() || plain.core.StartPriceDrop() {
		t.Fatal("StartPriceDrop: want true with a drop and false without")
	}
	now := testStart.Add(drop.Every - time.Second)
	base := fees(plain, now)
	if got := fees(dropping, now); !equalFees(got, base) {
		t.Fatalf("before the first step: %v, want the market without a drop %v", got, base)
	}
	prev := base
	for step := 1; step <= 3; step++ {
		now := testStart.Add(time.Duration(step) * drop.Every)
		got, want := fees(dropping, now), fees(plain, now)
		for k, fee := range got {
			if w, ok := want[k]; !ok || fee >= w || fee >= prev[k] {
				t.Fatalf("step %d: %s costs %d, without the drop %d (%v), a step before %d", step, k, fee, w, ok, prev[k])
			}
		}
		prev = got
	}
	last := testStart.Add(time.Duration(drop.Steps) * drop.Every)
	if a, b := dropping.core.PriceDrop(last), dropping.core.PriceDrop(last.Add(24*time.Hour)); a != drop.Step*drop.Steps || b != a {
		t.Fatalf("the drop at its last step is %d bp, a day later %d bp; want %d both", a, b, drop.Step*drop.Steps)
	}
	if _, err := New(Options{Seed: 1, PriceDrop: &PriceDrop{Every: time.Minute, Step: 1000, Steps: 6}}); err == nil {
		t.Error("a drop of 60% of the rate was accepted")
	}
}

func equalFees(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
