package search

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

var testNow = uitest.Now

func press(m Model, k string) (Model, tea.Cmd) { return m.update(uitest.Key(k)) }

func offering(i int) model.Offering {
	start := testNow.AddDate(0, 0, 1+i).Truncate(24 * time.Hour).Add(11*time.Hour + 30*time.Minute)
	return model.Offering{ID: fmt.Sprintf("cb-%d", i), Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", Count: 1, Start: start, End: start.AddDate(0, 0, 2), DurationHours: 48,
		Fee: model.MustMoney(fmt.Sprintf("%d.50", 7000+i)), Currency: "USD", Tenancy: "default"}
}

// startedSearch is the screen with the form's search started and nothing delivered yet.
func startedSearch(t *testing.T, readOnly bool) Model {
	t.Helper()
	m := New(uitest.Context(readOnly), Options{Region: "us-east-1"})
	m.SetArea(screen.Area{Top: 1, Width: 160, Height: 45})
	q, ok := m.form.Query()
	if !ok {
		t.Fatalf("the default form is not a search: %v", m.form.Errors())
	}
	m, _ = m.StartFormSearch(q)
	return m
}

// delivered is m after its search's one region answered offs and the stream closed.
func delivered(m Model, offs []model.Offering) Model {
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	m, _ = m.update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: offs, Status: &st, CallsDone: 1, CallsTotal: 1}}, Closed: true})
	return m
}

// found is the screen after the form's search delivered n offerings, as the stream would.
func found(t *testing.T, readOnly bool, n int) Model {
	t.Helper()
	m := startedSearch(t, readOnly)
	if !m.Busy() || m.focus != PaneResults {
		t.Fatalf("a started search: busy %v, focus %d", m.Busy(), m.focus)
	}
	var offs []model.Offering
	for i := range n {
		offs = append(offs, offering(i))
	}
	m = delivered(m, offs)
	if m.Busy() || m.Table().Len() != n || m.search.found != n {
		t.Fatalf("after the stream: busy %v, %d rows, %d found; want %d", m.Busy(), m.Table().Len(), m.search.found, n)
	}
	return m
}

// The screen's own messages are routed to it whatever screen is shown; others are not.
func TestOwns(t *testing.T) {
	for _, msg := range []tea.Msg{EventsMsg{}, AlternativesMsg{}, ProbeMsg{}, WatchTickMsg{}, exportedMsg{}} {
		if !Owns(msg) {
			t.Errorf("%T is not the screen's", msg)
		}
	}
	for _, msg := range []tea.Msg{tea.KeyPressMsg{}, tea.WindowSizeMsg{}, screen.OpenPurchase{}, screen.OpenCompare{}} {
		if Owns(msg) {
			t.Errorf("%T is taken as the screen's", msg)
		}
	}
}

// An older search's answer is dropped: it answered another question.
func TestOlderSearchDropped(t *testing.T) {
	m := found(t, false, 3)
	m, _ = m.update(EventsMsg{ID: m.search.id - 1, Events: []source.SearchEvent{{Offerings: []model.Offering{offering(9)}}}, Closed: true})
	if m.Table().Len() != 3 {
		t.Errorf("an older search's page was added: %d rows", m.Table().Len())
	}
}

// enter on a row asks the root for the purchase dialog of that row; read-only, enter opens
// the detail and nothing asks to buy.
func TestEnterAsksForThePurchase(t *testing.T) {
	m := found(t, false, 3)
	m, _ = press(m, "j")
	want, _ := m.Table().Selected()
	_, cmd := press(m, "enter")
	if cmd == nil {
		t.Fatal("enter on a row sent nothing")
	}
	if got, ok := cmd().(screen.OpenPurchase); !ok || got.Offering.ID != want.ID {
		t.Errorf("enter asked for %#v, want the purchase of %s", cmd(), want.ID)
	}

	ro := found(t, true, 3)
	ro, cmd = press(ro, "enter")
	if cmd != nil {
		if _, buys := cmd().(screen.OpenPurchase); buys {
			t.Fatal("read-only, enter asked for the purchase dialog")
		}
	}
	if ro.focus != PaneDetail {
		t.Errorf("read-only, enter left the focus on %d; want the detail", ro.focus)
	}
	if ro.KeyMap().Buy.Enabled() || ro.KeyMap().CopyPurchase.Enabled() {
		t.Error("read-only, the keys that buy are offered")
	}
}

// c asks for the compare dialog of the marked offerings; with nothing marked it says how
// to mark and asks for nothing.
func TestCompareAsksForTheDialog(t *testing.T) {
	m := found(t, false, 4)
	m, cmd := press(m, "c")
	if cmd != nil || !strings.Contains(flashText(m), "Nothing marked") {
		t.Fatalf("c with nothing marked: cmd %v, flash %q", cmd != nil, flashText(m))
	}
	m, _ = press(m, "m")
	m, _ = press(m, "j")
	m, _ = press(m, "m")
	_, cmd = press(m, "c")
	if cmd == nil {
		t.Fatal("c with two marked sent nothing")
	}
	got, ok := cmd().(screen.OpenCompare)
	if !ok || len(got.Comparisons) != 2 || got.Comparisons[0].Offering.ID == got.Comparisons[1].Offering.ID {
		t.Fatalf("c asked for %#v; want the compare dialog of the two marked", cmd())
	}
}

