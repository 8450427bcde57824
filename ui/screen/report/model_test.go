package report

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

var now = uitest.Now // 2026-12-01 09:00 UTC

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

const (
	planID   = "arn:aws:sagemaker:us-west-2:222222222222:training-plan/plan-llm"
	problem1 = "eu-west-1: could not be read: AccessDenied"
	problem2 = "account 333333333333: could not be read: the role could not be assumed"
)

// sample is a year of reservations: a block used most of its hours, a training plan whose
// use no one publishes, a block bought outside this machine's journal (its fee unknown), a
// block paid for twice in November, and two places that could not be read.
func sample() report.Input {
	return report.Input{
		Reservations: []report.Reservation{
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-0aaaaaaaaaaaaaaaa",
				InstanceType: "p5.48xlarge", Count: 2, Start: at("2026-03-02T11:30:00Z"), End: at("2026-03-06T11:30:00Z"),
				ReservedHours: 192, State: model.StateExpired, Tags: map[string]string{"team": "ml", "project": "llm"},
				Payments: []report.Payment{{At: at("2026-03-01T10:00:00Z"), Kind: report.Purchase, Amount: model.MustMoney("31464"), Known: true, Origin: report.FromBoth}},
				Use:      report.Use{Known: true, ReservedHours: 192, UsedHours: 150}},
			{Account: "222222222222", Region: "us-west-2", Source: model.SourceTrainingPlan, ID: planID, Name: "plan-llm",
				InstanceType: "ml.p5.48xlarge", Count: 1, Start: at("2026-06-10T00:00:00Z"), End: at("2026-06-17T00:00:00Z"),
				ReservedHours: 168, State: model.StateExpired, Tags: map[string]string{"team": "research"},
				Payments: []report.Payment{{At: at("2026-06-09T12:00:00Z"), Kind: report.Purchase, Amount: model.MustMoney("12000"), Known: true, Origin: report.FromAWS}},
				Use:      report.Use{Known: false, Why: "SageMaker does not publish a training plan's use"}},
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-0bbbbbbbbbbbbbbbb",
				InstanceType: "p4d.24xlarge", Count: 1, Start: at("2026-09-02T11:30:00Z"), End: at("2026-09-04T11:30:00Z"),
				ReservedHours: 48, State: model.StateExpired,
				Payments: []report.Payment{{At: at("2026-09-01T08:00:00Z"), Kind: report.Purchase}},
				Use:      report.Use{Known: true, ReservedHours: 48, UsedHours: 20}},
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-0cccccccccccccccc",
				InstanceType: "p5.48xlarge", Count: 1, Start: at("2026-11-20T11:30:00Z"), End: at("2026-11-23T11:30:00Z"),
				ReservedHours: 72, State: model.StateExpired, Tags: map[string]string{"team": "ml"},
				Payments: []report.Payment{
					{At: at("2026-11-19T09:00:00Z"), Kind: report.Purchase, Amount: model.MustMoney("4000"), Known: true, Origin: report.FromJournal},
					{At: at("2026-11-21T09:00:00Z"), Kind: report.Extension, Amount: model.MustMoney("2100.50"), Known: true, Origin: report.FromJournal},
				},
				Use: report.Use{Known: true, ReservedHours: 72, UsedHours: 40}},
		},
		Problems: []string{problem1, problem2},
	}
}

// want is what `gpublock report` makes of in for [from, to): the same catalog prices it,
// Build reckons it.
func want(in report.Input, from, to time.Time) report.Report {
	in.From, in.To, in.TagKeys, in.Now = from, to, []string{"team", "project"}, to
	pricing.PriceReport(pricing.Embedded(), &in)
	return report.Build(in)
}

// fake answers the screen's reads, and says what it was asked.
type fake struct {
	mu    sync.Mutex
	in    report.Input
	err   error
	asked [][2]time.Time
}

// load records the window asked, a zero end (up to the backend's now) as the test's now.
func (f *fake) load(_ context.Context, from, to time.Time) (report.Input, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if to.IsZero() {
		to = now
	}
	f.asked = append(f.asked, [2]time.Time{from, to})
	return f.in, f.err
}

