package pricing

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/gpublock/gpublock/model"
)

var chartSizes = []struct{ w, h int }{{60, 16}, {100, 28}}

func exampleComparison() Comparison {
	return Compare(nil, offering("p5.48xlarge", "us-east-1", 1, 48, 0, "1510.00"))
}

// Savings Plans figures are unknown in the embedded catalog; these are made up for the
// test only, to draw the reference lines.
func withSavingsPlans() Comparison {
	cat := Embedded().With(
		Row{Kind: KindSavingsPlan1y, InstanceType: "p5.48xlarge", Region: "us-east-1", Status: StatusPrice, Hourly: model.MustMoney("40"), Source: "test figure", Date: "2026-11-01"},
		Row{Kind: KindSavingsPlan3y, InstanceType: "p5.48xlarge", Region: "us-east-1", Status: StatusPrice, Hourly: model.MustMoney("28"), Source: "test figure", Date: "2026-11-01"},
	)
	return Compare(cat, offering("p5.48xlarge", "us-east-1", 2, 96, 0, "6500.00"))
}

func compareSet() []Comparison {
	u := offering("u-p6e-gb200x72", "us-east-1", 18, 24, 0, "18285.70")
	u.UltraServerCount = 1
	return []Comparison{
		exampleComparison(),
		Compare(nil, offering("p5en.48xlarge", "us-west-2", 2, 24, 0, "2100.00")),
		Compare(nil, offering("p4d.24xlarge", "us-east-1", 4, 72, 0, "3900.00")),
		Compare(nil, u),
	}
}

func TestChartGoldens(t *testing.T) {
	charts := map[string]func(w, h int) string{
		"cost":           func(w, h int) string { return CostChart(exampleComparison(), w, h) },
		"utilization":    func(w, h int) string { return UtilizationChart(exampleComparison(), w, h) },
		"savingsplans":   func(w, h int) string { return CostChart(withSavingsPlans(), w, h) },
		"sp_utilization": func(w, h int) string { return UtilizationChart(withSavingsPlans(), w, h) },
		"noondemand": func(w, h int) string {
			return CostChart(Compare(nil, offering("p6-b200.48xlarge", "eu-north-1", 2, 24, 0, "5455.97")), w, h)
		},
		"compare": func(w, h int) string { return CompareChart(compareSet(), w, h) },
		"never": func(w, h int) string {
			return CostChart(Compare(nil, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "1500")), w, h)
		},
	}
	for name, draw := range charts {
		for _, sz := range chartSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", name, sz.w, sz.h), func(t *testing.T) {
				s := draw(sz.w, sz.h)
				assertFits(t, s, sz.w, sz.h)
				golden.RequireEqual(t, []byte(s))
			})
		}
	}
}

func TestChartContents(t *testing.T) {
	s := CostChart(exampleComparison(), 80, 20)
	wantIn(t, "cost chart", s, "X", "break-even 27.5h", "= block $1,510.00 upfront", "* on-demand $55.040/h",
		"cheaper than on-demand if you use at least 58% of the 47.5 usable hours", "48h", "0h")
	s = UtilizationChart(exampleComparison(), 80, 20)
	wantIn(t, "utilization chart", s, "X", "break-even 58%", "100%", "$55.040/h")
	s = CostChart(withSavingsPlans(), 100, 24)
	wantIn(t, "chart", s, "- Savings Plan 1y $40.000/h", "~ Savings Plan 3y $28.000/h")
	s = CompareChart(compareSet(), 100, 24)
	wantIn(t, "compare chart", s, "A p5.48xlarge us-east-1a Dec 01 48h×1: $3.932 vs a $6.880, b/e 58%", "D u-p6e-gb200x72", "no on-demand", "cheapest per accelerator-hour")
	// Of two offerings, one dearer than on-demand and one without an on-demand price, the
	// reading does not claim that none beats on-demand: one may.
	dear := Compare(nil, offering("p5.48xlarge", "us-east-1", 1, 24, 0, "2000.00"))
	unpriced := Compare(nil, offering("p6-b200.48xlarge", "eu-north-1", 1, 24, 0, "100.00"))
	if dear.CanWin || !unpriced.NoOnDemand {
		t.Fatalf("the example needs a block that cannot win and one without a price: %+v %+v", dear.CanWin, unpriced.NoOnDemand)
	}
	s = strings.Join(strings.Fields(CompareChart([]Comparison{dear, unpriced}, 120, 24)), " ")
	if !strings.Contains(s, "none of those with an on-demand price beats it") || strings.Contains(s, "none beats on-demand") {
		t.Errorf("the reading with an unpriced offering:\n%s", s)
	}
	if s := CostChart(Compare(nil, offering("p6-b200.48xlarge", "eu-north-1", 2, 24, 0, "5455.97")), 80, 20); strings.Contains(s, "*") || !strings.Contains(s, "no on-demand price to compare with") {
		t.Errorf("a chart without on-demand drew one or did not say so:\n%s", s)
	}
}