// n is the notifications switch where letters are keys, never in a text field or at the
// type list, where a letter is a try at its filter.
func TestTakesNotify(t *testing.T) {
	n := tea.KeyPressMsg{Code: 'n', Text: "n"}
	m := found(t, false, 2)
	if !m.TakesNotify(n) {
		t.Error("n in the results is not the notifications switch")
	}
	if off, _ := press(m, "n"); !off.pc.NotifyOff || !strings.Contains(off.Flash().Apply(""), "Notifications off") {
		t.Errorf("n in the results: switch off %v, says %q", off.pc.NotifyOff, off.Flash().Apply(""))
	}
	if on, _ := press(m, "n"); on.pc.NotifyOff || !strings.Contains(on.Flash().Apply(""), "Notifications on") {
		t.Errorf("n again: switch off %v, says %q", on.pc.NotifyOff, on.Flash().Apply(""))
	}
	fresh := New(uitest.Context(false), Options{Region: "us-east-1"})
	if fresh.focus != PaneForm || fresh.TakesNotify(n) {
		t.Errorf("at the type list (focus %d) n is the notifications switch", fresh.focus)
	}
	filtering, _ := press(m, "/")
	if !filtering.Typing() || filtering.TakesNotify(n) {
		t.Errorf("in the table's filter (typing %v) n is the notifications switch", filtering.Typing())
	}
}

// The footer and help name the screen's keys, and help's groups hold every key the footer
// names with the results focused.
func TestKeysFeedHelp(t *testing.T) {
	km := DefaultKeyMap(false)
	if len(km.ShortHelp()) == 0 || len(km.FullHelp()) < 5 {
		t.Fatalf("short help %d keys, full help %d groups", len(km.ShortHelp()), len(km.FullHelp()))
	}
	m := found(t, false, 2)
	inHelp := map[string]bool{}
	for _, g := range m.KeyGroups() {
		if g.Title == "" {
			t.Errorf("a help group without a title: %v", g.Keys)
		}
		for _, b := range g.Keys {
			inHelp[b.Help().Key+" "+b.Help().Desc] = true
		}
	}
	short := m.shortHelp()
	if !hasKey(short, "enter", "buy…") || !hasKey(short, "w", "watch this search on/off") {
		t.Errorf("the results' footer lacks buy or watch: %v", names(short))
	}
	for _, b := range short {
		// The footer's one word for the sort keys stands for the list help gives.
		if b.Help() == m.Table().KeyMap().SortAny.Help() {
			continue
		}
		if !inHelp[b.Help().Key+" "+b.Help().Desc] {
			t.Errorf("the footer names %q, which help does not", b.Help().Key)
		}
	}
}

// esc cancels the running search, which is busy until its stream closes; its regions
// without an answer are then cancelled, not empty.
func TestEscCancels(t *testing.T) {
	m := New(uitest.Context(false), Options{Region: "us-east-1"})
	q, _ := m.form.Query()
	m, _ = m.StartFormSearch(q)
	m, _ = press(m, "esc")
	if !m.search.cancelled {
		t.Fatal("esc while searching did not cancel it")
	}
	m, _ = m.update(EventsMsg{ID: m.search.id, Closed: true})
	st, ok := m.search.status["us-east-1"]
	if m.Busy() || !ok || st.State != model.RegionCancelled {
		t.Errorf("after the stream closed: busy %v, us-east-1 %v (known %v)", m.Busy(), st.State, ok)
	}
}

// Without a backend the form's search is not sent, and the screen says why.
func TestSubmitWithoutBackend(t *testing.T) {
	m := New(uitest.Context(false), Options{Region: "us-east-1"})
	m, cmd := m.submit()
	if cmd != nil || m.search.has || !strings.Contains(flashText(m), "Not connected") {
		t.Errorf("submit without a backend: cmd %v, searched %v, flash %q", cmd != nil, m.search.has, flashText(m))
	}
	m = m.SetConnection(true, nil)
	m, _ = m.submit()
	if m.search.has || !strings.Contains(flashText(m), "Still connecting") {
		t.Errorf("submit while connecting: searched %v, flash %q", m.search.has, flashText(m))
	}
}

func flashText(m Model) string { return m.Flash().Apply("") }

func hasKey(bs []key.Binding, k, desc string) bool {
	for _, b := range bs {
		if b.Help().Key == k && b.Help().Desc == desc {
			return true
		}
	}
	return false
}

func names(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return out
}

