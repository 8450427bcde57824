package ui

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// The clock moves relative dates: a start valid at 09:00 is in the past at 10:00.
func TestClockRevalidates(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48}) // sized, for the form's ✗ to be drawn
	m = update(m, uitest.Key("tab"), uitest.Key("tab"), uitest.Key("ctrl+u"))
	for _, r := range "2026-12-01T09:30:00Z" {
		m = update(m, uitest.Key(string(r)))
	}
	if _, bad := fieldErrors(m)[searchform.Start]; bad {
		t.Fatalf("09:30 is not valid at 09:00: %v", fieldErrors(m))
	}
	now = now.Add(time.Hour)
	m = update(m, clockMsg(now))
	if _, bad := fieldErrors(m)[searchform.Start]; !bad {
		t.Error("09:30 is still valid at 10:00")
	}
	if m.clock != now {
		t.Errorf("header clock %v, want %v", m.clock, now)
	}
	mm, cmd := m.Update(uitest.Key("enter"))
	if cmd != nil || searched(mm.(Model)) {
		t.Error("an invalid form was searched")
	}
}

// The header says "searching" only while a search runs; after it, the regions it covered.
func TestHeaderSearchingOnlyWhileRunning(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), uitest.SyntheticOfferings(10))
	if searching(m) {
		t.Fatal("the synthetic search is still running")
	}
	head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]
	if strings.Contains(head, "searching") || !strings.Contains(head, "searched ") {
		t.Errorf("a finished search: %q", head)
	}
	mm, _ := m.startSearch(m.search().Query()) // the search's calls are not run: it stays running
	m = mm.(Model)
	if head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]; !strings.Contains(head, "searching ") {
		t.Errorf("a running search: %q", head)
	}
}

// Rows appear page by page while the search runs, replacing the previous search's rows
// only when the first of the new ones arrives.
func TestRowsAppearAsPagesArrive(t *testing.T) {
	m := withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48}), uitest.SyntheticOfferings(4))
	old, _ := m.search().Table().Selected()
	m, id := startedSearch(m, again)
	if !m.search().Table().Stale() || m.search().Table().Len() != 4 {
		t.Fatalf("a new search hid the old rows: stale=%v len=%d", m.search().Table().Stale(), m.search().Table().Len())
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "the rows shown are from the previous search") || !strings.Contains(v, old.ID) {
		t.Errorf("the old rows are not shown as such:\n%s", v)
	}
	fresh := uitest.SyntheticOfferings(20)[10:]
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionSearching}
	m = update(m, searchscreen.EventsMsg{ID: id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: fresh[:6], Status: &st, CallsDone: 0, CallsTotal: 2}}})
	if !searching(m) || m.search().Table().Stale() || m.search().Table().Len() != 6 {
		t.Fatalf("after the first page: running=%v stale=%v len=%d", searching(m), m.search().Table().Stale(), m.search().Table().Len())
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "0 of 2 calls · 6 offerings so far") || strings.Contains(v, old.ID) {
		t.Errorf("the first page is not on screen alone:\n%s", v)
	}
	done := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 10}
	m = update(m, searchscreen.EventsMsg{ID: id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: fresh[6:], Status: &done, CallsDone: 2, CallsTotal: 2}}, Closed: true})
	if searching(m) || m.search().Table().Len() != 10 || foundOnScreen(m) != 10 {
		t.Errorf("after the last page: running=%v len=%d found=%d", searching(m), m.search().Table().Len(), foundOnScreen(m))
	}
	// A late message of an older search changes nothing.
	m2 := update(m, searchscreen.EventsMsg{ID: id - 1, Events: []source.SearchEvent{{Offerings: uitest.SyntheticOfferings(3)}}, Closed: true})
	if m2.search().Table().Len() != 10 {
		t.Errorf("a stale search's page was added: %d rows", m2.search().Table().Len())
	}
}

