package search

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// The probe's answers over a table are all shown for a search of two types in seven
// regions at 80 columns: in one line they were cut after the second region.
func TestProbeSummaryShowsEveryRegion(t *testing.T) {
	m := found(t, false, 30)
	m.pc.Width, m.pc.Height = 80, 40
	m.Resize(screen.Area{Top: 1, Width: 80, Height: 37})
	regions := model.RegionsSelling("p5.48xlarge")
	if len(regions) < 6 {
		t.Fatalf("p5.48xlarge is sold in %v; the test wants many regions", regions)
	}
	var want []string
	m.extra.probe = nil
	for i, r := range regions {
		m.extra.probe = append(m.extra.probe, ProbeResult{Region: r, Type: "p5.48xlarge", Count: 10 + i})
		want = append(want, fmt.Sprintf("%s %d", r, 10+i))
	}
	m.extra.probe = append(m.extra.probe, ProbeResult{Region: "us-east-1", Type: "p4d.24xlarge"})
	want = append(want, "p4d.24xlarge: us-east-1 none")
	v := ansi.Strip(m.View())
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

// An alternative in the window searched keeps the form's "now" and "+4w": the form took
// the alternative's resolved times, and searching again minutes later was refused because
// the start had passed. An alternative of another window still sets its dates.
func TestAlternativeKeepsTheRelativeWindow(t *testing.T) {
	now := testNow
	pc := uitest.Context(false)
	pc.Clock = program.NewClock(func() time.Time { return now })
	m := New(pc, Options{Region: "us-east-1"})
	m.Resize(screen.Area{Top: 1, Width: 160, Height: 45})
	q, _ := m.form.Query()
	m, _ = m.StartFormSearch(q)
	m, _ = m.Update(EventsMsg{ID: m.search.id, Closed: true})
	same := m.Query()
	same.Count = 44
	later := m.Query()
	later.Start, later.End = later.End, later.End.AddDate(0, 0, 14)
	m.extra.alts = []source.Suggestion{{Description: "44 instead of 1", Query: same, Offerings: 1}, {Description: "later window", Query: later, Offerings: 2}}

	now = now.Add(10 * time.Minute)
	got, _ := m.TakeAlternative(0)
	if q := got.Query(); q.Count != 44 || !q.Start.Equal(now) || !q.End.Equal(now.AddDate(0, 0, 28)) {
		t.Errorf("the alternative searched %d from %s to %s; want 44 from now (%s) for 4 weeks", q.Count, q.Start, q.End, now)
	}
	now = now.Add(10 * time.Minute)
	if q, ok := got.form.Query(); !ok || !q.Start.Equal(now) || q.Count != 44 {
		t.Errorf("10 minutes later the form gives %+v (valid %v, errors %v); want 44 from now", q, ok, got.form.Errors())
	}

	got, _ = m.TakeAlternative(1)
	if q, ok := got.form.Query(); !ok || !q.Start.Equal(later.Start) || !q.End.Equal(later.End) {
		t.Errorf("the later window's alternative gives %s → %s (valid %v), want %s → %s", q.Start, q.End, ok, later.Start, later.End)
	}
}

// A search of Training Plans that found nothing gives the plans' rules as hints (their
// counts and lengths), asks no Capacity Block alternative or probe of it, and never says
// the blocks' "Press L … (1–64)", at every size.
func TestEmptyPlansSearchHintsByThePlansRules(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		m := New(uitest.Context(false), Options{Region: "us-east-1"})
		m.Resize(screen.Area{Top: 1, Width: sz[0], Height: sz[1] - 2})
		m.pc.Width, m.pc.Height = sz[0], sz[1]
		q, ok := m.form.Query()
		if !ok {
			t.Fatalf("the default form is not a search: %v", m.form.Errors())
		}
		q.Sources, q.Targets, q.Count = []model.Source{model.SourceTrainingPlan}, []string{"training-job"}, 4
		q.InstanceTypes, q.Durations = []string{"ml.p5.48xlarge"}, model.DurationRange{MinDays: 15, MaxDays: 15}
		m, _ = m.StartFormSearch(q)
		st := model.RegionStatus{Region: "us-east-1", State: model.RegionEmpty}
		m, _ = m.Update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1}}, Closed: true})
		if m.extra.altsLoading {
			t.Errorf("%dx%d: Capacity Block alternatives asked for a plans search", sz[0], sz[1])
		}
		flat := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
		if !strings.Contains(flat, "Training Plans reserve 1, 2, 4, 8, 16, 32 or 64 instances") || !strings.Contains(flat, "1–182 whole days") {
			t.Errorf("%dx%d: the plans' rules are not the hint:\n%s", sz[0], sz[1], ansi.Strip(m.View()))
		}
		if strings.Contains(flat, "Press L") || strings.Contains(flat, "holds no valid duration") {
			t.Errorf("%dx%d: the Capacity Blocks' rules leaked:\n%s", sz[0], sz[1], ansi.Strip(m.View()))
		}
	}
}
