package capacityblocks

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/model"
)

// benchLatency is the round trip every benchmark call takes in the emulator.
const benchLatency = 300 * time.Millisecond

// benchScale speeds up AWS's refill rates in the benchmarks' emulator: with AWS's own
// (DescribeCapacityBlockOfferings: 10 at once, then 0.15 per second) one whole-market
// sweep would take about 20 minutes; ×100 keeps the bucket's shape and takes seconds.
const benchScale = 100

// benchSearch runs q b.N times, each against a fresh emulator (full buckets) with EC2's
// buckets at benchScale and benchLatency per call, and reports the wall time's ratio to
// the buckets' bound: the busiest region's calls through a full bucket, one round trip
// for the last.
func benchSearch(b *testing.B, q model.Query) { benchSearchUnder(b, q, ec2sim.Faults{}) }

func benchSearchUnder(b *testing.B, q model.Query, f ec2sim.Faults) {
	benchPlan(b, q, f, benchScale, false, true)
}

// benchPlan is benchSearchUnder with the buckets' refill at scale × AWS's, the calls one
// type each (the plan before InstanceTypePreferences) when oneTypePerCall, and the market
// cache on (an empty one, written by the search as a user's is) when cache.
func benchPlan(b *testing.B, q model.Query, f ec2sim.Faults, scale float64, oneTypePerCall, cache bool) {
	perCall := maxTypesPerCall
	if oneTypePerCall {
		perCall = 1
	}
	_, planned, _ := planSearch(q, perCall)
	perRegion := map[string]int{}
	for _, c := range planned {
		perRegion[c.region]++
	}
	tab := apilimit.EC2().Scaled(scale)
	l := tab.For(opDescribeOfferings, false)
	var bound, awsBound time.Duration
	for _, n := range perRegion {
		bound = max(bound, l.Bound(n, benchLatency))
		awsBound = max(awsBound, apilimit.EC2().For(opDescribeOfferings, false).Bound(n, benchLatency))
	}
	f.Latency = benchLatency
	var wall time.Duration
	var calls, throttled, offerings, failed int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sim := simtest.NewSim(b, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9,
			Faults: f, RateLimits: &ec2sim.RateLimits{EC2: tab}})
		rc := &simtest.Recorder{Next: sim}
		srv := httptest.NewServer(rc)
		c := newTestClient(b, srv.URL, func(cfg *awsapi.Config) {
			if cache {
				cfg.MarketCacheDir = b.TempDir()
			}
		})
		c.oneTypePerCall = oneTypePerCall
		b.StartTimer()
		start := time.Now()
		for ev := range c.Search(WithCachedRows(context.Background()), q) {
			offerings += int64(len(ev.Offerings))
			if ev.Status != nil && ev.Status.State == model.RegionError {
				failed++
			}
		}
		wall += time.Since(start)
		b.StopTimer()
		srv.Close()
		calls += int64(rc.Of("DescribeCapacityBlockOfferings"))
		throttled += int64(rc.Count(func(r simtest.Recorded) bool {
			return r.Action == "DescribeCapacityBlockOfferings" && r.Code == "RequestLimitExceeded"
		}))
		b.StartTimer()
	}
	if offerings == 0 {
		b.Fatal("the sweep found nothing")
	}
	n := float64(b.N)
	b.ReportMetric(float64(wall)/n/float64(bound), "×bound")
	b.ReportMetric(float64(wall)/n/float64(time.Millisecond), "wall-ms")
	b.ReportMetric(float64(bound)/float64(time.Millisecond), "bound-ms")
	b.ReportMetric(float64(wall)/n/float64(benchLatency), "round-trips")
	b.ReportMetric(awsBound.Minutes(), "aws-bound-min")
	b.ReportMetric(float64(len(planned)), "planned-calls")
	b.ReportMetric(float64(calls)/n, "calls")
	b.ReportMetric(100*float64(throttled)/max(1, float64(calls)), "%throttled")
	b.ReportMetric(float64(failed)/n, "region-errors")
	b.ReportMetric(float64(offerings)/n, "offerings")
}

// wholeMarket is every region × type the catalog sells × 1d–26w, in the default window
// of four weeks.
func wholeMarket() model.Query {
	q := baseQuery()
	q.Regions = ec2sim.Regions()
	q.InstanceTypes = nil
	for _, t := range model.Catalog() {
		q.InstanceTypes = append(q.InstanceTypes, t.Name)
	}
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 182}
	q.End = q.Start.Add(28 * 24 * time.Hour)
	return q
}

// BenchmarkSearchWholeMarket: the whole market with the buckets' refill at ×100 and at
// AWS's own (×1, which takes many minutes), several types per call against one each.
// Goal: under 1% throttled, no region failed, fewer calls than one type per call (calls;
// planned-calls is the plan before answers that may have been cut are asked again type by
// type).
func BenchmarkSearchWholeMarket(b *testing.B) {
	q := wholeMarket()
	for _, scale := range []float64{benchScale, 1} {
		for _, perType := range []bool{false, true} {
			plan := "several-types"
			if perType {
				plan = "per-type"
			}
			b.Run(fmt.Sprintf("refill=x%g/plan=%s", scale, plan), func(b *testing.B) {
				benchPlan(b, q, ec2sim.Faults{}, scale, perType, true)
			})
		}
	}
}

// BenchmarkSearchWholeMarketCache: the whole market at ×100 with the market cache on (as a
// user runs it) and off (--no-cache). Goal: no slower with the cache.
func BenchmarkSearchWholeMarketCache(b *testing.B) {
	for _, cache := range []bool{true, false} {
		b.Run(fmt.Sprintf("cache=%t", cache), func(b *testing.B) {
			benchPlan(b, wholeMarket(), ec2sim.Faults{}, benchScale, false, cache)
		})
	}
}

// BenchmarkSearchBurst: 18 calls in 3 regions fit in each region's burst; goal within 1.2
// round trips.
func BenchmarkSearchBurst(b *testing.B) {
	q := baseQuery()
	q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge"}
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 3}
	benchSearch(b, q)
}

// BenchmarkSearchUnderFaults: every region's p5 and p5en for 1d–7d, under throttle=0.5
// and error=0.3 on top of the buckets. Goal: no region failed (region-errors 0); the
// random throttles make the pacer back off, so the ratio to the bound is not a goal here.
func BenchmarkSearchUnderFaults(b *testing.B) {
	q := baseQuery()
	q.Regions = ec2sim.Regions()
	q.InstanceTypes = []string{"p5.48xlarge", "p5en.48xlarge"}
	q.Durations = model.DurationRange{MinDays: 1, MaxDays: 7}
	benchSearchUnder(b, q, ec2sim.Faults{Throttle: 0.5, Error: 0.3})
}

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
		sim := simtest.NewSim(b, ec2sim.Options{Seed: 1, Start: simtest.Start, Speed: 1e-9,
			Faults: ec2sim.Faults{Latency: benchLatency}, RateLimits: &ec2sim.RateLimits{EC2: apilimit.EC2().Scaled(scale)}})
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
