package advisor

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

var now = uitest.Now

func offering(id string, day int, fee string) model.Offering {
	start := time.Date(2026, 12, 1, 11, 30, 0, 0, time.UTC).AddDate(0, 0, day)
	return model.Offering{ID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", Count: 1,
		Start: start, End: start.Add(72 * time.Hour), DurationHours: 72, Fee: model.MustMoney(fee), Currency: "USD"}
}

// search answers every query with the same two pages, the second repeating an offering of
// the first, as overlapping weekly slices do.
func search(calls *int) SearchFunc {
	return func(ctx context.Context, q model.Query) <-chan Page {
		*calls++
		ch := make(chan Page, 2)
		ch <- Page{Region: "us-east-1", Offerings: []model.Offering{offering("cb-1", 1, "2400"), offering("cb-2", 9, "2000")}}
		ch <- Page{Region: "us-east-1", Offerings: []model.Offering{offering("cb-2", 9, "2000")}}
		close(ch)
		return ch
	}
}

// onePage answers every query with offs, in one page of us-east-1.
func onePage(offs ...model.Offering) SearchFunc {
	return func(ctx context.Context, q model.Query) <-chan Page {
		ch := make(chan Page, 1)
		ch <- Page{Region: "us-east-1", Offerings: offs}
		close(ch)
		return ch
	}
}

// advised is m once enter has run its searches to the end.
func advised(m Model) Model {
	m, cmd := m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	return uitest.Run(m, Model.update, cmd)
}

func TestRunStreamsAndDedupes(t *testing.T) {
	calls := 0
	m := New(uitest.Context(false), Options{Search: search(&calls)})
	m, cmd := m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if !m.Running() || m.mode != modeResults {
		t.Fatal("enter did not start the searches")
	}
	m = uitest.Run(m, Model.update, cmd)
	if m.Running() || calls != 8 {
		t.Fatalf("running %v after %d searches, want the 8 weekly slices", m.Running(), calls)
	}
	if len(m.offers) != 2 {
		t.Errorf("%d offerings, want the 2 distinct ones", len(m.offers))
	}
	o, _ := m.Selected()
	if o.Offering == nil || o.Offering.Offering.ID != "cb-2" {
		t.Fatalf("selected %+v, want the cheaper block cb-2", o)
	}
	// enter on it asks the root to buy it
	_, cmd = m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("no command")
	}
	if b, ok := cmd().(screen.OpenPurchase); !ok || b.Offering.ID != "cb-2" {
		t.Errorf("enter gave %#v", cmd())
	}
	// the calendar's cursor on day 9 names it
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	for i := 0; i < 9; i++ {
		m, _ = m.update(tea.KeyPressMsg{Code: 'l', Text: "l"})
	}
	if off, ok := m.CalendarOffering(); !ok || off.ID != "cb-2" {
		t.Errorf("calendar cursor on %+v", off)
	}
	view := ansi.Strip(viewAt(m, 80, 24))
	if !strings.Contains(view, "us-east-1 Thu Dec 10: 1 × p5.48xlarge in us-east-1a") {
		t.Errorf("the calendar does not name the offering:\n%s", view)
	}
}

// Pages of an earlier run are dropped once the job is run again.
func TestStalePagesDropped(t *testing.T) {
	calls := 0
	m := New(uitest.Context(false), Options{Search: search(&calls)})
	m, first := m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	m, _ = m.update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	m = uitest.Run(m, Model.update, first)
	if len(m.offers) != 0 {
		t.Errorf("%d offerings from the earlier run", len(m.offers))
	}
}

func TestNotConnected(t *testing.T) {
	m := New(uitest.Context(false), Options{})
	m, cmd := m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd != nil || !strings.Contains(ansi.Strip(viewAt(m, 80, 24)), "Not connected") {
		t.Errorf("view:\n%s", ansi.Strip(viewAt(m, 80, 24)))
	}
}

// Nothing at the job's count: the screen searches the counts next to it and shows what it
// finds under the Capacity Block, which stays ruled out.
func TestNearbyCounts(t *testing.T) {
	var counts []int
	m := New(uitest.Context(false), Options{Search: func(ctx context.Context, q model.Query) <-chan Page {
		counts = append(counts, q.Count)
		ch := make(chan Page, 1)
		if q.Count == 2 {
			o := offering("cb-2x", 3, "4000")
			o.Count = 2
			ch <- Page{Region: "us-east-1", Offerings: []model.Offering{o}}
		}
		close(ch)
		return ch
	}})
	m = advised(m)
	if len(counts) != 16 || counts[0] != 1 || counts[15] != 2 {
		t.Fatalf("searched counts %v, want 8 slices of 1 then 8 of 2", counts)
	}
	cb, _ := m.advice.Option("capacity-block")
	if cb.Eligible() || len(cb.Notes) != 1 || !strings.HasPrefix(cb.Notes[0], "on offer nearby: 2 × p5.48xlarge") {
		t.Errorf("block %+v", cb)
	}
}

