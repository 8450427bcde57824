package simcore

import (
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func TestMarketBookkeepingSharedByTheProtocols(t *testing.T) {
	// 11:30 UTC starts a market day: 11:29 is the day before.
	day := MarketDay(time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC))
	if MarketDay(time.Date(2026, 12, 1, 11, 29, 0, 0, time.UTC)) != day-1 || MarketDay(time.Date(2026, 12, 2, 11, 29, 0, 0, time.UTC)) != day {
		t.Fatal("market days do not turn at 11:30 UTC")
	}
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	end := start.Add(48 * time.Hour) // two market days, the end exclusive
	used := map[string]int{}
	Consume(used, "az1", "p5.48xlarge", start, end, 4)
	if Consumed(used, "az1", "p5.48xlarge", day) != 4 || Consumed(used, "az1", "p5.48xlarge", day+1) != 4 || Consumed(used, "az1", "p5.48xlarge", day+2) != 0 {
		t.Errorf("consumed %v, want 4 on exactly two days", used)
	}
	Consume(used, "az1", "p5.48xlarge", start, end, -4)
	if Consumed(used, "az1", "p5.48xlarge", day) != 0 {
		t.Errorf("giving back left %v", used)
	}
	free := map[int64]int{day: 7, day + 1: 3, day + 2: 0}
	if n := LeastOver(start, end, func(d int64) int { return free[d] }); n != 3 {
		t.Errorf("least free over two days %d, want 3", n)
	}
	if n := LeastOver(start, end.Add(time.Hour), func(d int64) int { return free[d] }); n != 0 {
		t.Errorf("least free into a sold-out day %d, want 0", n)
	}
	// $12.345678/h × 1.05 × 2 units × 90 min ≈ $38.8889, to the cent $38.89.
	rate := model.MoneyFromMicros(12_345_678)
	if fee := Fee(rate, 10500, 2, start, start.Add(90*time.Minute)); fee.Cmp(model.MoneyFromCents(3889)) != 0 {
		t.Errorf("fee %s, want 38.89", fee)
	}
}
