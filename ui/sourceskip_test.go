package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// A type one source does not sell searches the other, and the status line says which
// source was skipped and why, in the words the command line prints on stderr.
func TestSkippedSourceIsSaidOnTheStatusLine(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(New(testOptions(b)), tea.WindowSizeMsg{Width: 200, Height: 48})
	q := model.Query{Sources: []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan}, InstanceTypes: []string{"ml.p6e-gb200.36xlarge"},
		Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2}, Start: testNow, End: testNow.AddDate(0, 0, 14), Regions: []string{"us-east-1"}}
	m, id := startedSearch(m, func(s searchscreen.Model) (searchscreen.Model, tea.Cmd) { return s.StartSearch(q) })
	var evs []source.SearchEvent
	for ev := range b.Search(context.Background(), q) {
		evs = append(evs, ev)
	}
	if len(evs) == 0 || len(evs[0].Skips) != 1 || evs[0].Skips[0].Source != model.SourceCapacityBlock {
		t.Fatalf("the first event does not name the blocks as skipped: %+v", evs)
	}
	m = update(m, searchEventsMsg{ID: id, Events: evs, Closed: true})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "EC2 Capacity Blocks not searched: Capacity Blocks do not sell p6e-gb200.36xlarge") {
		t.Errorf("the status line does not say the blocks were skipped:\n%s", v)
	}
	// The region's line says how its search ended: not an error, not still searching.
	if v := ansi.Strip(m.View().Content); !regexp.MustCompile(`us-east-1 +(ok \d+|empty|throttled|cancelled)\b`).MatchString(v) {
		t.Errorf("the plans were not searched alone:\n%s", v)
	}
}
