package capacityblocks

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
)

// benchFirstRow runs the default TUI search (one type, its regions, 1d–14d in four
// weeks from "now") against a fresh emulator with AWS's buckets (refill ×scale) and
// benchLatency per call, and reports the time to the first row and to the whole answer.
// warm runs it once before the timed run, so the market cache holds the answer; the timed
// run is a restart minutes later, whose default window has moved with "now".
func benchFirstRow(b *testing.B, warm bool, scale float64) {
	q := baseQuery()
	q.End = q.Start.Add(28 * 24 * time.Hour)
	q.Durations.MinDays, q.Durations.MaxDays = 1, 14
	var first, whole time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sim, err := ec2sim.New(ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9,
			Faults: ec2sim.Faults{Latency: benchLatency}, RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2().Scaled(scale)}})
		if err != nil {
			b.Fatal(err)
		}
		srv := httptest.NewServer(sim)
		dir := b.TempDir()
		c := newTestClient(b, srv.URL, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
		ctx := WithCachedRows(context.Background())
		asked := q
		if warm {
			for range c.Search(ctx, asked) {
			}
			// A restart: a new client with fresh buckets reads the file, and asks the
			// default window from a later "now".
			c = newTestClient(b, srv.URL, func(cfg *awsapi.Config) { cfg.MarketCacheDir = dir })
			asked.Start, asked.End = q.Start.Add(5*time.Minute), q.End.Add(5*time.Minute)
		}
		b.StartTimer()
		start := time.Now()
		var got time.Duration
		for ev := range c.Search(ctx, asked) {
			if got == 0 && len(ev.Offerings) > 0 {
				got = time.Since(start)
				if warm && ev.CachedAt.IsZero() {
					b.Fatal("the warm search's first row was not from the cache")
				}
			}
		}
		whole += time.Since(start)
		b.StopTimer()
		if got == 0 {
			b.Fatal("the search found nothing")
		}
		first += got
		srv.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(first)/float64(b.N)/float64(time.Millisecond), "first-row-ms")
	b.ReportMetric(float64(whole)/float64(b.N)/float64(time.Millisecond), "whole-ms")
	_, calls, _ := planSearch(q, maxTypesPerCall)
	b.ReportMetric(float64(len(calls)), "calls")
}

// BenchmarkSearchFirstRowCold: the first row after the first call's round trip.
func BenchmarkSearchFirstRowCold(b *testing.B) { benchFirstRow(b, false, benchScale) }

// BenchmarkSearchFirstRowWarm: goal under 100 ms to the first (cached) row, the whole
// answer then as cold.
func BenchmarkSearchFirstRowWarm(b *testing.B) { benchFirstRow(b, true, benchScale) }

// BenchmarkSearchAtAWSRate is the same search at AWS's own refill (0.15 calls a second after
// a burst of 10), cold and warm: what a user of real AWS waits. It takes minutes.
func BenchmarkSearchAtAWSRate(b *testing.B) {
	b.Run("cold", func(b *testing.B) { benchFirstRow(b, false, 1) })
	b.Run("warm", func(b *testing.B) { benchFirstRow(b, true, 1) })
}