// The first frame is drawn while the backend is still opening; once it is open the header
// says what it is and the form's default region becomes its region.
func TestConnectBehindTheFirstFrame(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	release := make(chan struct{})
	opts := testOptions(nil)
	opts.Region = ""
	opts.Simulated = false
	opts.Connect = func(ctx context.Context) (Connection, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return Connection{}, ctx.Err()
		}
		return Connection{Backend: b, Simulated: true, Profile: "demo", Region: "us-west-2", Notice: "A notice, said once.",
			Now: func() time.Time { return testNow }}, nil
	}
	s := newScreen(t, New(opts), 160, 48)
	first := s.WaitText("connecting")
	if strings.Contains(first, "SIMULATED") || strings.Contains(first, "LIVE") {
		t.Errorf("a mode is claimed before the backend is open:\n%s", first)
	}
	s.Press("enter")
	s.WaitText("Still connecting")
	close(release)
	s.WaitText("123456789012")
	s.WaitText("A notice, said once.")
	s.Press("enter")
	if found := s.FoundCount(); found == 0 {
		t.Error("the search after connecting found nothing")
	}
	m := final(s)
	if got := m.search().Query().Regions; len(got) != 1 || got[0] != "us-west-2" {
		t.Errorf("searched %v, want the connection's region us-west-2", got)
	}
	if !m.pc.Simulated || m.opts.Profile != "demo" || m.Err() != nil {
		t.Errorf("after connecting: simulated=%v profile=%q err=%v", m.pc.Simulated, m.opts.Profile, m.Err())
	}
}

// The accessible mode draws its panes, dialogs and charts without drawing characters of
// their own (not only through the frame's safety net), says the focused row and the chart
// in sentences, and turns no spinner.
func TestAccessibleSearchScreen(t *testing.T) {
	opts := testOptions(nil)
	opts.Accessible = true
	m := New(opts)
	if m.spinTick() != nil {
		t.Error("the accessible mode would turn the spinner")
	}
	m = update(m, tea.WindowSizeMsg{Width: 140, Height: 40})
	offs := uitest.SyntheticOfferings(9)
	m = withResults(m, offs)
	raw := ansi.Strip(m.render())
	if strings.ContainsFunc(raw, a11y.IsGraphic) {
		t.Errorf("the search screen draws drawing characters of its own:\n%s", raw)
	}
	for _, want := range []string{"Offerings · 1 of 9", "(focused)", "row 1 of 9: ", "upfront fee $", "> "} {
		if !strings.Contains(raw, want) {
			t.Errorf("the screen lacks %q:\n%s", want, raw)
		}
	}
	m = update(m, uitest.Key("v"))
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "Break-even chart: the block's upfront fee is $") {
		t.Errorf("the chart is not said in a sentence:\n%s", view)
	}
	m = update(m, uitest.Key("?"))
	raw = ansi.Strip(m.render())
	if m.dialog == nil || strings.ContainsFunc(raw, a11y.IsGraphic) {
		t.Errorf("help (open %v) draws drawing characters:\n%s", m.dialog != nil, raw)
	}
}

// Help lists ctrl+s with the offerings' keys; while a text field takes the keys, ctrl+s
// does not export.
func TestExportKeyInHelpNotWhileTyping(t *testing.T) {
	m := New(testOptions(nil))
	listed := false
	for _, g := range m.helpKeys().groups {
		for _, k := range g.Keys {
			if g.Title == "Offerings and detail" && k.Help().Key == "ctrl+s" {
				listed = true
			}
		}
	}
	if !listed {
		t.Error("help does not list ctrl+s under Offerings and detail")
	}

	dir := t.TempDir()
	t.Chdir(dir)
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	s := newScreen(t, New(testOptions(b)), 160, 48)
	s.WaitText("123456789012")
	s.Press("enter")
	if s.FoundCount() == 0 {
		t.Fatal("the default search found nothing")
	}
	s.Press("/", "ctrl+s", "esc", "ctrl+s")
	s.WaitText("Wrote")
	m = final(s)
	if files, _ := filepath.Glob(filepath.Join(dir, "*.csv")); len(files) != 1 {
		t.Errorf("the directory holds %q; want the one file of the ctrl+s after the filter closed", files)
	}
}

// A type one source does not sell searches the other, and the status line says which
// source was skipped and why, in the words the command line prints on stderr.
func TestSkippedSourceIsSaidOnTheStatusLine(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(New(testOptions(b)), tea.WindowSizeMsg{Width: 200, Height: 48})
	q := model.Query{Sources: []model.Source{model.SourceCapacityBlock, model.SourceTrainingPlan}, InstanceTypes: []string{"ml.p6e-gb200.36xlarge"},
		Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2}, Start: testNow, End: testNow.AddDate(0, 0, 14), Regions: []string{"us-east-1"}}
	m, id := startedSearch(m, func(s searchscreen.Model, _ uiscreen.Frame) (searchscreen.Model, tea.Cmd) { return s.StartSearch(q) })
	var evs []source.SearchEvent
	for ev := range b.Search(context.Background(), q) {
		evs = append(evs, ev)
	}
	if len(evs) == 0 || len(evs[0].Skips) != 1 || evs[0].Skips[0].Source != model.SourceCapacityBlock {
		t.Fatalf("the first event does not name the blocks as skipped: %+v", evs)
	}
	m = update(m, searchscreen.EventsMsg{ID: id, Events: evs, Closed: true})
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "EC2 Capacity Blocks not searched: Capacity Blocks do not sell p6e-gb200.36xlarge") {
		t.Errorf("the status line does not say the blocks were skipped:\n%s", v)
	}
	// The region's line says how its search ended: not an error, not still searching.
	if v := ansi.Strip(m.View().Content); !regexp.MustCompile(`us-east-1 +(ok \d+|empty|throttled|cancelled)\b`).MatchString(v) {
		t.Errorf("the plans were not searched alone:\n%s", v)
	}
}