func (f *fake) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.asked)
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		var cmd tea.Cmd
		m, cmd = m.update(uitest.Key(k))
		m = uitest.Run(m, Model.update, cmd)
	}
	return m
}

func sized(m Model, w, h int) Model {
	m.SetArea(screen.Area{Width: w, Height: h})
	return m
}

func viewAt(m Model, w, h int) string {
	return sized(m, w, h).render()
}

// entered is the screen shown once and read, on f.
func entered(t *testing.T, f *fake, w, h int) Model {
	t.Helper()
	m := sized(New(uitest.Context(false), Options{Load: f.load}), w, h)
	m, cmd := m.enter()
	if !m.Busy() || cmd == nil {
		t.Fatal("entering the screen did not start reading the report")
	}
	return uitest.Run(m, Model.update, cmd)
}

// lineWith is the line of view that holds s.
func lineWith(t *testing.T, view, s string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no line holds %q:\n%s", s, ansi.Strip(view))
	return ""
}

// listLine is the line of a view's list that holds s.
func listLine(t *testing.T, view, s string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "▸ ")) && strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no row holds %q:\n%s", s, ansi.Strip(view))
	return ""
}

func TestShowsWhatBuildComputes(t *testing.T) {
	f := &fake{in: sample()}
	m := entered(t, f, 200, 60)
	if f.calls() != 1 || m.Busy() {
		t.Fatalf("%d reads, busy %v", f.calls(), m.Busy())
	}
	from, to := f.asked[0][0], f.asked[0][1]
	if !from.Equal(at("2026-01-01T00:00:00Z")) || !to.Equal(now) {
		t.Errorf("read [%v, %v), want the 12 calendar months to the backend's now", from, to)
	}
	r := want(sample(), from, to)
	if len(r.Reservations) != 4 || r.Paid.Unknown != 1 || len(r.Problems) != 2 {
		t.Fatalf("the sample is not what the test is about: %+v", r)
	}
	view := viewAt(m, 200, 60)
	plain := ansi.Strip(view)

	head := lineWith(t, view, "Report")
	if !strings.Contains(head, "2026-01-01 to 2026-12-01 09:00 UTC (now)") || !strings.Contains(head, "12 months") {
		t.Errorf("header %q", head)
	}
	paid := lineWith(t, view, "Paid ")
	if !strings.Contains(paid, r.Paid.Known.Dollars()) || !strings.Contains(paid, fmt.Sprintf("in %d payments", r.Paid.Payments)) ||
		!strings.Contains(paid, "1 payment of unknown amount, not counted") {
		t.Errorf("totals %q, want %s in %d payments and the one of unknown amount", paid, r.Paid.Known.Dollars(), r.Paid.Payments)
	}
	used := lineWith(t, view, "reserved hours")
	share := fmt.Sprintf("%.0f%%", 100*r.Use.UsedHours/r.Use.ReservedHours)
	if !strings.Contains(used, hours(r.Use.UsedHours)) || !strings.Contains(used, hours(r.Use.ReservedHours)) || !strings.Contains(used, share) ||
		!strings.Contains(used, "use unknown for 1 reservation ("+hours(r.Use.UnknownReservedHours)) {
		t.Errorf("use %q, want %s of %s (%s) and the plan's unknown", used, hours(r.Use.UsedHours), hours(r.Use.ReservedHours), share)
	}
	for _, p := range []string{problem1, problem2} {
		if !strings.Contains(lineWith(t, view, p), "not read") {
			t.Errorf("the problem %q is not said as such", p)
		}
	}
	if !strings.Contains(plain, "? "+r.UnknownWords()) {
		t.Errorf("the payment of unknown amount is not named:\n%s", plain)
	}

	// Every month, with what Build says was paid in it.
	paidMonths := 0
	for _, mo := range r.Months {
		l := lineWith(t, view, mo.Label+" ")
		if !strings.Contains(l, mo.Amount.String()) {
			t.Errorf("%s: %q, want %s", mo.Label, l, mo.Amount.String())
		}
		if mo.Payments > 0 {
			paidMonths++
		}
	}
	if len(r.Months) != 12 || paidMonths != 4 {
		t.Fatalf("%d months, %d with payments", len(r.Months), paidMonths)
	}
	if l := lineWith(t, view, "2026-03 "); !strings.Contains(l, "█") {
		t.Errorf("March's bar is not drawn: %q", l)
	}
	if l := lineWith(t, view, "2026-09 "); !strings.Contains(l, "unknown (1 payment)") {
		t.Errorf("September's payment of unknown amount: %q", l)
	}

	// Every reservation on one line with its figures.
	var costKnown, idleKnown int
	for _, row := range r.Reservations {
		l := listLine(t, view, row.Label())
		for _, fig := range []string{row.Account, row.Capacity(), hours(row.ReservedHours), row.UsedHours.String(),
			row.CostPerAcceleratorHour.Rate(), row.IdleCost.String()} {
			if !strings.Contains(l, fig) {
				t.Errorf("%s: %q lacks %q", row.Label(), l, fig)
			}
		}
		if s, ok := row.UsedShare(); ok && !strings.Contains(l, fmt.Sprintf("%.0f%%", s*100)) {
			t.Errorf("%s: %q lacks its share used", row.Label(), l)
		}
		if row.CostPerAcceleratorHour.Known {
			costKnown++
		}
		if row.IdleCost.Known {
			idleKnown++
		}
	}
	if costKnown < 2 || idleKnown < 2 {
		t.Fatalf("the sample has too few known costs to test: %d, %d", costKnown, idleKnown)
	}
	// The plan's use is unknown: said so and drawn apart, never as idle.
	plan := listLine(t, view, "plan-llm")
	if !strings.Contains(plan, "unknown") || !strings.Contains(plan, strings.Repeat(unknownGlyph, useBarWidth)) || strings.Contains(plan, idleGlyph) {
		t.Errorf("the plan's unknown use: %q", plan)
	}
	if l := listLine(t, view, "cr-0cccccccccccccccc"); !strings.Contains(l, usedGlyph) || !strings.Contains(l, idleGlyph) {
		t.Errorf("a used block's bar: %q", l)
	}
	// The cursor's reservation says where and when it is.
	if note := lineWith(t, view, "EC2 Capacity Block in us-east-1"); !strings.Contains(note, "cr-0aaaaaaaaaaaaaaaa") {
		t.Errorf("note %q", note)
	}
	m = press(m, "j")
	if note := lineWith(t, viewAt(m, 200, 60), "SageMaker Training Plan in us-west-2"); !strings.Contains(note, "use unknown: SageMaker does not publish") {
		t.Errorf("the plan's note %q does not say why its use is unknown", note)
	}
}

