package blocks

import (
	"context"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

var testNow = uitest.Now

func press(m Model, k string) (Model, tea.Cmd) { return m.update(uitest.Key(k)) }

func listed(t *testing.T, readOnly bool, bs ...model.Block) Model {
	t.Helper()
	m := New(uitest.Context(readOnly), Options{Visible: true})
	m.SetArea(screen.Area{Top: 1, Width: 160, Height: 44})
	m, _ = m.update(ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: bs, Now: testNow}})
	if m.Table().Len() != len(bs) {
		t.Fatalf("the table holds %d blocks of %d", m.Table().Len(), len(bs))
	}
	return m
}

func block(id string, st model.BlockState) model.Block {
	return model.Block{ReservationID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 1, State: st, Start: testNow.Add(-time.Hour), End: testNow.Add(30 * time.Hour)}
}

// The keys that scroll the detail and go between the panes are the blocks screen's, for
// help and the footer: the table's moving keys and tab.
func TestBlocksKeysNameDetailKeys(t *testing.T) {
	km := DefaultKeyMap(false)
	if h := km.Pane.Help(); h.Key != "tab" || !key.Matches(tea.KeyPressMsg{Code: tea.KeyTab}, km.Pane) || !key.Matches(tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}, km.Pane) {
		t.Errorf("the pane key: %+v", h)
	}
	for _, c := range []struct {
		k    tea.KeyPressMsg
		want string
	}{{tea.KeyPressMsg{Code: 'j', Text: "j"}, "scroll"}, {tea.KeyPressMsg{Code: tea.KeyPgDown}, "page"}, {tea.KeyPressMsg{Code: 'G', Text: "G"}, "end"}} {
		found := false
		for _, b := range []key.Binding{km.Scroll.Line, km.Scroll.Page, km.Scroll.Half, km.Scroll.Ends} {
			if key.Matches(c.k, b) && strings.Contains(b.Help().Key+" "+b.Help().Desc, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s is not among the detail's scroll keys, or not named %q", c.k, c.want)
		}
	}
}

// e and l do not open the dialogs themselves: they ask the root, with the selected block;
// a payment-failed block is not extended, and the screen says why at once.
func TestBlocksAskForTheDialogs(t *testing.T) {
	m := listed(t, false, block("cr-active", model.StateActive))
	_, cmd := press(m, "e")
	if cmd == nil {
		t.Fatal("e asked for nothing")
	}
	if got, ok := cmd().(screen.OpenExtend); !ok || got.Block.ReservationID != "cr-active" {
		t.Errorf("e asked for %#v", got)
	}
	_, cmd = press(m, "l")
	if cmd == nil {
		t.Fatal("l asked for nothing")
	}
	if got, ok := cmd().(screen.OpenLaunch); !ok || got.Block.ReservationID != "cr-active" {
		t.Errorf("l asked for %#v", got)
	}

	failed := listed(t, false, block("cr-failed", model.StatePaymentFailed))
	failed, cmd = press(failed, "e")
	if cmd != nil {
		t.Errorf("e on a payment-failed block asked for %v", cmd())
	}
	if got := failed.Flash().Apply(""); !strings.Contains(got, "cr-failed cannot be extended: its payment failed") {
		t.Errorf("e on a payment-failed block says %q", got)
	}

	ro := listed(t, true, block("cr-active", model.StateActive))
	if _, cmd := press(ro, "e"); cmd != nil {
		t.Errorf("read-only: e asked for %v", cmd())
	}
	if _, cmd := press(ro, "l"); cmd != nil {
		t.Errorf("read-only: l asked for %v", cmd())
	}
}

// A listing older than the latest is dropped, and the end of a listing takes back the
// announcement of r, and nothing else the status line says.
func TestBlocksListingAnswers(t *testing.T) {
	m := listed(t, false, block("cr-1", model.StateActive))
	stale := ListedMsg{ID: m.ListingID() - 1, List: source.BlockList{Now: testNow}}
	if m, _ = m.update(stale); m.Table().Len() != 1 {
		t.Errorf("an older listing emptied the table: %d rows", m.Table().Len())
	}
	two := []model.Block{block("cr-1", model.StateActive), block("cr-2", model.StateScheduled)}
	m, _ = m.update(ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: two, Now: testNow}})
	if m.Table().Len() != 2 {
		t.Errorf("the latest listing shows %d rows, want 2", m.Table().Len())
	}
	if got := m.Flash().Apply(RefreshFlash); got != "" {
		t.Errorf("after a listing the line still says %q", got)
	}
	if got := m.Flash().Apply("Copied."); got != "Copied." {
		t.Errorf("a listing took back %q", got)
	}
}