// A purchase dialog open when its rows are replaced (a new search's first offerings) is
// closed, saying why; an offering picked before a new search started opens nothing.
func TestPurchaseClosesWhenItsRowsAreReplaced(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := update(withResults(New(testOptions(b)), uitest.SyntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	o, _ := m.search().Table().Selected()
	rows := m.search().Rows()
	m = update(m, uiscreen.OpenPurchase{Offering: o, FromRows: true, Rows: rows})
	if _, ok := m.dialog.(purchase.Model); !ok {
		t.Fatalf("the purchase did not open: dialog %T, flash %q", m.dialog, m.flash)
	}
	mm, _ := m.startSearch(m.search().Query())
	m = mm.(Model)
	if m.dialog != nil || !strings.Contains(m.flash, "Closed the purchase dialog: The search was run again") {
		t.Fatalf("the dialog stayed over the new search: dialog %T, flash %q", m.dialog, m.flash)
	}
	// The message of a key pressed before the search started arrives after it.
	m = update(m, uiscreen.OpenPurchase{Offering: o, FromRows: true, Rows: rows})
	if m.dialog != nil || !strings.Contains(m.flash, "The search was run again") {
		t.Fatalf("a purchase opened on replaced rows: dialog %T, flash %q", m.dialog, m.flash)
	}
}

// A backend connected after the first frame (Options.Connect) is the one the advisor
// searches with.
func TestAdvisorScreenAfterConnect(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	opts := testOptions(nil)
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	m.pc.Backend = b // as onConnected does
	m = pressAdvisor(t, m, uitest.AltKey('3'))
	m = pressAdvisor(t, m, uitest.Key("enter"))
	plain := ansi.Strip(m.View().Content)
	if strings.Contains(plain, "Not connected") || !strings.Contains(plain, "searched: ") || strings.Contains(plain, "searched: 0 offerings") {
		t.Errorf("the advisor did not search the connected backend:\n%s", plain)
	}
}

// --screen report opens the program on the report screen, which reads at once.
func TestReportScreenAtStart(t *testing.T) {
	b := &uitest.ReportBackend{In: uitest.ReportInput()}
	opts := testOptions(b)
	opts.StartOnReport = true
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 40})
	if m.screen != screenReport || m.start == nil {
		t.Fatalf("started on screen %d with no read asked (%v)", m.screen, m.start == nil)
	}
	m = update(m, m.start())
	if view := ansi.Strip(m.View().Content); !strings.Contains(view, "cr-0123456789abcdef0") || b.Reads() != 1 {
		t.Errorf("%d reads; the report is not shown:\n%s", b.Reads(), view)
	}
}

// A report screen shown before the backend is connected reads once it is.
func TestReportScreenReadsOnceConnected(t *testing.T) {
	opts := testOptions(nil)
	opts.Connect = func(context.Context) (Connection, error) { return Connection{}, nil }
	m := update(New(opts), tea.WindowSizeMsg{Width: 120, Height: 40}, uitest.Key("4"))
	if m.Inspect().Report.Busy() || !strings.Contains(ansi.Strip(m.View().Content), "Not connected") {
		t.Fatalf("before connecting:\n%s", ansi.Strip(m.View().Content))
	}
	b := &uitest.ReportBackend{In: uitest.ReportInput()}
	mm, _ := m.Update(connectedMsg{c: Connection{Backend: b, Region: "us-east-1"}})
	if !mm.(Model).Inspect().Report.Busy() {
		t.Error("the report screen did not start reading once connected")
	}
}