// tab goes through the views of what was paid by account, source and tag.
func TestViews(t *testing.T) {
	f := &fake{in: sample()}
	m := entered(t, f, 160, 48)
	r := want(sample(), f.asked[0][0], f.asked[0][1])

	m = press(m, "tab")
	view := viewAt(m, 160, 48)
	if !strings.Contains(lineWith(t, view, "["), "[By account]") {
		t.Errorf("tab did not show the accounts")
	}
	for _, g := range r.ByAccount {
		if l := listLine(t, view, g.Key); !strings.Contains(l, g.Amount.String()) {
			t.Errorf("account %s: %q, want %s", g.Key, l, g.Amount.String())
		}
	}
	m = press(m, "tab")
	view = viewAt(m, 160, 48)
	for _, g := range r.BySource {
		s, _ := model.ParseSource(g.Key)
		if l := listLine(t, view, s.Plural()); !strings.Contains(l, g.Amount.String()) {
			t.Errorf("source %s: %q, want %s", g.Key, l, g.Amount.String())
		}
	}
	m = press(m, "tab")
	view = viewAt(m, 160, 48)
	// Each key, then its values in Build's order, each with what Build says was paid.
	lines := strings.Split(ansi.Strip(view), "\n")
	i := 0
	next := func(s string) string {
		for ; i < len(lines); i++ {
			if l := lines[i]; (strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "▸ ")) && strings.Contains(l, s) {
				i++
				return l
			}
		}
		t.Fatalf("no row holds %q after the rows before:\n%s", s, strings.Join(lines, "\n"))
		return ""
	}
	for _, tag := range r.ByTag {
		next(tag.Key)
		for _, g := range tag.Values {
			if l := next("  " + g.Key); !strings.Contains(l, g.Amount.String()) {
				t.Errorf("tag %s=%s: %q, want %s", tag.Key, g.Key, l, g.Amount.String())
			}
		}
	}
	if m = press(m, "tab"); m.view != viewReservations {
		t.Errorf("tab from the last view: %d", m.view)
	}
	if m = press(m, "shift+tab"); m.view != viewTags {
		t.Errorf("shift+tab from the first view: %d", m.view)
	}
}

