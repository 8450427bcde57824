package search

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/screen"
)

// defaultWatchEvery is how often a watched search runs again when Options.WatchEvery is 0.
const defaultWatchEvery = 5 * time.Minute

// watch is "watch this search" (w): the last search runs again every so often in the
// background, and the offerings it had never answered before ring the bell and send a
// desktop notification (OSC 9), under the switch of the blocks' warnings (n). A round only
// searches; nothing ever buys from it.
//
// Starting another search while watching moves the watch to that search: its answer is
// what the next rounds are compared with, and it rings nothing itself (it is on screen).
type watch struct {
	on bool
	// seen is every offering id the watched searches answered since the watch began: an
	// offering that sells out and comes back under its id is not news twice.
	seen map[string]bool
	gen  int       // of the pending round's timer; older ticks are dropped
	next time.Time // when the next round runs; zero while a search or a round runs
	last time.Time // when the watched search or the last round ended: "new since" then
	// rounds counts the rounds since the watch began; news is what the last one found.
	rounds int
	news   watchNews
	// prev is the search a running round replaced: the state shown again if the round is
	// dropped (w stops the watch in the middle of it).
	prev search
}

// watchNews is a round's answer, for the status line and the table's title.
type watchNews struct {
	round     int
	at, since time.Time
	fresh     []model.Offering // never answered before
}

// WatchTickMsg is the timer of the watch's round Gen; an older one is dropped.
type WatchTickMsg struct{ Gen int }

func (m Model) watchEvery() time.Duration {
	if m.opts.WatchEvery > 0 {
		return m.opts.WatchEvery
	}
	return defaultWatchEvery
}

// toggleWatch is w: it watches the last search, or stops watching.
func (m Model) toggleWatch() (Model, tea.Cmd) {
	if m.watch.on {
		m = m.stopWatch()
		m.flash = screen.Say("Stopped watching the search.")
		return m, nil
	}
	every := model.FormatInterval(m.watchEvery())
	if !m.search.has {
		m.flash = screen.Say("Nothing to watch yet: search first (enter); then w runs that search again every " + every + ".")
		return m, nil
	}
	m.watch = watch{on: true, seen: map[string]bool{}, gen: m.watch.gen + 1}
	bell := "offerings not seen before ring the bell (n turns notifications off)"
	if m.pc.NotifyOff {
		bell = "notifications are off (n turns them on): new offerings are only shown"
	}
	m.flash = screen.Say(fmt.Sprintf("Watching this search: it runs again every %s; %s · w stops.", every, bell))
	if m.search.running {
		return m, nil // its answer is the watch's start: searchDone takes it
	}
	m, cmd := m.watchBaseline()
	return m, cmd
}

// stopWatch ends the watch, and a round in flight with it: the search before the round is
// shown again.
func (m Model) stopWatch() Model {
	if m.search.round && m.search.running {
		m.search.cancel()
		m.dropRound()
	}
	m.watch = watch{gen: m.watch.gen + 1}
	return m
}

// dropRound shows again the search a round replaced. It takes a new id: the round's
// answers, still on their way, carry an older one and are dropped.
func (m *Model) dropRound() {
	id := m.search.id
	m.search = m.watch.prev
	m.search.id = id + 1
}

// watchFollows moves the watch to a search a person started: the pending round is dropped
// and the search's end sets the next.
func (m *Model) watchFollows() {
	if m.watch.on {
		m.watch.gen++
		m.watch.next = time.Time{}
	}
}

// watchBaseline takes the watched search's answer as seen and sets the next round.
func (m Model) watchBaseline() (Model, tea.Cmd) {
	if !m.watch.on {
		return m, nil
	}
	// The table holds the search's answer, unless it still shows an earlier search's rows
	// (this one was cancelled before any arrived).
	if !m.table.Stale() {
		for id := range m.table.IDs() {
			m.watch.seen[id] = true
		}
	}
	m.watch.last = m.pc.Now()
	m.watch.news = watchNews{}
	return m.scheduleRound()
}

func (m Model) scheduleRound() (Model, tea.Cmd) {
	m.watch.gen++
	gen, every := m.watch.gen, m.watchEvery()
	m.watch.next = m.pc.Now().Add(every)
	return m, tea.Tick(every, func(time.Time) tea.Msg { return WatchTickMsg{gen} })
}

func (m Model) onWatchTick(msg WatchTickMsg) (Model, tea.Cmd) {
	if msg.Gen != m.watch.gen || !m.watch.on || m.search.running {
		return m, nil // a person's search took the round's place: its end sets the next
	}
	q, err := m.watchQuery()
	if err != nil {
		m = m.stopWatch()
		m.flash = screen.Say("Stopped watching: the search can no longer run: " + firstProblem(err))
		return m, nil
	}
	m.watch.prev = m.search
	m.watch.next = time.Time{}
	start := m.runSearch(q, m.search.form, true)
	return m, tea.Batch(start)
}

// watchQuery is the watched search as of now: its relative dates ("now", "+4w") read again
// on the clock, and a fixed start that has passed moved to now (the same question, without
// its past).
func (m Model) watchQuery() (model.Query, error) {
	q := m.search.query
	now := m.pc.Now()
	if m.search.form != nil {
		form := *m.search.form // a copy: the form on screen keeps its own state
		if fq, _ := form.Query(); !fq.Start.IsZero() && !fq.End.IsZero() {
			q.Start, q.End = fq.Start, fq.End
		}
	}
	return q.WatchedAt(now)
}