// A block a dialog read replaces its row, or is added; the header's count follows.
func TestBlocksShowAndWarnings(t *testing.T) {
	soon := block("cr-1", model.StateActive)
	soon.End = testNow.Add(2 * time.Hour)
	later := block("cr-0", model.StateScheduled)
	later.Start, later.End = testNow.Add(10*24*time.Hour), testNow.Add(17*24*time.Hour)
	m := listed(t, false, later)
	if n := len(m.Warnings()); n != 0 {
		t.Fatalf("%d warnings for a block starting in 10 days", n)
	}
	m = m.Show(soon)
	if m.Table().Len() != 2 {
		t.Fatalf("a new block was not added: %d rows", m.Table().Len())
	}
	if n := len(m.Warnings()); n != 1 {
		t.Errorf("a block ending in 2 h gives %d warnings, want 1", n)
	}
	soon.State = model.StateExpired
	soon.End = testNow.Add(-time.Hour)
	if m = m.Show(soon); m.Table().Len() != 2 {
		t.Errorf("a block read again was added twice: %d rows", m.Table().Len())
	}
	if n := len(m.Warnings()); n != 0 {
		t.Errorf("an expired block still warns: %d", n)
	}
}

// Only the screen's own messages are its; keys and sizes are the root's to route.
func TestBlocksOwns(t *testing.T) {
	for _, msg := range []tea.Msg{ListedMsg{}, screen.RefreshBlocksMsg{}, OpenedMsg{}, tickMsg{}, timerMsg{}} {
		if !Owns(msg) {
			t.Errorf("%T is not owned", msg)
		}
	}
	for _, msg := range []tea.Msg{tea.KeyPressMsg{}, tea.WindowSizeMsg{}, screen.OpenExtend{}} {
		if Owns(msg) {
			t.Errorf("%T is owned", msg)
		}
	}
}

// The detail pane is named after what is selected: a block, or a training plan.
func TestDetailPaneNamesTheSelection(t *testing.T) {
	plan := block("gpb-1", model.StateScheduled)
	plan.Source, plan.InstanceType, plan.AvailabilityZone = model.SourceTrainingPlan, "ml.p5.48xlarge", ""
	for _, tc := range []struct {
		b         model.Block
		want, not string
	}{
		{block("cr-1", model.StateActive), "─ Block ", "─ Training plan "},
		{plan, "─ Training plan ", "─ Block "},
	} {
		v := listed(t, false, tc.b).render()
		if !strings.Contains(v, tc.want) || strings.Contains(v, tc.not) {
			t.Errorf("%s: the detail pane is not titled %q:\n%s", tc.b.ReservationID, tc.want, v)
		}
	}
}

// On a plan the footer names no launch (a plan is not launched into) and says that y
// copies its ARN; on a block both are as they were.
func TestFooterFollowsTheSelection(t *testing.T) {
	plan := block("gpb-1", model.StateScheduled)
	plan.Source, plan.InstanceType, plan.AvailabilityZone = model.SourceTrainingPlan, "ml.p5.48xlarge", ""
	for _, tc := range []struct {
		b      model.Block
		launch bool
		y      string
	}{
		{block("cr-1", model.StateActive), true, "copy reservation id"},
		{plan, false, "copy the plan's ARN"},
	} {
		m := listed(t, false, tc.b)
		for _, detail := range []bool{false, true} {
			if detail {
				m, _ = m.update(tea.KeyPressMsg{Code: tea.KeyEnter})
			}
			launch, y := false, ""
			for _, k := range m.shortHelp() {
				switch k.Help().Key {
				case "l":
					launch = true
				case "y":
					y = k.Help().Desc
				}
			}
			if launch != tc.launch || y != tc.y {
				t.Errorf("%s (detail %v): footer names l %v and y %q; want %v and %q", tc.b.ReservationID, detail, launch, y, tc.launch, tc.y)
			}
		}
	}
	// The key map itself is unchanged: help lists every key.
	if m := listed(t, false, plan); !m.KeyMap().Launch.Enabled() {
		t.Error("the screen's key map lost launch")
	}
}