// Any size, however small, fits and never panics.
func TestChartsFitEverySize(t *testing.T) {
	cs := compareSet()
	draws := []func(w, h int) string{
		func(w, h int) string { return CostChart(cs[0], w, h) },
		func(w, h int) string { return UtilizationChart(cs[0], w, h) },
		func(w, h int) string { return CostChart(withSavingsPlans(), w, h) },
		func(w, h int) string { return UtilizationChart(cs[3], w, h) },
		func(w, h int) string { return CompareChart(cs, w, h) },
		func(w, h int) string { return CompareChart(nil, w, h) },
		func(w, h int) string { return CostChart(Comparison{}, w, h) },
		func(w, h int) string { return UtilizationChart(Compare(nil, model.Offering{}), w, h) },
	}
	for i, draw := range draws {
		for w := -1; w <= 130; w += 3 {
			for h := -1; h <= 40; h++ {
				s := draw(w, h)
				if !fits(s, w, h) {
					t.Fatalf("chart %d at %d×%d does not fit:\n%s", i, w, h, s)
				}
			}
		}
	}
	if s := CostChart(cs[0], 10, 3); s == "" || !strings.Contains(s, "chart") {
		t.Errorf("10×3 = %q, want a short notice", s)
	}
}

func fits(s string, w, h int) bool {
	if s == "" {
		return true
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		return false
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > w {
			return false
		}
	}
	return true
}

func assertFits(t *testing.T, s string, w, h int) {
	t.Helper()
	if !fits(s, w, h) {
		t.Fatalf("does not fit %d×%d:\n%s", w, h, s)
	}
	if strings.Contains(s, "\x1b") {
		t.Fatalf("ANSI escape in chart")
	}
}

func TestBreakEvenBar(t *testing.T) {
	cat := NewCatalog(odRow("p5.48xlarge", "us-east-1", "50"))
	for _, tc := range []struct{ fee, want string }{
		{"587.50", "█████░░░░░"}, // 50% of the 23.5 usable hours
		{"1175", "██████████"},   // 100%
		{"1200", "█████████!"},   // never: above the usable hours on-demand
		{"0", "░░░░░░░░░░"},
		{"1", "█░░░░░░░░░"}, // any use needed shows
	} {
		c := Compare(cat, offering("p5.48xlarge", "us-east-1", 1, 24, 0, tc.fee))
		got := BreakEvenBar(c, 10)
		if got != tc.want || utf8.RuneCountInString(got) != 10 {
			t.Errorf("fee %s: %q, want %q", tc.fee, got, tc.want)
		}
	}
	if got := BreakEvenBar(Compare(nil, offering("p6-b200.48xlarge", "eu-north-1", 1, 24, 0, "9")), 4); got != "    " {
		t.Errorf("no on-demand: %q", got)
	}
	if BreakEvenBar(Comparison{}, 0) != "" || BreakEvenBar(Comparison{}, -3) != "" {
		t.Error("zero width must be empty")
	}
}

// wantIn checks that the chart named what shows every one of wants.
func wantIn(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}