// r reads again; < and > move the window by a month, m switches 12 and 3 months; each
// reads the window it shows.
func TestReloadAndWindow(t *testing.T) {
	f := &fake{in: sample()}
	m := entered(t, f, 120, 40)
	m = press(m, "r")
	if f.calls() != 2 {
		t.Fatalf("r: %d reads, want 2", f.calls())
	}
	if f.asked[1] != f.asked[0] {
		t.Errorf("r read %v, want the same window %v", f.asked[1], f.asked[0])
	}
	steps := []struct {
		key      string
		from, to string
		words    string
	}{
		{"<", "2025-12-01T00:00:00Z", "2026-12-01T00:00:00Z", "2025-12-01 to 2026-11-30"},
		{"<", "2025-11-01T00:00:00Z", "2026-11-01T00:00:00Z", "2025-11-01 to 2026-10-31"},
		{"m", "2026-08-01T00:00:00Z", "2026-11-01T00:00:00Z", "2026-08-01 to 2026-10-31"},
		{">", "2026-09-01T00:00:00Z", "2026-12-01T00:00:00Z", "2026-09-01 to 2026-11-30"},
		{">", "2026-10-01T00:00:00Z", now.Format(time.RFC3339), "2026-10-01 to 2026-12-01 09:00 UTC (now)"},
		{"m", "2026-01-01T00:00:00Z", now.Format(time.RFC3339), "2026-01-01 to 2026-12-01 09:00 UTC (now)"},
	}
	for i, s := range steps {
		m = press(m, s.key)
		if f.calls() != 3+i {
			t.Fatalf("%s: %d reads, want %d", s.key, f.calls(), 3+i)
		}
		got := f.asked[2+i]
		if !got[0].Equal(at(s.from)) || !got[1].Equal(at(s.to)) {
			t.Errorf("step %d %s: read [%v, %v), want [%s, %s)", i, s.key, got[0], got[1], s.from, s.to)
		}
		if h := lineWith(t, viewAt(m, 120, 40), "Report"); !strings.Contains(h, s.words) {
			t.Errorf("step %d %s: header %q, want %q", i, s.key, h, s.words)
		}
		if r, ok := m.Report(); !ok || !r.From.Equal(got[0]) || !r.To.Equal(got[1]) {
			t.Errorf("step %d %s: the report shown is of [%v, %v)", i, s.key, r.From, r.To)
		}
	}
	// The window ends now at the latest: > says so and reads nothing.
	m, cmd := m.update(uitest.Key(">"))
	if cmd != nil || f.calls() != 2+len(steps) {
		t.Errorf("> past now read again")
	}
	if s := m.Flash().Apply(""); !strings.Contains(s, "already ends now") {
		t.Errorf("> past now says %q", s)
	}
}

// A reply to a read that another has replaced is dropped.
func TestStaleReplyDropped(t *testing.T) {
	f := &fake{in: sample()}
	m := sized(New(uitest.Context(false), Options{Load: f.load}), 120, 40)
	m, first := m.enter()
	m, second := m.update(uitest.Key("<")) // the window changes before the first answers
	m = uitest.Run(m, Model.update, first)
	if _, ok := m.Report(); ok || !m.Busy() {
		t.Fatal("the first window's answer was taken after the window moved")
	}
	m = uitest.Run(m, Model.update, second)
	if r, ok := m.Report(); !ok || !r.To.Equal(at("2026-12-01T00:00:00Z")) || m.Busy() {
		t.Errorf("the second read's answer: %v, busy %v", r.To, m.Busy())
	}
}