// l on a reservation its purchase made with others asks for the launch form with the
// whole group, which the form offers to launch across; on one bought alone, with it alone.
func TestLaunchAsksWithThePurchasesGroup(t *testing.T) {
	a, b, alone := block("cr-a", model.StateActive), block("cr-b", model.StateActive), block("cr-c", model.StateActive)
	b.AvailabilityZone = "us-east-1b"
	a.Tags, b.Tags = map[string]string{model.PurchaseTag: "gpb-1"}, map[string]string{model.PurchaseTag: "gpb-1"}
	m := listed(t, false, a, b, alone)
	_, cmd := press(m, "l")
	got, ok := cmd().(screen.OpenLaunch)
	if !ok || got.Block.ReservationID != "cr-a" || model.GroupIDs(got.Group) != "cr-a,cr-b" {
		t.Fatalf("l on cr-a asked for %#v", got)
	}
	m, _ = m.update(tea.KeyPressMsg{Code: tea.KeyDown})
	m, _ = m.update(tea.KeyPressMsg{Code: tea.KeyDown})
	_, cmd = press(m, "l")
	if got, ok := cmd().(screen.OpenLaunch); !ok || got.Block.ReservationID != "cr-c" || len(got.Group) != 1 {
		t.Fatalf("l on cr-c asked for %#v", got)
	}
}

// Over two fake hours, the visible screen ticks only when a countdown it shows changes
// (each minute for blocks hours away, not each second), and what it shows between its
// ticks is always what a redraw at that moment would show.
func TestCountdownTicksOnlyWhenItChanges(t *testing.T) {
	now := testNow
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false),
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC, Width: 160, Height: 48}
	m := New(pc, Options{Visible: true})
	m.SetArea(screen.Area{Top: 1, Width: 160, Height: 44})
	running := block("cr-running", model.StateActive)
	running.End = testNow.Add(5*time.Hour + 20*time.Minute)
	soon := block("cr-soon", model.StateScheduled)
	soon.Start, soon.End = testNow.Add(3*24*time.Hour), testNow.Add(4*24*time.Hour)
	m, _ = m.update(ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: []model.Block{running, soon}, Now: testNow}})

	ticks := 0
	d, ok := m.NextTick()
	if !ok {
		t.Fatal("no tick with two blocks counting down")
	}
	next := now.Add(d)
	for s := 1; s <= 2*3600; s++ {
		now = testNow.Add(time.Duration(s) * time.Second)
		for !next.After(now) {
			ticks++
			saved := now
			now = next
			// The countdown asks the root for the time; the time comes back in Tick.
			var ask tea.Cmd
			if m, ask = m.update(tickMsg{gen: m.tickGen}); ask == nil || ask() != (screen.NowMsg{}) {
				t.Fatalf("at %v the countdown's tick did not ask for the time", now)
			}
			before := m
			m, _ = m.tick(now)
			if !m.Now().Equal(now) {
				t.Fatalf("ticked at %v, the screen shows %v", now, m.Now())
			}
			if before.render() == m.render() {
				t.Fatalf("at %v the tick changed nothing on screen (the screen's time: %v, before %v)", now, m.Now(), before.Now())
			}
			d, ok = m.NextTick()
			if !ok || d <= 0 {
				t.Fatalf("at %v: next tick in %v", now, d)
			}
			next = now.Add(d)
			now = saved
		}
		if s%17 == 0 {
			if got, want := m.render(), m.SetNow(now).render(); got != want {
				t.Fatalf("at %v the screen drawn at %v is stale:\n%s\nwant:\n%s", now, m.Now(), got, want)
			}
		}
	}
	if ticks < 110 || ticks > 2*60+2 {
		t.Errorf("%d ticks in two hours, want one a minute", ticks)
	}
	// An older tick (before the list changed) is dropped: it schedules nothing.
	if _, cmd := m.update(tickMsg{gen: m.tickGen - 1}); cmd != nil {
		t.Error("a stale tick scheduled another")
	}
	// Nothing listed: no countdown, no tick.
	empty := New(pc, Options{Visible: true})
	empty, _ = empty.update(ListedMsg{ID: empty.ListingID(), List: source.BlockList{Now: now}})
	if _, ok := empty.NextTick(); ok {
		t.Error("a screen with no block ticks")
	}
}
