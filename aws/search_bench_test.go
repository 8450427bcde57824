package aws

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// BenchmarkSearchSweep sweeps N = regions × types × durations calls against the emulator
// with 100 ms of latency per call. Goals (issue 3 §6): wall time ≤ 1.25 × ⌈N / C⌉ × 100 ms,
// where C is the concurrency the sweep can use (min(overall, per-region × regions)), and
// the first result within 150 ms.
func BenchmarkSearchSweep(b *testing.B) {
	four := []string{"us-east-1", "us-east-2", "us-west-2", "ap-northeast-1"}
	seven := append([]string{"eu-north-1", "eu-west-2", "ap-south-1"}, four...)
	b.Run("regions=4", func(b *testing.B) { benchSweep(b, four) })
	b.Run("regions=7", func(b *testing.B) { benchSweep(b, seven) })
}

func benchSweep(b *testing.B, regions []string) {
	const latency = 100 * time.Millisecond
	_, url := newSim(b, 1, ec2sim.Faults{Latency: latency})
	c := newTestClient(b, url, nil)
	q := baseQuery()
	q.Regions = regions
	q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge"} // both sold in all seven
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 8}
	_, calls, _ := planSearch(q)
	n := len(calls)
	conc := min(c.overall, c.perRegion*len(q.Regions))
	goal := 1.25 * math.Ceil(float64(n)/float64(conc)) * float64(latency/time.Millisecond)

	var wall, first, worst time.Duration
	offerings, failed := 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		gotFirst := false
		offerings = 0
		for ev := range c.Search(context.Background(), q) {
			if len(ev.Offerings) > 0 && !gotFirst {
				first += time.Since(start)
				gotFirst = true
			}
			offerings += len(ev.Offerings)
			if ev.Status != nil && ev.Status.State == RegionError {
				failed++
			}
		}
		took := time.Since(start)
		wall += took
		worst = max(worst, took)
		if !gotFirst {
			b.Fatal("the sweep found nothing")
		}
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(wall), "wall-ms")
	b.ReportMetric(goal, "goal-ms")
	b.ReportMetric(ms(first), "first-result-ms")
	b.ReportMetric(float64(n), "calls")
	b.ReportMetric(float64(conc), "concurrency")
	b.ReportMetric(float64(offerings), "offerings")
	b.ReportMetric(float64(worst)/float64(time.Millisecond), "worst-wall-ms")
	b.ReportMetric(float64(failed), "region-errors")
}