// A failed read is said, r tries again; a failed read again keeps the figures read before,
// saying they are.
func TestError(t *testing.T) {
	f := &fake{err: errors.New("the report is not available in this build")}
	m := entered(t, f, 120, 40)
	view := ansi.Strip(viewAt(m, 120, 40))
	if !strings.Contains(view, "✗ The report could not be read: the report is not available in this build") || !strings.Contains(view, "r tries again") {
		t.Fatalf("the failure is not said:\n%s", view)
	}
	f.err, f.in = nil, sample()
	m = press(m, "r")
	r := want(sample(), f.asked[1][0], f.asked[1][1])
	if view := ansi.Strip(viewAt(m, 120, 40)); strings.Contains(view, "✗") || !strings.Contains(view, r.Paid.Known.Dollars()) {
		t.Fatalf("after r the report is not shown:\n%s", view)
	}
	f.err = errors.New("the network is down")
	m = press(m, "r")
	view = ansi.Strip(viewAt(m, 120, 40))
	if !strings.Contains(view, "could not be read again") || !strings.Contains(view, "the network is down") || !strings.Contains(view, r.Paid.Known.Dollars()) {
		t.Errorf("a failed read again:\n%s", view)
	}
}

// While the report is read, the screen says so; a read again keeps the figures on screen.
func TestLoading(t *testing.T) {
	f := &fake{in: sample()}
	m := sized(New(uitest.Context(false), Options{Load: f.load}), 120, 40)
	m.SetSpinner("*")
	m, cmd := m.enter()
	if v := ansi.Strip(m.render()); !strings.Contains(v, "* reading fees and use…") || !strings.Contains(v, "2026-01-01 to 2026-12-01 09:00 UTC (now)") {
		t.Errorf("loading:\n%s", v)
	}
	m = uitest.Run(m, Model.update, cmd)
	m, _ = m.update(uitest.Key("r"))
	if v := ansi.Strip(m.render()); !strings.Contains(v, "* reading again…") || !strings.Contains(v, "Paid ") {
		t.Errorf("reading again:\n%s", v)
	}
	// Read again later, to a later now: the figures stay while it is read.
	later := now.Add(2 * time.Hour)
	m.pc.Clock = program.NewClock(func() time.Time { return later })
	m, cmd = m.update(uitest.Key("r"))
	if v := ansi.Strip(m.render()); !strings.Contains(v, "* reading again…") || !strings.Contains(v, "Paid ") {
		t.Errorf("reading again to a later now:\n%s", v)
	}
	m = uitest.Run(m, Model.update, cmd)
	if r, _ := m.Report(); !r.To.Equal(later) {
		t.Errorf("read again to %v, want the later now %v", r.To, later)
	}
	// Entering again does not read again.
	if _, cmd := m.leave().enter(); cmd != nil {
		t.Error("entering the screen again read again")
	}
}

func TestEmptyWindow(t *testing.T) {
	f := &fake{}
	m := entered(t, f, 80, 24)
	view := ansi.Strip(viewAt(m, 80, 24))
	if !strings.Contains(view, "Nothing was paid and no reservation was held in this window.") || !strings.Contains(view, "Paid $0.00 in 0 payments") {
		t.Errorf("empty window:\n%s", view)
	}
	f.in.Problems = []string{problem1}
	m = press(m, "r")
	view = ansi.Strip(viewAt(m, 80, 24))
	if !strings.Contains(view, "in what could be") || !strings.Contains(view, problem1) {
		t.Errorf("empty window with a problem:\n%s", view)
	}
}

