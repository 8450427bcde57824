package ec2sim

import (
	"strings"
	"testing"
	"time"
)

// BenchmarkDescribeOfferingsSDK measures DescribeCapacityBlockOfferings through the real
// SDK client over loopback HTTP, the path every caller takes.
func BenchmarkDescribeOfferingsSDK(b *testing.B) {
	_, base := newTestServer(b, Options{})
	c := ec2Client(base, "us-east-1")
	in := p5Search(4, 48)
	if out, err := c.DescribeCapacityBlockOfferings(ctx, in); err != nil || len(out.CapacityBlockOfferings) == 0 {
		b.Fatalf("no offerings: %v", err)
	}
	measure(b, func() {
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil || len(out.CapacityBlockOfferings) == 0 {
			b.Fatalf("no offerings: %v", err)
		}
	})
}

// do answers one EC2 request in-process, without HTTP: for setting up a benchmark's state.
func (s *Server) do(tb testing.TB, region, body string) *xmlBody {
	tb.Helper()
	f, e := decodeForm([]byte(body))
	if e != nil {
		tb.Fatal(e)
	}
	out, e := s.dispatchEC2(&call{action: f.str("Action"), form: f, region: region, faults: s.currentFaults()})
	if e != nil {
		tb.Fatalf("%s: %v", body, e)
	}
	return out
}

// purchases makes n purchases of one p5.48xlarge for a day in us-east-1, in-process, each
// of the first offering a search answers, moving the clock a day every 25 so that the
// blocks bought expire and the 256-instance limit is never reached.
func purchases(tb testing.TB, s *Server, n int) {
	tb.Helper()
	search := "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=1&CapacityDurationHours=24"
	for i := 0; i < n; i++ {
		if i > 0 && i%25 == 0 {
			s.Advance(24 * time.Hour)
		}
		body := s.do(tb, "us-east-1", search).b.String()
		_, rest, ok := strings.Cut(body, "<capacityBlockOfferingId>")
		if !ok {
			tb.Fatalf("purchase %d: no offering", i)
		}
		id, _, _ := strings.Cut(rest, "<")
		s.do(tb, "us-east-1", "Action=PurchaseCapacityBlock&Version=2016-11-15&InstancePlatform=Linux%2FUNIX&CapacityBlockOfferingId="+id)
	}
}

// BenchmarkDescribeOfferingsAfterPurchases measures the same search as
// BenchmarkDescribeOfferingsSDK once the region holds 10,000 purchases: a search must not
// slow down with what was bought.
func BenchmarkDescribeOfferingsAfterPurchases(b *testing.B) {
	s, base := newTestServer(b, Options{})
	purchases(b, s, 10000)
	c := ec2Client(base, "us-east-1")
	in := p5Search(4, 48)
	measure(b, func() {
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil || len(out.CapacityBlockOfferings) == 0 {
			b.Fatalf("no offerings: %v", err)
		}
	})
}

// BenchmarkDescribeOfferingsInProcess is the emulator's own part of a search: the same
// request answered without HTTP or the SDK.
func BenchmarkDescribeOfferingsInProcess(b *testing.B) {
	s, _ := newTestServer(b, Options{})
	body := "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=4&CapacityDurationHours=48"
	measure(b, func() { s.do(b, "us-east-1", body) })
}

// BenchmarkDescribeOfferingsInProcessAfterPurchases is the emulator's own part once the
// region holds 10,000 purchases: what grows with purchases shows here without the client's
// and HTTP's cost around it.
func BenchmarkDescribeOfferingsInProcessAfterPurchases(b *testing.B) {
	s, _ := newTestServer(b, Options{})
	purchases(b, s, 10000)
	body := "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=4&CapacityDurationHours=48"
	measure(b, func() { s.do(b, "us-east-1", body) })
}

// measure runs request as the benchmark's loop, then reports requests a second of wall
// time and the process's CPU time per request (client and emulator, as both run here): on
// a busy machine the first swings with the load, the second much less; 1e6 / cpu-µs/req
// is the rate one free core gives.
func measure(b *testing.B, request func()) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for b.Loop() {
		request()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/req")
}

// BenchmarkDescribeOfferingsLongWindow is the emulator's part of the longest search, 26
// weeks of one instance, where the market looks for consecutive segments in the windows
// no zone holds throughout.
func BenchmarkDescribeOfferingsLongWindow(b *testing.B) {
	s, _ := newTestServer(b, Options{})
	body := "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=1&CapacityDurationHours=4368"
	measure(b, func() { s.do(b, "us-east-1", body) })
}
