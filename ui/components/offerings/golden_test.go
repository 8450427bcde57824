package offerings

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

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