// Without a backend the screen says it is not connected, and reads once it is.
func TestNotConnected(t *testing.T) {
	pc := uitest.Context(false)
	m := sized(New(pc, Options{}), 80, 24)
	m, cmd := m.enter()
	if cmd != nil || m.Busy() || !strings.Contains(ansi.Strip(m.render()), "Not connected") {
		t.Fatalf("no backend:\n%s", ansi.Strip(m.render()))
	}
	if _, cmd := m.leave().Connected(); cmd != nil {
		t.Error("a hidden screen read on connecting")
	}
	f := &fake{in: sample()}
	m.opts.Load = f.load // as the root's backend once connected
	m, cmd = m.Connected()
	m = uitest.Run(m, Model.update, cmd)
	if f.calls() != 1 {
		t.Fatalf("%d reads once connected", f.calls())
	}
	if _, ok := m.Report(); !ok {
		t.Error("no report once connected")
	}
}

// The moving keys move the cursor through the rows, and the list scrolls to keep it shown.
func TestMovingScrolls(t *testing.T) {
	in := sample()
	base := in.Reservations[0]
	for i := range 30 {
		r := base
		r.ID = fmt.Sprintf("cr-%017d", i)
		in.Reservations = append(in.Reservations, r)
	}
	f := &fake{in: in}
	m := entered(t, f, 100, 30)
	r := want(in, f.asked[0][0], f.asked[0][1])
	first, last := r.Reservations[0].Label(), r.Reservations[len(r.Reservations)-1].Label()
	m = press(m, "G")
	if m.cursor != 33 {
		t.Fatalf("G: cursor %d, want the last of 34", m.cursor)
	}
	view := viewAt(m, 100, 30)
	if l := lineWith(t, view, "▸ "); !strings.Contains(l, last) {
		t.Errorf("the last row %s is not shown under the cursor: %q", last, l)
	}
	if l := lineWith(t, view, "[Reservations]"); !strings.Contains(l, "–34 of 34") {
		t.Errorf("the list does not say it is cut: %q", l)
	}
	m = press(m, "g")
	if l := lineWith(t, viewAt(m, 100, 30), "▸ "); !strings.Contains(l, first) {
		t.Errorf("g: %q, want %s", l, first)
	}
}

// Every state draws within every size, and never panics.
func TestEverySizeFits(t *testing.T) {
	f := &fake{in: sample()}
	loaded := entered(t, f, 80, 24)
	many := sample()
	for i := range 40 {
		r := many.Reservations[i%4]
		r.ID, r.Name = fmt.Sprintf("cr-%017d", i), ""
		r.Account = strings.Repeat("9", 12)
		many.Reservations = append(many.Reservations, r)
	}
	for i := range 10 {
		many.Problems = append(many.Problems, fmt.Sprintf("region-%d: could not be read: a long message that goes on and on", i))
	}
	manyLoaded := entered(t, &fake{in: many}, 80, 24)
	failed := entered(t, &fake{err: errors.New("the report is not available in this build")}, 80, 24)
	loading, _ := sized(New(uitest.Context(false), Options{Load: (&fake{}).load}), 80, 24).enter()
	failedAgain := func() Model {
		g := &fake{in: sample()}
		m := entered(t, g, 80, 24)
		g.err = errors.New("the network is down")
		return press(m, "r")
	}()
	states := map[string]Model{
		"loading":      loading,
		"loaded":       loaded,
		"accounts":     press(loaded, "tab"),
		"sources":      press(loaded, "tab", "tab"),
		"tags":         press(loaded, "tab", "tab", "tab"),
		"many":         manyLoaded,
		"many bottom":  press(manyLoaded, "G"),
		"many tags":    press(manyLoaded, "shift+tab", "G"),
		"failed":       failed,
		"failed again": failedAgain,
		"empty":        entered(t, &fake{}, 80, 24),
		"3 months":     press(loaded, "m"),
		"not connected": func() Model {
			m, _ := sized(New(uitest.Context(false), Options{}), 80, 24).enter()
			return m
		}(),
	}
	sizes := append(uitest.Sizes(), [2]int{20, 6}, [2]int{21, 7}, [2]int{40, 12}, [2]int{200, 60})
	for name, m := range states {
		for _, sz := range sizes {
			uitest.CheckFits(t, name, viewAt(m, sz[0], sz[1]), sz[0], sz[1])
		}
		// Moved at one size, drawn at others: the cursor stays on the screen's rows.
		small := press(sized(m, 40, 12), "j", "j", "j")
		for _, sz := range [][2]int{{20, 6}, {40, 12}, {80, 24}, {160, 48}, {400, 120}} {
			uitest.CheckFits(t, name+" moved", viewAt(small, sz[0], sz[1]), sz[0], sz[1])
		}
	}
	// At 20×6 the window and what was paid still show.
	if v := ansi.Strip(viewAt(loaded, 20, 6)); !strings.Contains(v, "Report") || !strings.Contains(v, "Paid") {
		t.Errorf("20×6:\n%s", v)
	}
}

