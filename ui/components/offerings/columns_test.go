package offerings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

// The pricing cells say what pricing.Compare says, and a type sold only as blocks shows a
// dash, never a number.
func TestPricingCells(t *testing.T) {
	o := offering("a", "us-east-1", "2000", 3, 2) // p5.48xlarge, 1 × 48 h
	c := pricing.Compare(nil, o)
	if c.NoOnDemand || !c.BreakEvenUtilization.Valid() {
		t.Fatalf("the embedded catalog has no on-demand price for p5.48xlarge in us-east-1: %s", c.NoOnDemandReason)
	}
	r := newRow(o, nil)
	if got, want := r.cell(ColOnDemand), c.OnDemandHourly.Rate(); got != want {
		t.Errorf("on-demand cell %q, want %q", got, want)
	}
	// 2000 ÷ (55.04 × 47.5 usable hours) = 76.5…%: the block costs 24% less; at least 77%
	// must be used.
	if got := r.cell(ColVsOnDemand); got != "-24%" {
		t.Errorf("vs on-demand cell %q, want -24%%", got)
	}
	if got, want := r.cell(ColBreakEven), "77% "+pricing.BreakEvenBar(c, breakEvenBarWidth); got != want || !strings.HasPrefix(got, "77% ████") {
		t.Errorf("break-even cell %q, want %q", got, want)
	}

	dear := newRow(offering("d", "us-east-1", "3000", 3, 2), nil)
	if got := dear.cell(ColVsOnDemand); got != "+15%" {
		t.Errorf("a block dearer than on-demand: %q, want +15%%", got)
	}
	if got := dear.cell(ColBreakEven); got != "never" {
		t.Errorf("a block that never wins: %q, want never (as the detail, the dialog and the commands say)", got)
	}

	none := offering("n", "us-east-1", "2000", 3, 2)
	none.InstanceType, none.Region = "trn2.48xlarge", "us-west-2" // no on-demand price known
	nr := newRow(none, nil)
	for _, col := range []Column{ColOnDemand, ColVsOnDemand, ColBreakEven} {
		if nr.cell(Column(col)) != noPrice {
			t.Errorf("%s without an on-demand price: %q, want %q", ColumnName(col), nr.cell(Column(col)), noPrice)
		}
	}
	for col, def := range columns {
		if w := ansi.StringWidth(r.cell(Column(col))); w > def.width {
			t.Errorf("%s cell %q is wider than its column (%d)", def.name, r.cell(Column(col)), def.width)
		}
	}
}

// Sorting by break-even follows the exact utilization; rows without one stay last in both
// directions.
func TestSortByBreakEven(t *testing.T) {
	m := New(theme.New(false))
	none := offering("none", "us-east-1", "100", 2, 2)
	none.InstanceType, none.Region = "trn2.48xlarge", "us-west-2" // no on-demand price known
	m.Add([]model.Offering{
		offering("mid", "us-east-1", "2000", 5, 2), none,
		offering("low", "us-east-1", "1500", 4, 2),
		offering("high", "us-east-1", "3000", 3, 2),
	})
	m = uitest.Steps(t, m, press, ids, []uitest.Step{
		{Keys: "B", Want: "low,mid,high,none", What: "by break-even"},
		{Keys: "B", Want: "high,mid,low,none", What: "by break-even, reversed"},
		{Keys: "V", Want: "low,mid,high,none", What: "by cost vs on-demand"},
	})
	m = press(m, "O", "O")
	if got := ids(m); !strings.HasSuffix(got, ",none") {
		t.Errorf("by on-demand rate, reversed, the row without one is not last: %s", got)
	}
}

// m marks the selected row, which then starts with the mark; Marked keeps the marking order.
func TestMarks(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "300", 5, 2), offering("b", "us-west-2", "100", 3, 2), offering("c", "eu-north-1", "200", 4, 2)})
	before := ansi.Strip(m.View(120, 5))
	if strings.Contains(before, markGlyph) {
		t.Fatalf("a mark before any:\n%s", before)
	}
	m = press(m, "j", "j", "m", "k", "k", "m") // a, then b
	var got []string
	for _, c := range m.Marked() {
		got = append(got, c.Offering.ID)
	}
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("marked %v, want a,b in marking order", got)
	}
	lines := strings.Split(ansi.Strip(m.View(120, 5)), "\n")
	if !strings.HasPrefix(lines[1], markGlyph) || strings.HasPrefix(lines[2], markGlyph) || !strings.HasPrefix(lines[3], markGlyph) {
		t.Errorf("marks not shown on rows b and a:\n%s", strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 120 {
			t.Errorf("line wider than 120: %q", l)
		}
	}
	m = press(m, "m")
	if n := len(m.Marked()); n != 1 {
		t.Errorf("m again unmarks: %d marked", n)
	}
	m.Reset()
	if n := len(m.Marked()); n != 0 {
		t.Errorf("a reset keeps %d marks", n)
	}
}