func firstProblem(err error) string {
	if errs, ok := err.(model.ValidationErrors); ok && len(errs) > 0 {
		return errs[0].Error()
	}
	return err.Error()
}

// roundDone puts a round's answer in the table and rings for the offerings never seen.
func (m Model) roundDone() (Model, tea.Cmd) {
	if m.search.cancelled || !m.watch.on {
		// Only quitting and a new search cancel a round, and both replace it; keep the
		// rows anyway rather than show a half answer.
		m.dropRound()
		return m, nil
	}
	var alts tea.Cmd
	had := m.table.Len() > 0
	got := m.search.got
	m.search.got = nil // the table holds them now
	m.replaceRows(got)
	if had && m.search.found == 0 {
		// Every offering went: what else there is, as after a search that finds nothing.
		// Only then, not every round that finds nothing again.
		m, alts = m.startAlternatives()
	}
	var fresh []model.Offering
	for _, o := range got {
		if !m.watch.seen[o.ID] {
			m.watch.seen[o.ID] = true
			fresh = append(fresh, o)
		}
	}
	now := m.pc.Now()
	m.watch.rounds++
	m.watch.news = watchNews{round: m.watch.rounds, at: now, since: m.watch.last, fresh: fresh}
	m.watch.last = now
	m, next := m.scheduleRound()
	next = tea.Batch(next, alts)
	if len(fresh) == 0 {
		return m, next
	}
	news := newsSentence(fresh)
	m.flash = screen.Say("Watch: " + news + " since " + clockTime(m.watch.news.since) + ".")
	if m.pc.NotifyOff {
		return m, next
	}
	return m, tea.Batch(next, screen.Ring(news))
}

// replaceRows puts a round's answer in the table in place of the last one. The sort and the
// filter stay, and so do the cursor and the marks on the offerings still offered.
func (m *Model) replaceRows(offs []model.Offering) {
	t := &m.table
	sel, hadSel := t.Selected()
	var marked []string
	for _, c := range t.Marked() {
		marked = append(marked, c.Offering.ID)
	}
	t.Reset()
	m.rows++
	t.Add(offs)
	t.KeepMarks(marked)
	if !hadSel || !t.Select(sel.ID) {
		m.detailScroll = detail.Scroll{}
	}
	m.rowsQuery = m.search.query
}

// newsSentence says what a round found: "3 new p5.48xlarge offerings in us-east-1,
// us-west-2 (from $7,015.92)".
func newsSentence(fresh []model.Offering) string {
	var types, regions []string
	low := fresh[0].Fee
	for _, o := range fresh {
		if !slices.Contains(types, o.InstanceType) {
			types = append(types, o.InstanceType)
		}
		if !slices.Contains(regions, o.Region) {
			regions = append(regions, o.Region)
		}
		if o.Fee.Cmp(low) < 0 {
			low = o.Fee
		}
	}
	slices.Sort(types)
	slices.Sort(regions)
	where := strings.Join(regions, ", ")
	if len(regions) > 3 {
		where = fmt.Sprintf("%s and %d more regions", strings.Join(regions[:3], ", "), len(regions)-3)
	}
	if len(fresh) == 1 {
		return fmt.Sprintf("1 new %s offering in %s (%s)", types[0], where, low.Dollars())
	}
	return fmt.Sprintf("%d new %s offerings in %s (from %s)", len(fresh), strings.Join(types, ", "), where, low.Dollars())
}

// WatchBadge is the header's word on the watch, on every screen: on, and when the next
// round runs.
func (m Model) WatchBadge(short bool) string {
	if !m.watch.on {
		return ""
	}
	var s string
	switch {
	case m.search.running:
		s = "watching · searching…"
		if short {
			s = "watch …"
		}
	case m.watch.next.IsZero():
		s = "watching"
		if short {
			s = "watch"
		}
	default:
		s = "watching · next " + clockTime(m.watch.next)
		if short {
			s = "watch " + m.watch.next.UTC().Format(model.LayoutClock)
		}
	}
	return m.pc.Theme.Accent.Render(s) + m.pc.Theme.Muted.Render(" · ")
}

// watchStatus is the status line of the search screen while watching.
func (m Model) watchStatus() string {
	n := m.watch.news
	next := ""
	if !m.watch.next.IsZero() {
		next = " · next " + clockTime(m.watch.next)
	}
	switch {
	case n.round == 0:
		return "Watching this search: it runs again every " + model.FormatInterval(m.watchEvery()) + next + " · w stops"
	case len(n.fresh) > 0:
		return fmt.Sprintf("Watch round %d at %s: %s since %s%s · w stops", n.round, clockTime(n.at), newsSentence(n.fresh), clockTime(n.since), next)
	}
	return fmt.Sprintf("Watch round %d at %s: nothing new since %s%s · w stops", n.round, clockTime(n.at), clockTime(n.since), next)
}

// FreshCount is how many offerings the last round found new, while watching.
func (m Model) FreshCount() int {
	if !m.watch.on {
		return 0
	}
	return len(m.watch.news.fresh)
}

// SelectedIsFresh reports whether the offering under the cursor is new this round.
func (m Model) SelectedIsFresh() bool {
	o, ok := m.table.Selected()
	if !ok || m.FreshCount() == 0 {
		return false
	}
	return slices.ContainsFunc(m.watch.news.fresh, func(f model.Offering) bool { return f.ID == o.ID })
}

func clockTime(t time.Time) string { return t.UTC().Format(model.LayoutClockUTC) }
