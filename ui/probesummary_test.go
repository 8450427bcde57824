package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
)

// The probe's answers over a table are all shown for a search of two types in seven
// regions at 80 columns: in one line they were cut after the second region.
func TestProbeSummaryShowsEveryRegion(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 80, Height: 40})
	m = withResults(m, syntheticOfferings(30))
	regions := model.RegionsSelling("p5.48xlarge")
	if len(regions) < 6 {
		t.Fatalf("p5.48xlarge is sold in %v; the test wants many regions", regions)
	}
	var want []string
	m.search.SetProbe(nil)
	for i, r := range regions {
		m.search.SetProbe(append(m.search.Probe(), probeResult{Region: r, Type: "p5.48xlarge", Count: 10 + i}))
		want = append(want, fmt.Sprintf("%s %d", r, 10+i))
	}
	m.search.SetProbe(append(m.search.Probe(), probeResult{Region: "us-east-1", Type: "p4d.24xlarge"}))
	want = append(want, "p4d.24xlarge: us-east-1 none")
	v := ansi.Strip(m.View().Content)
	var inside []string
	for _, l := range strings.Split(v, "\n") {
		inside = append(inside, strings.Trim(l, "│┃ "))
	}
	all := strings.Join(inside, " ")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("the probe's %q is not shown:\n%s", w, v)
		}
	}
	if !strings.Contains(all, "Largest count: p5.48xlarge: "+regions[0]) {
		t.Errorf("the probe's line does not start with its label and type:\n%s", v)
	}
}
