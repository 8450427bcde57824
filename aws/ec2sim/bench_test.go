package ec2sim

import (
	"testing"
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
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil || len(out.CapacityBlockOfferings) == 0 {
			b.Fatalf("no offerings: %v", err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