// A SageMaker job is searched as Training Plans (for training jobs), never as Capacity
// Blocks, and the plans found are priced as the Training Plan option.
func TestSageMakerJobSearchesTrainingPlans(t *testing.T) {
	var qs []model.Query
	plan := offering("tpo-1", 2, "2300")
	plan.Source, plan.InstanceType = model.SourceTrainingPlan, "ml.p5.48xlarge"
	m := New(uitest.Context(false), Options{Search: func(ctx context.Context, q model.Query) <-chan Page {
		qs = append(qs, q)
		ch := make(chan Page, 1)
		ch <- Page{Region: "us-east-1", Offerings: []model.Offering{plan}}
		close(ch)
		return ch
	}})
	for i := range m.fields {
		if m.fields[i].flag == "sagemaker" {
			m.fields[i].on = true
		}
	}
	m = advised(m)
	if len(qs) == 0 {
		t.Fatal("nothing was searched for a SageMaker job")
	}
	for _, q := range qs {
		if q.Searches(model.SourceCapacityBlock) || !q.Searches(model.SourceTrainingPlan) {
			t.Fatalf("a SageMaker job's search %+v is not of Training Plans alone", q.Sources)
		}
	}
	if m.advice == nil {
		t.Fatal("no advice")
	}
	var found bool
	for _, o := range m.advice.Options {
		if o.Offering != nil && o.Offering.Offering.ID == "tpo-1" {
			found = true
		}
	}
	if !found {
		t.Errorf("the plan found is not among the options: %+v", m.advice.Options)
	}
	if v := ansi.Strip(m.statusText()); strings.Contains(v, "Training Plans: not searched") || !strings.Contains(v, "Capacity Blocks: not searched") {
		t.Errorf("status %q", v)
	}
}

func viewAt(m Model, w, h int) string {
	m.SetArea(screen.Area{Width: w, Height: h})
	return m.render()
}

// The screen's key map feeds help: every key the screen has is in its full help, and in its
// one titled group; read-only mode takes buying out.
func TestAdvisorKeyMapFeedsHelp(t *testing.T) {
	m := New(uitest.Context(false), Options{})
	full := m.KeyMap().FullHelp()
	if len(full) != 1 || len(full[0]) != len(m.FullHelp()) {
		t.Fatalf("full help %d groups, %d keys; want the screen's %d keys in one", len(full), len(full[0]), len(m.FullHelp()))
	}
	g := m.KeyGroups()
	if len(g) != 1 || g[0].Title != "Advisor screen" || len(g[0].Keys) != len(m.FullHelp()) {
		t.Errorf("help groups %+v", g)
	}
	pc := uitest.Context(false)
	pc.ReadOnly = true
	if New(pc, Options{}).KeyMap().Buy.Enabled() {
		t.Error("read-only: the buy key is enabled")
	}
}

// While the run's searches stream, the status says how many are done and what AWS's
// bucket makes the rest take: the searches' calls left added up in the region they share.
func TestRunSaysWhatIsLeft(t *testing.T) {
	n := 0
	paced := func(ctx context.Context, q model.Query) <-chan Page {
		n++
		ch := make(chan Page, 1) // left open: the search is still running
		// Each search has 3 calls left in us-east-1, whose bucket is empty and refills 0.5 a second.
		ch <- Page{Region: "us-east-1", Progress: &model.RegionProgress{Region: "us-east-1", Done: 1, Left: 3, Rate: 0.5, At: now}}
		return ch
	}
	m := New(uitest.Context(false), Options{Search: paced})
	m, cmd := m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) < 2 {
		t.Fatalf("the run started %T, want several searches", cmd())
	}
	for _, c := range batch[:2] { // two searches have reported, none has ended
		m, _ = m.update(c())
	}
	status := ansi.Strip(m.statusText())
	// 6 calls left from an empty bucket at 0.5 a second: the last can go in 12 s.
	if want := "searching… 0 of " + strconv.Itoa(len(batch)) + " searches done"; !strings.Contains(status, want) || !strings.Contains(status, "done in ~12s (us-east-1)") {
		t.Fatalf("status %q", status)
	}
}
