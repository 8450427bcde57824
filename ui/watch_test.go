package ui

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
)

// round runs one watch round on m as the backend would answer it with offs, without a
// backend: the timer's tick, then the stream.
func round(t *testing.T, m Model, offs []model.Offering) Model {
	t.Helper()
	m = update(m, watchTickMsg{Gen: m.search().WatchGen()})
	if !m.search().Running() || !m.search().Round() {
		t.Fatalf("the watch's tick started no round (running %v, round %v, flash %q)", m.search().Running(), m.search().Round(), m.flash)
	}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	events = append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
	return update(m, searchEventsMsg{ID: m.search().SearchID(), Events: events, Closed: true})
}

func view(m Model) string { return ansi.Strip(m.View().Content) }

func headerLine(m Model) string { return strings.SplitN(view(m), "\n", 2)[0] }

// w watches the last search: not before there is one, not from a text field; the header says
// when the next round runs, and w again stops it.
func TestWatchToggle(t *testing.T) {
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m := update(base, keyMsg("shift+tab"), keyMsg("shift+tab"), keyMsg("w")) // the source, then the detail pane
	if m.search().Watching() || !strings.Contains(m.flash, "Nothing to watch yet") {
		t.Errorf("w before any search: on=%v flash %q", m.search().Watching(), m.flash)
	}

	m = withResults(base, syntheticOfferings(50))
	// In the duration field w is a letter, and in the table's filter too.
	typed := update(m, keyMsg("shift+tab"), keyMsg("shift+tab"), keyMsg("w"))
	if typed.search().Watching() || !typed.search().Form().Typing() || typed.search().Form().Focus() != searchform.Duration {
		t.Errorf("w in the duration field watched (on=%v, typing=%v)", typed.search().Watching(), typed.search().Form().Typing())
	}
	filtered := update(m, keyMsg("/"), keyMsg("w"))
	if filtered.search().Watching() || filtered.search().Table().FilterText() != "w" {
		t.Errorf("w in the filter: on=%v filter %q", filtered.search().Watching(), filtered.search().Table().FilterText())
	}

	m = update(m, keyMsg("w"))
	if !m.search().Watching() || len(m.search().Seen()) != 50 {
		t.Fatalf("w: on=%v, %d offerings seen; want on, the search's 50", m.search().Watching(), len(m.search().Seen()))
	}
	if h := headerLine(m); !strings.Contains(h, "watching · next 09:05 UTC") {
		t.Errorf("the header does not say the watch is on and when it runs next: %q", h)
	}
	if !strings.Contains(view(m), "Watching this search: it runs again every 5m") {
		t.Errorf("no word of the watch under the panes:\n%s", view(m))
	}
	narrow := update(m, tea.WindowSizeMsg{Width: 60, Height: 16})
	if h := headerLine(narrow); !strings.Contains(h, "watch 09:05") {
		t.Errorf("the narrow header drops the watch: %q", h)
	}
	gen := m.search().WatchGen()
	m = update(m, keyMsg("w"))
	if m.search().Watching() || strings.Contains(headerLine(m), "watch") || !strings.Contains(m.flash, "Stopped watching") {
		t.Errorf("w again: on=%v header %q flash %q", m.search().Watching(), headerLine(m), m.flash)
	}
	// The timer set before stopping finds nothing to do.
	if m = update(m, watchTickMsg{Gen: gen}); m.search().Running() {
		t.Error("a round ran after the watch stopped")
	}
}

