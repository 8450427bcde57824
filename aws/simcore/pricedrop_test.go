package simcore

import (
	"testing"
	"time"
)

// A drop's steps: none before it starts nor in its first interval, one each interval after,
// none past the last; bad drops are refused; asked to start, it starts at the minute, once.
func TestPriceDropSteps(t *testing.T) {
	p := &PriceDrop{Every: time.Minute, Step: 400, Steps: 10}
	opened := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		after time.Duration
		bp    int
	}{{-time.Hour, 0}, {0, 0}, {59 * time.Second, 0}, {time.Minute, 400}, {150 * time.Second, 800}, {10 * time.Minute, 4000}, {24 * time.Hour, 4000}} {
		if got := p.at(opened, opened.Add(tc.after)); got != tc.bp {
			t.Errorf("%s after the start: %d bp, want %d", tc.after, got, tc.bp)
		}
	}
	if got := (*PriceDrop)(nil).at(opened, opened.Add(time.Hour)); got != 0 {
		t.Errorf("no drop takes %d bp", got)
	}
	for _, bad := range []PriceDrop{{Step: 100, Steps: 1}, {Every: time.Minute, Steps: 1}, {Every: time.Minute, Step: 100}, {Every: time.Minute, Step: 2600, Steps: 2}} {
		if bad.check() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}

	start := time.Date(2026, 12, 1, 12, 0, 42, 0, time.UTC)
	c, err := New(Options{Start: start, Speed: 1e-9, PriceDrop: &PriceDrop{Every: time.Minute, Step: 400, Steps: 10, WhenAsked: true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.PriceDrop(start.Add(time.Hour)); got != 0 {
		t.Fatalf("a drop not asked for takes %d bp", got)
	}
	if !c.StartPriceDrop() {
		t.Fatal("StartPriceDrop: false with a drop")
	}
	c.Advance(time.Hour)
	if !c.StartPriceDrop() || c.PriceDrop(start.Add(18*time.Second)) != 400 {
		t.Errorf("started at 12:00:42, the drop at 12:01:00 is %d bp, want 400 (its steps on the minute, the start kept)", c.PriceDrop(start.Add(18*time.Second)))
	}
	plain, err := New(Options{Start: start, Speed: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	if plain.StartPriceDrop() || plain.PriceDrop(start.Add(time.Hour)) != 0 {
		t.Error("an emulator without a drop started one")
	}
}
