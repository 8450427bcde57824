package flows

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/dialog/compare"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// A search of the default form (p5.48xlarge in us-east-1, where the catalog has an
// on-demand price) shows the pricing columns as pricing.Compare has them; v opens the chart
// with its reading; two marked rows compare on one chart; B sorts by break-even.
func TestPricingFlow(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, ui.New(testOptions(b)), 200, 50)
	s.WaitText("123456789012")
	s.Press("enter")
	if s.FoundCount() < 2 {
		t.Fatal("the search found fewer than two offerings; the flow needs two to compare")
	}
	table := s.WaitText("Break-even")

	s.Press("v")
	chart := s.WaitText(pricing.UtilizationChartTitle)

	s.Press("m", "j", "m", "c")
	compare := s.WaitText("Compare 2 offerings")
	s.Press("esc")
	s.WaitFor("the compare chart to close", func(text string) bool { return !strings.Contains(text, "Compare 2 offerings") })

	s.Press("v", "esc", "B")
	s.WaitText("Break-even▲")
	m := final(s)

	// Sorted by break-even: the exact utilizations never fall, and rows without one are last.
	if col, desc := m.Inspect().Search.Table().Sort(); col != offerings.ColBreakEven || desc {
		t.Fatalf("sort %s desc=%v, want break-even ascending", offerings.ColumnName(col), desc)
	}
	var prev pricing.Comparison
	seenNone := false
	for i := 0; i < m.Inspect().Search.Table().Visible(); i++ {
		rc := m.Inspect().Search.Table().RowComparison(i)
		switch {
		case !rc.BreakEvenUtilization.Valid():
			seenNone = true
		case seenNone:
			t.Errorf("row %d has a break-even after rows without one", i)
		case i > 0 && rc.BreakEvenUtilization.Cmp(prev.BreakEvenUtilization) < 0:
			t.Errorf("row %d break-even %s is below the row before it (%s)", i, rc.BreakEvenUtilization, prev.BreakEvenUtilization)
		}
		prev = rc
	}

	// The first row, as it was when the table was first drawn (sorted by start).
	// (The table's slices are shared by copies: this re-sorts m.Inspect().Search.Table(), after its order is checked.)
	first := m.Inspect().Search.Table()
	first.SortBy(offerings.ColStart)
	c := pricing.Compare(nil, first.Row(0))
	if c.NoOnDemand || !c.BreakEvenUtilization.Valid() {
		t.Fatalf("no on-demand comparison for %s in %s: %s", c.Offering.InstanceType, c.Offering.Region, c.NoOnDemandReason)
	}
	var row string
	for _, l := range strings.Split(table, "\n") {
		if strings.Contains(l, c.Offering.Fee.Dollars()) && strings.Contains(l, c.Offering.Start.UTC().Format("Jan 02 15:04")) {
			row = l
			break
		}
	}
	// The core columns of the priority (offerings/columns.go): the on-demand rate is in the detail.
	for _, want := range []string{c.Offering.InstanceHourlyRate().Rate(), fmt.Sprintf("%d%% %s", c.BreakEvenPercent(), pricing.BreakEvenBar(c, 5))} {
		if row == "" || !strings.Contains(row, want) {
			t.Errorf("the row of %s lacks %q: %q\n%s", c.Offering.ID, want, row, table)
		}
	}

	// The chart is of the row under the cursor then, the first one; its reading is under it.
	flat := strings.Join(strings.Fields(chart), " ")
	for _, want := range []string{pricing.CostChartTitle, "Chart · v details", firstWords(c.Reading(), 6)} {
		if !strings.Contains(flat, want) {
			t.Errorf("the chart lacks %q:\n%s", want, chart)
		}
	}

	// Both marked offerings have a legend on the compare chart.
	for _, want := range []string{"A " + c.Offering.InstanceType + " " + c.Offering.Region, "B " + c.Offering.InstanceType, "cheapest per accelerator-hour"} {
		if !strings.Contains(compare, want) {
			t.Errorf("the compare chart lacks %q:\n%s", want, compare)
		}
	}
	if n := len(m.Inspect().Search.Table().Marked()); n != 2 {
		t.Errorf("%d offerings marked, want 2", n)
	}
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// chartStates are the states of the charts, for TestEverySizeFits.
func chartStates(base, results ui.Model) map[string]ui.Model {
	return map[string]ui.Model{
		"chart":          update(results, uitest.Key("j"), uitest.Key("v")),
		"chart-narrowed": update(results, uitest.Key("tab"), uitest.Key("v"), uitest.Key("esc")),
		// Marked in the results: in the detail pane j and G scroll the detail.
		"compare": updateOpen(results, uitest.Key("m"), uitest.Key("j"), uitest.Key("m"), uitest.Key("j"), uitest.Key("m"), uitest.Key("c")),
		"marked":  update(results, uitest.Key("m"), uitest.Key("G"), uitest.Key("m")),
		"nothing-marked": func() ui.Model {
			m := base
			return update(focusResults(nil, m), uitest.Key("v"), uitest.Key("c"), uitest.Key("m"))
		}(),
	}
}

// c opens the compare chart of the marked offerings over the screen, and esc closes it. The
// chart's keys on the screen are ui/screen/search's TestChartKeys.
func TestCompareChartOpensAndCloses(t *testing.T) {
	base := ui.New(testOptions(nil))
	states := chartStates(base, withResults(base, uitest.SyntheticOfferings(500)))
	if _, ok := states["compare"].Inspect().Dialog.(compare.Model); !ok {
		t.Fatal("c with three marked offerings opened no compare chart")
	}
	if n := len(states["compare"].Inspect().Dialog.(compare.Model).Compared()); n != 3 {
		t.Errorf("the compare chart has %d offerings, want 3", n)
	}
	if d := update(states["compare"], uitest.Key("esc")).Inspect().Dialog; d != nil {
		t.Fatal("esc does not close the compare chart")
	}
}