// In the panes of 80-, 120- and 200-column terminals the table keeps the columns a choice is
// made on (the core of the priority in columns.go), and a sort by any key shows its column
// with its whole title and its arrow, whatever the width.
func TestCoreColumnsAndTheSortedOneAtEveryWidth(t *testing.T) {
	base := New(theme.New(false))
	other := offering("b", "us-west-2", "4186.38", 5, 3)
	other.InstanceType = "p5e.48xlarge"
	base.Add([]model.Offering{offering("a", "us-east-1", "2859.69", 5, 2), other})
	for _, w := range []int{78, 118, 158} {
		head := strings.SplitN(ansi.Strip(base.View(w, 5)), "\n", 2)[0]
		for c, d := range columns {
			// The zone gives way to the region, which differs here, at 78 cells.
			if (d.core || Column(c) == ColRegion) && Column(c) != ColSource && (Column(c) != ColAZ || w > 78) && !strings.Contains(head, d.title) {
				t.Errorf("%d cells lack %s: %q", w, d.name, head)
			}
		}
		for c, d := range columns {
			if Column(c) == ColSource {
				continue // shown only with a plan in the table
			}
			m := press(base, d.sortKey)
			head := strings.SplitN(ansi.Strip(m.View(w, 5)), "\n", 2)[0]
			if !strings.Contains(head, d.title+"▲") && !strings.Contains(head, d.title+"▼") {
				t.Errorf("%d cells sorted by %s (%s): header %q lacks %q with its arrow", w, d.name, d.sortKey, head, d.title)
			}
		}
	}
	// With a plan in the table the source is a column too, and sorting by it keeps its name.
	mixed := New(theme.New(false))
	plan := offering("p", "us-east-1", "3000", 5, 2)
	plan.Source = model.SourceTrainingPlan
	mixed.Add([]model.Offering{offering("a", "us-east-1", "2859.69", 5, 2), plan})
	for _, w := range []int{78, 118, 158} {
		head := strings.SplitN(ansi.Strip(press(mixed, "K").View(w, 5)), "\n", 2)[0]
		if !strings.Contains(head, "Source▲") && !strings.Contains(head, "Source▼") {
			t.Errorf("%d cells sorted by source: %q", w, head)
		}
	}
}

// Marking in a copy of the table leaves the original as it was (Bubble Tea models are values).
func TestMarksCopyOnWrite(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "300", 5, 2), offering("b", "us-west-2", "100", 3, 2)})
	m = press(m, "m", "j")
	one := press(m, "m")
	other := press(m, "k", "m")
	if len(one.Marked()) != 2 || len(other.Marked()) != 0 || len(m.Marked()) != 1 {
		t.Errorf("marked: copy one %d (want 2), copy two %d (want 0), original %d (want 1)", len(one.Marked()), len(other.Marked()), len(m.Marked()))
	}
}

// A swept duration (2d-7d) gives rows that differ only in length: at 78 cells the length
// column stays, or they would look like one block at several prices; it is core, so it
// stays with one length too.
func TestNarrowKeepsLengthOfASweep(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "2859.69", 5, 2), offering("b", "us-east-1", "4186.38", 5, 3)})
	head := strings.SplitN(ansi.Strip(m.View(78, 5)), "\n", 2)[0]
	if !strings.Contains(head, "Length") || !strings.Contains(head, "Start") || !strings.Contains(head, "Upfront fee") || !strings.Contains(head, "Break-even") {
		t.Errorf("a sweep at 78 cells: %q", head)
	}
}

// Break-even cells right-align like the other figures: the percentages end in one column
// (the bar after them is of one width) and a dash sits at the right edge, as in the other
// pricing columns.
func TestBreakEvenRightAligned(t *testing.T) {
	none := offering("n", "us-east-1", "2000", 5, 2)
	none.InstanceType, none.Region = "trn2.48xlarge", "us-west-2" // no on-demand price known
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "2000", 3, 2), offering("d", "us-east-1", "3000", 4, 2), none})
	lines := strings.Split(ansi.Strip(m.View(200, 4)), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header and 3 rows:\n%s", strings.Join(lines, "\n"))
	}
	// Break-even is the last column: every line ends where the header's title ends.
	end := ansi.StringWidth(strings.TrimRight(lines[0], " "))
	if !strings.HasSuffix(strings.TrimRight(lines[0], " "), "Break-even") {
		t.Fatalf("break-even is not the last column: %q", lines[0])
	}
	pct := -1
	for _, l := range lines[1:] {
		trimmed := strings.TrimRight(l, " ")
		if w := ansi.StringWidth(trimmed); w != end {
			t.Errorf("row ends at %d, the header at %d:\n%s\n%s", w, end, lines[0], l)
		}
		if strings.HasSuffix(trimmed, "never") {
			continue // a block that cannot win has no percentage
		}
		if i := strings.LastIndex(trimmed, "% "); i >= 0 {
			col := ansi.StringWidth(trimmed[:i])
			if pct >= 0 && col != pct {
				t.Errorf("percent signs at %d and %d:\n%s", pct, col, strings.Join(lines, "\n"))
			}
			pct = col
		}
	}
	if pct < 0 {
		t.Errorf("no break-even percentage:\n%s", strings.Join(lines, "\n"))
	}
}

