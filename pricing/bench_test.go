package pricing

import "testing"

func BenchmarkCompare(b *testing.B) {
	cat := Embedded()
	o := offering("p5.48xlarge", "us-east-1", 4, 168, 0, "26748.50")
	for b.Loop() {
		_ = Compare(cat, o)
	}
}

func BenchmarkCostChart100x28(b *testing.B) {
	c := exampleComparison()
	for b.Loop() {
		_ = CostChart(c, 100, 28)
	}
}

func BenchmarkCompareChart100x28(b *testing.B) {
	cs := compareSet()
	for b.Loop() {
		_ = CompareChart(cs, 100, 28)
	}
}