// A round keeps the sort, the filter, the cursor and the marks on the offerings still
// offered, counts what is new, and says so in the table's title, the detail and the
// status line.
func TestWatchRoundKeepsCursorAndMarks(t *testing.T) {
	offs := syntheticOfferings(300)
	m := withResults(New(testOptions(nil)), offs[:200])
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48}, keyMsg("F"))
	m = update(m, keyMsg("m"), keyMsg("j"), keyMsg("j"), keyMsg("m"))
	for range 37 {
		m = update(m, keyMsg("j"))
	}
	sel, _ := m.search().Table().Selected()
	marked := m.search().Table().Marked()
	m = update(m, keyMsg("w"))

	// The next answer: 21 offerings gone (the first marked one among them), 100 new ones,
	// in another order.
	gone := map[string]bool{marked[0].Offering.ID: true}
	for _, o := range offs[:200] {
		if len(gone) < 21 && o.ID != sel.ID && o.ID != marked[1].Offering.ID {
			gone[o.ID] = true
		}
	}
	var next []model.Offering
	for i := len(offs) - 1; i >= 0; i-- {
		if !gone[offs[i].ID] {
			next = append(next, offs[i])
		}
	}
	next = append(next, sel) // an offering answered twice is one row
	m = round(t, m, next)

	if got, _ := m.search().Table().Selected(); got.ID != sel.ID {
		t.Errorf("the cursor moved from %s to %s", sel.ID, got.ID)
	}
	if col, desc := m.search().Table().Sort(); col != offerings.ColFee || desc {
		t.Errorf("sort %v desc %v, want by fee ascending as before", col, desc)
	}
	if got := m.search().Table().Marked(); len(got) != 1 || got[0].Offering.ID != marked[1].Offering.ID {
		t.Errorf("marks after the round %v, want only %s (the other is gone)", got, marked[1].Offering.ID)
	}
	if m.search().Table().Len() != len(next)-1 || m.search().Round() && m.search().Running() {
		t.Errorf("the table holds %d rows, want %d; round still running: %v", m.search().Table().Len(), len(next)-1, m.search().Running())
	}
	if n := len(m.search().Fresh()); n != 100 {
		t.Fatalf("%d new offerings, want 100", n)
	}
	v := view(m)
	if !strings.Contains(v, "· 100 new") {
		t.Errorf("the table's title does not count the new offerings:\n%s", v)
	}
	if !strings.Contains(m.flash, "Watch: 100 new") || !strings.Contains(m.flash, "since 09:00 UTC") {
		t.Errorf("flash %q", m.flash)
	}
	// The detail of a new offering says so.
	for i := 0; i < m.search().Table().Visible(); i++ {
		if m.search().Table().Row(i).ID == offs[250].ID {
			m = update(m, keyMsg("g"))
			for range i {
				m = update(m, keyMsg("j"))
			}
		}
	}
	if !m.selectedIsFresh() || !strings.Contains(view(m), "· NEW") {
		t.Errorf("the detail of a new offering is not marked NEW:\n%s", view(m))
	}
	m = update(m, keyMsg("esc")) // esc does not stop the watch, nor, later, a round
	if !m.search().Watching() {
		t.Error("esc stopped the watch")
	}
	if !strings.Contains(view(m), "Watch round 1 at 09:00 UTC: 100 new") {
		t.Errorf("the status line does not tell the round's news:\n%s", view(m))
	}

	// The same answer again: nothing new.
	m = round(t, m, next)
	if len(m.search().Fresh()) != 0 || m.freshCount() != 0 || !strings.Contains(view(m), "Watch round 2 at 09:00 UTC: nothing new since 09:00 UTC") {
		t.Errorf("a second round of the same answer: %d new\n%s", len(m.search().Fresh()), view(m))
	}
	// An offering that sold out and came back under its id is not news.
	m = round(t, m, next[1:])
	m = round(t, m, next)
	if len(m.search().Fresh()) != 0 {
		t.Errorf("an offering that came back was new again: %v", m.search().Fresh())
	}

	// Everything sold: the table empties and the alternatives are looked for, once.
	m = round(t, m, nil)
	if m.search().Table().Len() != 0 || !m.search().AlternativesLoading() || !strings.Contains(view(m), "No offerings for") {
		t.Errorf("a round that found nothing: %d rows, alternatives loading %v\n%s", m.search().Table().Len(), m.search().AlternativesLoading(), view(m))
	}
	id := m.search().ExtraID()
	if m = round(t, m, nil); m.search().ExtraID() != id {
		t.Error("a second empty round looked for the alternatives again")
	}
}