// An offering whose start has passed is not for sale: the clock's tick (Revalidate) takes
// it off the table, and buy on a row that started between two ticks says so and opens no
// purchase.
func TestStartedOfferingsGoAndCannotBeBought(t *testing.T) {
	now := testNow
	m := found(t, false, 3)
	m.pc = &program.Context{Ctx: context.Background(), Theme: theme.New(false), Clock: program.NewClock(func() time.Time { return now }),
		Location: time.UTC, Width: 160, Height: 48}
	first := m.Table().Row(0)

	// Between ticks: the first offering has started, the table still holds it.
	now = first.Start.Add(time.Minute)
	if !m.table.Select(first.ID) {
		t.Fatal("the first offering is not on the table")
	}
	m, cmd := press(m, "enter")
	if cmd != nil {
		if _, open := cmd().(screen.OpenPurchase); open {
			t.Fatal("buy on a started offering opened the purchase dialog")
		}
	}
	if f := flashText(m); !strings.Contains(f, "started at") || !strings.Contains(f, "nothing was bought") {
		t.Fatalf("flash %q", f)
	}

	// The tick takes it off; the others stay and can be bought.
	m = m.Revalidate()
	if m.Table().Len() != 2 {
		t.Fatalf("%d rows after the tick, want 2", m.Table().Len())
	}
	if line := ansi.Strip(m.progressLine(160)); !strings.Contains(line, "Found 3 offerings") || !strings.Contains(line, "1 started since and left the table") {
		t.Fatalf("progress line %q", line)
	}
	for id := range m.Table().IDs() {
		if id == first.ID {
			t.Fatal("the started offering is still on the table")
		}
	}
	if o, ok := m.Table().Selected(); !ok || !o.Start.After(now) {
		t.Fatalf("selected %+v", o)
	}
	_, cmd = press(m, "enter")
	if cmd == nil {
		t.Fatal("buy on an offering yet to start did nothing")
	}
	if _, open := cmd().(screen.OpenPurchase); !open {
		t.Fatal("buy on an offering yet to start did not open the purchase")
	}
}

// shown is the screen as the root shows it in a w×h terminal: under a one-line header,
// over the status line, which says the last key's flash, or else the screen's own line.
type shown struct {
	Model
	flash string
}

// newShown is the screen of a program started with opts, in a w×h terminal, whose clock
// reads now.
func newShown(opts Options, now func() time.Time, w, h int) shown {
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false), Simulated: true,
		Clock: program.NewClock(now), Location: uitest.Loc}
	if opts.Region == "" {
		opts.Region = "us-east-1"
	}
	return shown{Model: New(pc, opts)}.resize(w, h)
}

// unsized is newShown with the tests' fixed clock and the default options, before the
// terminal's first size.
func unsized() shown { return newShown(Options{}, func() time.Time { return uitest.Now }, 0, 0) }

// resize is the terminal resized to w×h, as the root gives the screen its body.
func (s shown) resize(w, h int) shown {
	s.pc.Width, s.pc.Height = w, h
	if w > 0 {
		s.SetArea(screen.Area{Top: 1, Width: w, Height: h - 2})
	}
	return s
}

// update gives the screen msgs as the root would: a key clears the flash before it.
func (s shown) update(msgs ...tea.Msg) shown {
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case tea.WindowSizeMsg:
			s = s.resize(msg.Width, msg.Height)
			continue
		case tea.KeyPressMsg:
			s.flash = ""
		}
		s.Model, _ = s.Model.update(msg)
		s.SetNow(s.pc.Now())
		s.flash = s.Flash().Apply(s.flash)
	}
	return s
}

// update and keyMsg are the names the program's tests gave these steps.
func update(s shown, msgs ...tea.Msg) shown { return s.update(msgs...) }

var keyMsg = uitest.Key

// startSearch and startFormSearch are a search started, as a key would start it with a
// backend.
func (s shown) startSearch(q model.Query) shown {
	s.flash = ""
	s.Model, _ = s.StartSearch(q)
	s.flash = s.Flash().Apply(s.flash)
	return s
}

func (s shown) startFormSearch(q model.Query) shown {
	s.flash = ""
	s.Model, _ = s.StartFormSearch(q)
	s.flash = s.Flash().Apply(s.flash)
	return s
}

// status is the status line.
func (s shown) status() string {
	if s.flash != "" {
		return s.flash
	}
	return s.StatusLine(s.Typing())
}

// header is the header's word on the watch, as the root draws it.
func (s shown) header() string { return ansi.Strip(s.WatchBadge(s.pc.Width < 80)) }

// view is the screen and its status line, without colour.
func (s shown) view() string { return ansi.Strip(s.render() + "\n" + s.status()) }

// withResults is s after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(s shown, offs []model.Offering) shown {
	q, _ := s.form.Query()
	s = s.startFormSearch(q)
	return s.update(EventsMsg{ID: s.search.id, Events: uitest.SearchEvents(offs), Closed: true})
}
