package chart

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

func comparison(typ, fee string, count int) pricing.Comparison {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return pricing.Compare(nil, model.Offering{ID: "cb-" + typ, Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: typ, Count: count, Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48,
		Fee: model.MustMoney(fee), Currency: "USD"})
}

func TestViewShowsBothChartsAndTheReading(t *testing.T) {
	c := comparison("p5.48xlarge", "2000", 1)
	for _, sz := range [][2]int{{118, 19}, {78, 40}} {
		v := ansi.Strip(View(theme.New(false), c, sz[0], sz[1]))
		for _, want := range []string{pricing.CostChartTitle, pricing.UtilizationChartTitle, "cheaper than on-demand if you use at least 77%", "= block", "* on-demand", "X"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d lacks %q:\n%s", sz[0], sz[1], want, v)
			}
		}
		uitest.CheckFits(t, "view", v, sz[0], sz[1])
	}
	// A short, narrow pane keeps the cost chart and its reading.
	v := ansi.Strip(View(theme.New(false), c, 78, 14))
	if !strings.Contains(v, pricing.CostChartTitle) || strings.Contains(v, pricing.UtilizationChartTitle) || !strings.Contains(v, "77%") {
		t.Errorf("78x14:\n%s", v)
	}
	// Colour tints glyphs and changes no text.
	if col := ansi.Strip(View(theme.New(true), c, 118, 19)); col != ansi.Strip(View(theme.New(false), c, 118, 19)) {
		t.Errorf("colour changed the text:\n%s", col)
	}
}

func TestCompareViewNamesEveryOffering(t *testing.T) {
	cs := []pricing.Comparison{comparison("p5.48xlarge", "2000", 1), comparison("p5en.48xlarge", "5000", 2)}
	v := ansi.Strip(CompareView(theme.New(false), cs, 118, 30))
	for _, want := range []string{pricing.CompareChartTitle, "A p5.48xlarge", "B p5en.48xlarge", "cheapest per accelerator-hour"} {
		if !strings.Contains(v, want) {
			t.Errorf("lacks %q:\n%s", want, v)
		}
	}
}

func TestEverySizeFits(t *testing.T) {
	cs := []pricing.Comparison{comparison("p5.48xlarge", "2000", 1), comparison("p6-b200.48xlarge", "9000", 1)}
	// As uitest.FitsEverySize: under the race detector, which a chart's drawing does not
	// need, the same range is swept more sparsely.
	wStep, hStep := 7, 3
	if uitest.RaceBuild {
		wStep, hStep = 13, 5
	}
	for _, th := range []theme.Theme{theme.New(false), theme.New(true)} {
		for w := 0; w <= 240; w += wStep {
			for h := 0; h <= 80; h += hStep {
				uitest.CheckFits(t, "view", View(th, cs[0], w, h), max(w, 0), max(h, 1))
				uitest.CheckFits(t, "no on-demand", View(th, cs[1], w, h), max(w, 0), max(h, 1))
				uitest.CheckFits(t, "compare", CompareView(th, cs, w, h), max(w, 0), max(h, 1))
			}
		}
	}
}