// A cell longer than a row's offsets reach (a malformed answer) is cut, never a panic, and
// the other cells still read right.
func TestRowWithAnOverlongCell(t *testing.T) {
	o := offering("x", "us-east-1", "100.00", 1, 24)
	o.AvailabilityZone = strings.Repeat("a", 70_000)
	r := newRow(o, nil)
	if got := r.cell(ColRegion); got != "us-east-1" {
		t.Errorf("region %q", got)
	}
	if got := len(r.cell(ColAZ)); got == 0 || got >= 70_000 {
		t.Errorf("the zone's cell is %d long", got)
	}
	for c := range numColumns {
		_ = r.cell(c)
	}
}

// The filter searches a row's words: its figures, ID and zones, lower-cased, but not the
// break-even bar drawn beside the figure, which no one types and which lengthened every
// row's text by a third of its cells.
func TestFilterTextHasWordsNotBars(t *testing.T) {
	r := newRow(offering("a", "us-east-1", "2000", 3, 2), nil)
	if !strings.Contains(r.cell(ColBreakEven), "█") {
		t.Fatalf("the break-even cell %q has no bar to leave out", r.cell(ColBreakEven))
	}
	if strings.ContainsFunc(r.text, a11y.IsGraphic) {
		t.Errorf("the filter's text holds a bar: %q", r.text)
	}
	for _, w := range []string{"77%", "-24%", "p5.48xlarge", "us-east-1", strings.ToLower(r.cell(ColStart))} {
		if !strings.Contains(r.text, w) {
			t.Errorf("the filter's text %q lacks %q", r.text, w)
		}
	}
}

// sweep is what a 2d–7d search of two types in eight regions lists: first-day blocks that
// end at AWS's 11:30 UTC (lengths marked "~"), and whole days after.
func sweep() []model.Offering {
	regions := []string{"us-east-1", "us-east-2", "us-west-2", "eu-west-2", "eu-north-1", "ap-northeast-1", "ap-south-1", "ap-southeast-2"}
	var out []model.Offering
	for i, r := range regions {
		typ := "p5.48xlarge"
		if i%2 == 1 {
			typ = "p5en.48xlarge"
		}
		// Asked at 08:40 UTC: the first block ends at 11:30 the day after next.
		near := time.Date(2026, 12, 1, 8, 40, 0, 0, time.UTC)
		out = append(out, model.Offering{ID: fmt.Sprintf("cb-near-%d", i), Region: r, AvailabilityZone: r + "a", InstanceType: typ, Count: 1,
			Start: near, End: near.Add(50*time.Hour + 50*time.Minute), DurationHours: 50, DurationMinutes: 50,
			Fee: model.MustMoney(fmt.Sprintf("%d.00", 2100+37*i)), Currency: "USD"})
		for d := 2 + i%3; d <= 7; d += 2 {
			start := time.Date(2026, 12, 3+i%4, 11, 30, 0, 0, time.UTC)
			out = append(out, model.Offering{ID: fmt.Sprintf("cb-%d-%d", i, d), Region: r, AvailabilityZone: r + "b", InstanceType: typ, Count: 1,
				Start: start, End: start.AddDate(0, 0, d), DurationHours: 24 * d, Fee: model.MustMoney(fmt.Sprintf("%d.00", 1000*d+41*i)), Currency: "USD"})
		}
	}
	return out
}

// At 60×16, 80×24 and 120×40 a sweep of eight regions and two types keeps the region, the
// type and the length (they tell its rows apart), drops first what every row shares (the
// count), and says under the table why some lengths are marked "~".
func TestSweepColumnsGolden(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(theme.New(false))
			m.Add(sweep())
			out := ansi.Strip(m.View(sz[0], sz[1]))
			lines := strings.Split(out, "\n")
			for _, want := range []string{"Region", "Type", "Length", "Upfront fee"} {
				if !strings.Contains(lines[0], want) {
					t.Errorf("no %s column: %q", want, lines[0])
				}
			}
			if sz[0] < 120 && strings.Contains(lines[0], " N ") {
				t.Errorf("the count, the same on every row, is shown: %q", lines[0])
			}
			if !strings.Contains(out, "~2d3h") || !strings.HasPrefix(lines[len(lines)-1], "~ ") {
				t.Errorf("the rounded lengths are not explained:\n%s", out)
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Errorf("a line of %d cells: %q", w, l)
				}
			}
			golden.RequireEqual(t, []byte(out))
		})
	}
}