// Once connected, every screen is told at once: the blocks screen lists (the header counts
// its warnings on every screen) while the search screen is shown; a failed connection is
// told to the blocks and search screens, which say so.
func TestEveryScreenToldOfTheConnection(t *testing.T) {
	opts := testOptions(nil)
	opts.Connect = func(context.Context) (Connection, error) { return Connection{}, nil }
	m := update(New(opts), tea.WindowSizeMsg{Width: 120, Height: 40})
	if m.Inspect().Blocks.Busy() {
		t.Fatal("the blocks screen lists before the backend is there")
	}
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	mm, _ := m.Update(connectedMsg{c: Connection{Backend: b, Region: "us-east-1"}})
	if got := mm.(Model); got.Inspect().Screen != Search || !got.Inspect().Blocks.Busy() {
		t.Errorf("once connected, on the %s screen, the blocks screen is not listing", got.Inspect().Screen)
	}
	failed := update(m, connectedMsg{err: errors.New("no credentials anywhere")}, uitest.AltKey('2'))
	if v := ansi.Strip(failed.View().Content); failed.Inspect().Screen != Blocks || !strings.Contains(v, "no credentials anywhere") {
		t.Errorf("the blocks screen does not say why it is not connected:\n%s", v)
	}
}

// The root's minute is told to every screen: the blocks screen shows the new time, which
// comes in the tick (not from a clock of its own), and the warnings due by then are delivered.
func TestMinuteToldToTheBlocksScreen(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	notified := make(chan string, 16)
	opts.Notify = func(_ context.Context, b model.Block, w model.Warning, _ time.Time) []string {
		notified <- w.Key(b)
		return nil
	}
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	// Its first warning (extend by, a day ahead) is due 30 s into the next minute.
	b := model.Block{ReservationID: "cr-1", Region: "us-east-1", State: model.StateScheduled, TotalCount: 1,
		Start: testNow.Add(time.Hour), End: testNow.Add(24*time.Hour + 30*time.Second)}
	rules := model.DefaultWarnRules()
	if len(rules.Warnings(b, testNow)) != 0 || len(rules.Warnings(b, testNow.Add(time.Minute))) == 0 {
		t.Fatal("the block does not start warning within the minute")
	}
	m = update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Blocks: []model.Block{b}, Now: testNow}})
	now = now.Add(time.Minute)
	mm, cmd := m.Update(clockMsg(now))
	if got := mm.(Model).blocks().Now(); !got.Equal(now) {
		t.Errorf("the blocks screen shows %v after the minute, want %v", got, now)
	}
	// The tick's own command waits for the next minute: every command is run on its own
	// (a batch's too), and those that answer soon are read.
	var run func(c tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			if batch, ok := c().(tea.BatchMsg); ok {
				for _, c := range batch {
					run(c)
				}
			}
		}()
	}
	run(cmd)
	select {
	case k := <-notified:
		if !strings.HasPrefix(k, "cr-1/extend-by/") {
			t.Errorf("delivered %q on the minute, want the block's extend-by warning", k)
		}
	case <-time.After(10 * time.Second): // bounds a hang only
		t.Fatal("the warning due by the minute was not delivered")
	}
}

// The time every screen shows is the root's, read from the program's clock: a screen's
// countdown asks for it (NowMsg), and a listing that sets the clock to the backend's moves
// it before the next frame.
func TestTimeShownIsTheRoots(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	now = now.Add(90 * time.Second)
	m = update(m, uiscreen.NowMsg{})
	if !m.clock.Equal(now) || !m.blocks().Now().Equal(now) {
		t.Errorf("after NowMsg: the root shows %v, the blocks screen %v, want %v", m.clock, m.blocks().Now(), now)
	}
	moved := testNow.Add(5 * time.Hour) // the emulator's clock was moved
	m = update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Now: moved}})
	if !m.clock.Equal(moved) || !m.blocks().Now().Equal(moved) {
		t.Errorf("after a listing at %v: the root shows %v, the blocks screen %v", moved, m.clock, m.blocks().Now())
	}
	if head := strings.SplitN(ansi.Strip(m.View().Content), "\n", 2)[0]; !strings.Contains(head, moved.Format("15:04")) {
		t.Errorf("the header does not show the backend's %s: %q", moved.Format("15:04"), head)
	}
}

// What a dialog bought is told to every screen: the search runs its search again and the
// blocks screen lists every region again.
func TestEveryScreenToldOfAChange(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	m := withResults(New(testOptions(b)), uitest.SyntheticOfferings(5))
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, blocksMsg{ID: m.blocks().ListingID(), List: source.BlockList{Now: testNow}})
	if m.search().Busy() || m.blocks().Busy() {
		t.Fatalf("before the change: search busy %v, blocks busy %v", m.search().Busy(), m.blocks().Busy())
	}
	m = update(m, rootMsg{Refresh: true})
	if !m.search().Busy() || !m.blocks().Busy() {
		t.Errorf("after a purchase: search busy %v, blocks busy %v, want both reading again", m.search().Busy(), m.blocks().Busy())
	}
}