// w during a round stops it: the search before it is shown, and its late answer is dropped.
func TestWatchStopDuringRound(t *testing.T) {
	offs := syntheticOfferings(40)
	m := withResults(New(testOptions(nil)), offs[:20])
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48}, keyMsg("w"), keyMsg("d"))
	m = update(m, watchTickMsg{Gen: m.search().WatchGen()})
	roundID := m.search().SearchID()
	if !strings.Contains(headerLine(m), "watching · searching…") {
		t.Errorf("header during a round: %q", headerLine(m))
	}
	if !strings.Contains(view(m), "Watch round: searching again") {
		t.Errorf("the status line does not say a round runs:\n%s", view(m))
	}
	m = update(m, keyMsg("esc")) // from the detail back to the results
	if !m.search().Running() || m.search().Focus() != paneResults {
		t.Fatalf("esc cancelled the watch's round (running %v, focus %d)", m.search().Running(), m.search().Focus())
	}
	m = update(m, keyMsg("w"))
	if m.search().Watching() || m.search().Running() || m.search().Round() || m.search().Found() != 20 {
		t.Fatalf("after w: on=%v running=%v round=%v found=%d", m.search().Watching(), m.search().Running(), m.search().Round(), m.search().Found())
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 40}
	m = update(m, searchEventsMsg{ID: roundID, Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	if m.search().Table().Len() != 20 || m.search().Found() != 20 {
		t.Errorf("the stopped round's answer reached the table: %d rows, found %d", m.search().Table().Len(), m.search().Found())
	}
}

// Each round reads the search's relative dates again; a search started while watching is
// the one watched from then on, and its own answer rings nothing.
func TestWatchRelativeDatesAndNewSearch(t *testing.T) {
	now := testNow
	opts := testOptions(nil)
	opts.Now = func() time.Time { return now }
	opts.WatchEvery = time.Hour
	m := update(New(opts), tea.WindowSizeMsg{Width: 160, Height: 48})
	m = withResults(m, syntheticOfferings(10)) // the default form: now → +4w
	m = update(m, keyMsg("w"))
	if !strings.Contains(headerLine(m), "next 10:00 UTC") {
		t.Errorf("header %q, want the next round an hour on", headerLine(m))
	}
	now = now.Add(3 * time.Hour)
	m = update(m, watchTickMsg{Gen: m.search().WatchGen()})
	if q := m.search().Query(); !q.Start.Equal(now) || !q.End.Equal(now.AddDate(0, 0, 28)) {
		t.Errorf("the round searches %s → %s, want %s → +4w", q.Start, q.End, now)
	}

	// A new search in the middle of a round (submit, which needs a backend, ends so): the
	// round is dropped, the watch stays on the new search and takes its answer as seen.
	q, _ := m.search().Form().Query()
	mm, _ := m.startFormSearch(q)
	m = mm.(Model)
	if !m.search().Watching() || m.search().Round() || !m.search().Running() || !m.search().WatchNext().IsZero() {
		t.Fatalf("r while watching: on=%v round=%v running=%v next=%v", m.search().Watching(), m.search().Round(), m.search().Running(), m.search().WatchNext())
	}
	offs := syntheticOfferings(30)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: 30}
	m = update(m, searchEventsMsg{ID: m.search().SearchID(), Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	if len(m.search().Seen()) != 30 || m.freshCount() != 0 || m.search().WatchNext().IsZero() {
		t.Errorf("after the new search: %d seen, %d new, next %v", len(m.search().Seen()), m.freshCount(), m.search().WatchNext())
	}
	// A search whose window has passed stops the watch: ui/screen/search's
	// TestWatchStopsOnAPastWindow.
}

// watchStates are the watch's states for the sizes test. Each is built from a search of its
// own: a round's rows replace the table's in the arrays its copies share.
func watchStates(base Model) map[string]Model {
	watching := func() Model { return update(withResults(base, syntheticOfferings(500)), keyMsg("w")) }
	running := func() Model {
		m := watching()
		return update(m, watchTickMsg{Gen: m.search().WatchGen()})
	}
	m := running()
	offs := syntheticOfferings(520)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	news := update(m, searchEventsMsg{ID: m.search().SearchID(), Events: []source.SearchEvent{{Offerings: offs, Status: &st}}, Closed: true})
	return map[string]Model{
		"watching":          watching(),
		"watch round":       running(),
		"watch news":        news,
		"watch news detail": update(news, keyMsg("G"), keyMsg("d")),
	}
}

var watchRoundRE = regexp.MustCompile(`Watch round (\d+) at`)

// waitRound waits for the status line to tell of a round after round n, and returns its
// number and the screen.
func waitRound(s *screen, n int) (int, string) {
	s.t.Helper()
	var got int
	text := s.waitFor("watch round "+strconv.Itoa(n+1), func(text string) bool {
		m := watchRoundRE.FindStringSubmatch(text)
		if m == nil {
			return false
		}
		got, _ = strconv.Atoi(m[1])
		return got > n
	})
	return got, text
}

// Against the emulator: a watch over every region selling p5.48xlarge, one of them down.
// When it comes back, the next round finds its offerings, and only those ring, once, with
// the words of the notification; the rounds after find nothing new and ring nothing. Nothing
// is bought.
func TestWatchRingsOnceForNewOfferings(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-west-2"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := newScreen(t, New(opts), 160, 48)
	s.waitText("123456789012")
	s.press("tab", "tab", "tab", "tab", "tab", "a", "enter")
	before := foundCount(t, s)
	s.waitText("1 region failed")
	s.press("w")
	text := s.waitText("watching")
	s.press("x") // no key: it clears the answer to w, so the status line tells the rounds
	if !regexp.MustCompile(`watching · (next \d\d:\d\d UTC|searching…)`).MatchString(text) {
		t.Errorf("the header does not say when the watch runs next:\n%s", text)
	}
	n, text := waitRound(s, 0)
	if !strings.Contains(text, "nothing new") {
		t.Errorf("a round of the same answer found news:\n%s", text)
	}
	sim.SetFaults(ec2sim.Faults{})
	s.waitRaw("the notification", func(raw []byte) bool { return bytes.Contains(raw, []byte(osc9)) })
	s.press("x")
	// The round that rang, or one after it; then two more, which ring nothing.
	n, _ = waitRound(s, n)
	n, _ = waitRound(s, n)
	waitRound(s, n)
	m := s.final()

	if got := bytes.Count(s.raw, []byte(osc9)); got != 1 {
		t.Errorf("%d desktop notifications, want 1", got)
	}
	if got := bytes.Count(s.raw, []byte{'\a', '\x1b', ']', '9'}); got != 1 {
		t.Errorf("%d bells before a notification, want 1", got)
	}
	var west []model.Offering
	for i := 0; i < m.search().Table().Len(); i++ {
		if o := m.search().Table().Row(i); o.Region == "us-west-2" {
			west = append(west, o)
		}
	}
	if len(west) == 0 || m.search().Table().Len() != before+len(west) {
		t.Fatalf("after the region came back: %d rows, %d of them us-west-2's; before it %d", m.search().Table().Len(), len(west), before)
	}
	low := west[0].Fee
	for _, o := range west {
		if o.Fee.Cmp(low) < 0 {
			low = o.Fee
		}
	}
	want := "gpublock: " + strconv.Itoa(len(west)) + " new p5.48xlarge offerings in us-west-2 (from " + low.Dollars() + ")"
	if !bytes.Contains(s.raw, []byte(osc9+want)) {
		i := bytes.Index(s.raw, []byte(osc9))
		t.Errorf("the notification is not %q: %q", want, s.raw[i:min(len(s.raw), i+120)])
	}
	if !m.search().Watching() || m.search().WatchRounds() < 3 {
		t.Errorf("watch on=%v after %d rounds", m.search().Watching(), m.search().WatchRounds())
	}
	list, err := b.Blocks(context.Background(), model.RegionsSelling("p5.48xlarge"))
	if err != nil || len(list.Blocks) != 0 {
		t.Errorf("the watch left %d blocks (err %v); it must buy nothing", len(list.Blocks), err)
	}
}

// With notifications off (n, on the search screen too) a round's news is shown, silently.
func TestWatchNotificationsOff(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{Down: []string{"us-east-1"}})
	opts := testOptions(b)
	opts.WatchEvery = 20 * time.Millisecond
	s := newScreen(t, New(opts), 160, 48)
	s.waitText("SIMULATED")
	s.press("enter")
	s.waitText("failed in every region")
	s.press("n", "w")
	s.waitText("notifications are off")
	sim.SetFaults(ec2sim.Faults{})
	text := s.waitText("new p5.48xlarge offering")
	m := s.final()
	if m.search().Table().Len() == 0 || !strings.Contains(text, "Offerings · ") {
		t.Errorf("the round's offerings are not in the table:\n%s", text)
	}
	if bytes.Contains(s.raw, []byte(osc9)) || bytes.Count(s.raw, []byte{'\a'}) > bytes.Count(s.raw, []byte("\x1b]")) {
		t.Error("a bell or a notification with notifications off")
	}
}
