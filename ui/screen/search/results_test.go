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
	m.SetArea(screen.Area{Top: 1, Width: 80, Height: 37})
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
	v := ansi.Strip(m.render())
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
	m.SetArea(screen.Area{Top: 1, Width: 160, Height: 45})
	q, _ := m.form.Query()
	m, _ = m.StartFormSearch(q)
	m, _ = m.update(EventsMsg{ID: m.search.id, Closed: true})
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
		m.SetArea(screen.Area{Top: 1, Width: sz[0], Height: sz[1] - 2})
		m.pc.Width, m.pc.Height = sz[0], sz[1]
		q, ok := m.form.Query()
		if !ok {
			t.Fatalf("the default form is not a search: %v", m.form.Errors())
		}
		q.Sources, q.Targets, q.Count = []model.Source{model.SourceTrainingPlan}, []string{"training-job"}, 4
		q.InstanceTypes, q.Durations = []string{"ml.p5.48xlarge"}, model.DurationRange{MinDays: 15, MaxDays: 15}
		m, _ = m.StartFormSearch(q)
		st := model.RegionStatus{Region: "us-east-1", State: model.RegionEmpty}
		m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1}}, Closed: true})
		if m.extra.altsLoading {
			t.Errorf("%dx%d: Capacity Block alternatives asked for a plans search", sz[0], sz[1])
		}
		flat := strings.Join(strings.Fields(ansi.Strip(m.render())), " ")
		if !strings.Contains(flat, "Training Plans reserve 1, 2, 4, 8, 16, 32 or 64 instances") || !strings.Contains(flat, "1–182 whole days") {
			t.Errorf("%dx%d: the plans' rules are not the hint:\n%s", sz[0], sz[1], ansi.Strip(m.render()))
		}
		if strings.Contains(flat, "Press L") || strings.Contains(flat, "holds no valid duration") {
			t.Errorf("%dx%d: the Capacity Blocks' rules leaked:\n%s", sz[0], sz[1], ansi.Strip(m.render()))
		}
	}
}

// Before the first search the results pane says that the form is a search already, whole
// at any width (wrapped, never cut).
func TestFirstHintSaysTheFormIsASearch(t *testing.T) {
	for _, w := range []int{60, 100, 160} {
		m := New(uitest.Context(false), Options{Region: "us-east-1"})
		m.SetArea(screen.Area{Top: 1, Width: w, Height: 40})
		pane := ansi.Strip(m.resultsView(m.layout()))
		flat := strings.Join(strings.Fields(pane), " ")
		if !strings.Contains(flat, "filled in with a search already") || !strings.Contains(flat, "press enter to search it as it is, or change any field first.") {
			t.Errorf("width %d:\n%s", w, pane)
		}
	}
}

// One offering is "1 offering", not "1 offerings".
func TestFoundLineCountsInTheSingular(t *testing.T) {
	m := unsized().resize(160, 48)
	v := withResults(m, uitest.SyntheticOfferings(1)).view()
	if !strings.Contains(v, "Found 1 offering in us-east-1 (1 call)") {
		t.Errorf("the line over one offering does not say \"Found 1 offering in\":\n%s", v)
	}
	v = withResults(m, uitest.SyntheticOfferings(2)).view()
	if !strings.Contains(v, "Found 2 offerings in us-east-1") {
		t.Errorf("the line over two offerings does not say \"Found 2 offerings in\":\n%s", v)
	}
}

// In 80×24, 120×40 and 200×60 terminals, a search held back by AWS's rate says on its
// status line the calls done of all, the wait, and the slowest region's estimated end.
func TestPacedSearchShowsWaitAndEstimate(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			// The screen's clock is the emulator's, days ahead of the clock the buckets
			// were read by: the estimate counts from the step's arrival on the screen's.
			now := uitest.Now
			m := newShown(Options{}, func() time.Time { return now }, 0, 0).resize(sz[0], sz[1])
			q, _ := m.form.Query()
			m = m.startSearch(q)
			read := now.Add(-72 * time.Hour)
			st := model.RegionStatus{Region: "us-east-1", State: model.RegionSearching}
			// us-east-1: 28 left, 0.12 in hand, one call every 6.75 s: the next in 6s, the
			// last 188 s on.
			east := model.RegionProgress{Region: "us-east-1", Done: 12, Left: 28, Tokens: 0.12, Rate: 1 / 6.75, At: read}
			west := model.RegionProgress{Region: "us-west-2", Done: 4, Left: 2, Tokens: 1, Rate: 1 / 6.75, At: read}
			m = update(m, EventsMsg{ID: m.search.id, Events: []source.SearchEvent{
				{Region: "us-east-1", Status: &st, CallsDone: 16, CallsTotal: 46, Progress: &east},
				{Region: "us-west-2", CallsDone: 16, CallsTotal: 46, Progress: &west},
			}})
			v := m.view()
			for _, want := range []string{"16 of 46 calls", "waiting 6s for AWS's rate", "done in ~3m (us-east-1)"} {
				if !strings.Contains(v, want) {
					t.Errorf("no %q on screen:\n%s", want, v)
				}
			}
			// The header says it on every screen, where its long form fits.
			if _, head := m.HeaderNote(); sz[0] >= 200 && !strings.Contains(head, "16 of 46 calls · waiting 6s for AWS's rate · done in ~3m (us-east-1)") {
				t.Errorf("the header does not carry the search's progress: %q", head)
			}
			// With no new step, both count down as the screen's clock goes on.
			now = now.Add(150 * time.Second)
			m.SetNow(now)
			if v := m.view(); !strings.Contains(v, "done in ~38s (us-east-1)") || strings.Contains(v, "waiting 6s") {
				t.Errorf("150 s on, the estimate did not count down:\n%s", v)
			}
		})
	}
}
