package reporting

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// An hour CloudWatch has no data point for is neither used nor idle: its reserved hours are
// left out and said, unless it only just ended (its data may be late). A block starting at
// 11:30 counts half of its first hour.
func TestMeasureLeavesOutHoursWithoutData(t *testing.T) {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC)
	b := model.Block{Source: model.SourceCapacityBlock, ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", TotalCount: 4,
		Start: start, End: start.Add(24 * time.Hour)}
	it := newItem(b, "123456789012")
	h := func(n int) time.Time { return time.Date(2026, 12, 1, 11+n, 0, 0, 0, time.UTC) }
	now := h(6).Add(20 * time.Minute) // 17:20: the hour from 17:00 has no point yet, nor has 16:00
	points := []point{{h(0), 2}, {h(1), 3}, {h(3), 1}, {h(4), 4}}
	problem := it.measure(points, start.Add(-time.Hour), start.Add(48*time.Hour), now)
	// 11:30–12:00 at 2, 12–13 at 3, 14–15 at 1, 15–16 at 4; 13–14 is a gap, 16–17:20 not yet.
	if want := 0.5*2 + 3 + 1 + 4.0; it.res.Use.UsedHours != want || !it.res.Use.Known {
		t.Errorf("used %+v, want %v", it.res.Use, want)
	}
	if want := 4 * 3.5; it.res.Use.ReservedHours != want {
		t.Errorf("reserved %v, want %v (the hours with data)", it.res.Use.ReservedHours, want)
	}
	if !strings.Contains(problem, "cr-0123456789abcdef0 (us-east-1)") || !strings.Contains(problem, "for 4 of its 18 instance-hours") {
		t.Errorf("problem %q", problem)
	}
	// No point at all: unknown, never zero.
	if it.measure(nil, start, start.Add(time.Hour), now); it.res.Use.Known || it.res.Use.Why == "" {
		t.Errorf("no data: %+v", it.res.Use)
	}
}