// The screen's key map feeds help: every key is in its full help and in its groups.
func TestKeyMapFeedsHelp(t *testing.T) {
	m := New(uitest.Context(false), Options{})
	all := m.KeyMap().FullHelp()
	n := 0
	for _, g := range m.KeyGroups() {
		n += len(g.Keys)
	}
	if len(all) != 1 || len(all[0]) != n || n != 12 {
		t.Errorf("full help %d keys, groups %d", len(all[0]), n)
	}
	for _, b := range m.keys.ShortHelp() {
		if !b.Enabled() || b.Help().Key == "" {
			t.Errorf("short help %+v", b.Help())
		}
	}
}

// The latest window is asked up to the backend's now (a zero end), an earlier one to its end.
func TestAsksUpToNowForTheLatestWindow(t *testing.T) {
	var ends []time.Time
	load := func(_ context.Context, _, to time.Time) (report.Input, error) {
		ends = append(ends, to)
		return sample(), nil
	}
	m := sized(New(uitest.Context(false), Options{Load: load}), 120, 40)
	m, cmd := m.enter()
	m = uitest.Run(m, Model.update, cmd)
	m, cmd = m.update(uitest.Key("<"))
	uitest.Run(m, Model.update, cmd)
	if len(ends) != 2 || !ends[0].IsZero() || !ends[1].Equal(at("2026-12-01T00:00:00Z")) {
		t.Errorf("ends asked %v, want up to now, then the end of November", ends)
	}
}

// The reservations one purchase made (one per segment) say their place among them in a
// PURCHASE column, and the note names the others; a report without such a purchase has no
// such column.
func TestPurchaseGroupColumn(t *testing.T) {
	if v := ansi.Strip(viewAt(entered(t, &fake{in: sample()}, 200, 60), 200, 60)); strings.Contains(v, "PURCHASE") {
		t.Errorf("a report without a purchase of several reservations has a PURCHASE column:\n%s", v)
	}
	in := sample()
	group := []string{"cr-0aaaaaaaaaaaaaaaa", "cr-0dddddddddddddddd"}
	in.Reservations[0].Group = group
	second := in.Reservations[0]
	second.ID, second.Payments = group[1], []report.Payment{{At: at("2026-03-01T10:00:00Z"), Kind: report.Purchase, Amount: model.MustMoney("1000"), Known: true}}
	in.Reservations = append(in.Reservations, second)
	m := entered(t, &fake{in: in}, 200, 60)
	view := viewAt(m, 200, 60)
	if !strings.Contains(lineWith(t, view, "RESERVATION"), "PURCHASE") {
		t.Errorf("no PURCHASE column:\n%s", ansi.Strip(view))
	}
	for i, id := range group {
		if l := listLine(t, view, id); !strings.Contains(l, fmt.Sprintf("%d of 2", i+1)) {
			t.Errorf("%s: %q lacks %d of 2", id, l, i+1)
		}
	}
	if l := listLine(t, view, "cr-0cccccccccccccccc"); strings.Contains(l, " of 2") {
		t.Errorf("a reservation bought alone is marked: %q", l)
	}
	if note := lineWith(t, view, "EC2 Capacity Block in us-east-1"); !strings.Contains(note, "one purchase made 2 reservations (cr-0aaaaaaaaaaaaaaaa,") {
		t.Errorf("note %q does not name the purchase's reservations", note)
	}
}
