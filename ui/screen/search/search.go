package search

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/screen"
)

// search is the state of the latest search.
type search struct {
	id        int // messages of older searches carry an older id and are dropped
	cancel    context.CancelFunc
	has       bool // a search has been started
	running   bool
	cancelled bool
	query     model.Query

	regions    []string // in the order of the query, then as first reported
	status     map[string]model.RegionStatus
	callsDone  int
	callsTotal int
	// progress is each source's regions' latest calls done and left and bucket, by
	// source and region.
	progress map[string]model.RegionProgress
	found    int  // offerings this search delivered
	started  int  // of those, how many started since and left the table (Revalidate)
	replaced bool // the first offerings arrived and replaced the previous rows
	// cachedAt is when the oldest cached row shown was asked (zero: none shown); cached
	// rows stand as stale, like a previous search's, until the first fresh one replaces them.
	cachedAt time.Time
	// got is a watch round's answer until it replaces the table's rows at the round's end;
	// any other search's offerings go straight to the table, which holds the one copy.
	got []model.Offering

	// form is a copy of the form the search was run from: a watch reads its relative dates
	// ("now", "+4w") again each round. nil when it was not run from the form.
	form *searchform.Model
	// round: this search is a round of the watch (watch.go), which leaves the table, the
	// focus and the alternatives alone until it ends.
	round bool
}

// extra is what runs after a search that found nothing: the alternatives and the probe.
type extra struct {
	cancel       context.CancelFunc
	id           int
	alts         []source.Suggestion
	altCursor    int
	altsLoading  bool
	altsErr      error
	probe        []ProbeResult
	probeLoading bool
	probeErr     error
}

// ProbeResult is the largest count of Type in Region that has any offering.
type ProbeResult struct {
	Region, Type string
	Count        int
	Err          error
}

// EventsMsg carries every event that was waiting on the channel of search ID, so that a
// fast stream costs one Update per batch rather than one per page.
type EventsMsg struct {
	ID     int
	Events []source.SearchEvent
	Ch     <-chan source.SearchEvent
	Closed bool
}

// AlternativesMsg is the answer of the alternatives asked for after a search found nothing.
type AlternativesMsg struct {
	ID   int
	Alts []source.Suggestion
	Err  error
}

// ProbeMsg is the largest-count probe's answer.
type ProbeMsg struct {
	ID      int
	Results []ProbeResult
}

func keyIs(k tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(k, b...) }

// maxBatch bounds the events folded into one message, so a frame is drawn at least every
// so many pages of a long stream.
const maxBatch = 64

// readEvents waits for the next event and takes those already waiting behind it.
func readEvents(id int, ch <-chan source.SearchEvent) tea.Cmd {
	return func() tea.Msg {
		msg := EventsMsg{ID: id, Ch: ch}
		ev, ok := <-ch
		if !ok {
			msg.Closed = true
			return msg
		}
		msg.Events = append(msg.Events, ev)
		for len(msg.Events) < maxBatch {
			select {
			case ev, ok := <-ch:
				if !ok {
					msg.Closed = true
					return msg
				}
				msg.Events = append(msg.Events, ev)
			default:
				return msg
			}
		}
		return msg
	}
}

// drain empties the channel of a search nobody watches any more, so that the adapter's
// goroutines never wait on it.
func drain(ch <-chan source.SearchEvent) tea.Cmd {
	return func() tea.Msg {
		for range ch {
		}
		return nil
	}
}

// StartSearch cancels any search still running and starts q. The rows of the previous
// search stay, drawn as stale, until the first offering of this one arrives. A watch follows
// it: the watched search is now this one (watch.go).
func (m Model) StartSearch(q model.Query) (Model, tea.Cmd) {
	return m.startSearchFrom(q, m.search.form)
}

// StartFormSearch starts the search the form holds now.
func (m Model) StartFormSearch(q model.Query) (Model, tea.Cmd) {
	f := m.form
	return m.startSearchFrom(q, &f)
}

func (m Model) startSearchFrom(q model.Query, form *searchform.Model) (Model, tea.Cmd) {
	m.cancelRunning()
	if form == nil {
		f := m.form
		form = &f
	}
	start := m.runSearch(q, form, false)
	m.extra = extra{id: m.extra.id + 1}
	m.table.SetStale(m.table.Len() > 0)
	m.rows++
	m.focus = PaneResults
	m.watchFollows()
	return m, tea.Batch(start)
}

// runSearch makes q the latest search and returns the command that starts it.
func (m *Model) runSearch(q model.Query, form *searchform.Model, round bool) tea.Cmd {
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.search = search{
		id: m.search.id + 1, cancel: cancel, has: true, running: true, query: q, form: form, round: round,
		regions: append([]string(nil), q.Regions...), status: map[string]model.RegionStatus{},
	}
	for _, r := range q.Regions {
		m.search.status[r] = model.RegionStatus{Region: r, State: model.RegionSearching}
	}
	b, id := m.pc.Backend, m.search.id
	return func() tea.Msg {
		return readEvents(id, b.Search(ctx, q))()
	}
}

func (m Model) onSearchEvents(msg EventsMsg) (Model, tea.Cmd) {
	if msg.ID != m.search.id {
		if msg.Closed {
			return m, nil
		}
		return m, drain(msg.Ch)
	}
	s := &m.search
	for _, ev := range msg.Events {
		if len(ev.Skips) > 0 {
			// The sources left out say so on the status line, as the command line does on stderr.
			said := make([]string, len(ev.Skips))
			for i, k := range ev.Skips {
				said[i] = k.Sentence()
			}
			m.flash = screen.Say(strings.Join(said, "; "))
		}
		if !ev.CachedAt.IsZero() {
			if !s.round && !s.replaced && len(ev.Offerings) > 0 {
				if s.cachedAt.IsZero() {
					m.table.Reset()
					m.rowsQuery = s.query
				}
				m.table.Add(ev.Offerings)
				m.table.SetStale(true)
				if s.cachedAt.IsZero() || ev.CachedAt.Before(s.cachedAt) {
					s.cachedAt = ev.CachedAt
				}
			}
		} else if len(ev.Offerings) > 0 {
			// A watch round's rows replace the table's at its end, all at once.
			if !s.round {
				if !s.replaced {
					s.cachedAt = time.Time{}
					m.table.Reset()
					m.rows++
					m.rowsQuery = s.query
					s.replaced = true
				}
				m.table.Add(ev.Offerings)
			} else {
				s.got = append(s.got, ev.Offerings...)
			}
			s.found += len(ev.Offerings)
		}
		if ev.Status != nil {
			if _, known := s.status[ev.Status.Region]; !known {
				s.regions = append(s.regions, ev.Status.Region)
			}
			s.status[ev.Status.Region] = *ev.Status
		}
		if ev.CallsTotal > 0 {
			s.callsDone, s.callsTotal = ev.CallsDone, ev.CallsTotal
		}
		if p := ev.Progress; p != nil {
			if s.progress == nil {
				s.progress = map[string]model.RegionProgress{}
			}
			// The bucket was read as the step was sent; the screen's clock (the
			// emulator's, when it runs ahead) counts the wait down from now on.
			pr := *p
			pr.At = m.pc.Now()
			s.progress[ev.Source.String()+"/"+p.Region] = pr
		}
	}
	if !msg.Closed {
		return m, readEvents(msg.ID, msg.Ch)
	}
	return m.searchDone()
}

// searchDone ends a search. One that found nothing clears the old rows (they answered
// another question) and asks for alternatives. A watched search's answer is what the watch's
// rounds are compared with.
func (m Model) searchDone() (Model, tea.Cmd) {
	s := &m.search
	s.running = false
	if s.cancel != nil {
		s.cancel()
	}
	m.settleStatuses()
	if s.round {
		return m.roundDone()
	}
	m, watch := m.watchBaseline()
	if s.cancelled || s.found > 0 {
		return m, watch
	}
	m.table.Reset()
	m.rows++
	m, alts := m.startAlternatives()
	return m, tea.Batch(alts, watch)
}

// startAlternatives asks for searches near the last one, which found nothing; not when no
// region answered it, since they would fail the same way.
func (m Model) startAlternatives() (Model, tea.Cmd) {
	if m.failedRegions() == len(m.search.regions) {
		return m, nil
	}
	q, ok := blocksPart(m.search.query)
	if !ok {
		return m, nil // the alternatives are Capacity Block searches: see emptyView
	}
	m.cancelExtra()
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.extra = extra{id: m.extra.id + 1, cancel: cancel, altsLoading: true}
	b, id := m.pc.Backend, m.extra.id
	return m, tea.Batch(func() tea.Msg {
		alts, err := b.Alternatives(ctx, q)
		return AlternativesMsg{id, alts, err}
	})
}

// settleStatuses gives the regions without a final word theirs: cancelled, or (the stream
// ended without one) empty.
func (m *Model) settleStatuses() {
	s := &m.search
	for r, st := range s.status {
		switch {
		case s.cancelled && (st.State == model.RegionSearching || st.State == model.RegionThrottled):
			st.State, st.Message = model.RegionCancelled, ""
		case !s.cancelled && st.State == model.RegionSearching:
			st.State = model.RegionEmpty
		default:
			continue
		}
		s.status[r] = st
	}
}

// cancelRunning cancels the search, alternatives or probe that is running, and reports
// whether there was one.
func (m *Model) cancelRunning() bool {
	stopped := m.cancelSearch()
	return m.cancelExtra() || stopped
}

// cancelByKey is esc: it cancels what a person started. A watch round goes on (w stops the
// watch): esc also means back, and must not drop a round nobody asked to stop.
func (m *Model) cancelByKey() bool {
	stopped := false
	if !m.search.round {
		stopped = m.cancelSearch()
	}
	return m.cancelExtra() || stopped
}

func (m *Model) cancelSearch() bool {
	if !m.search.running {
		return false
	}
	m.search.cancel()
	m.search.cancelled = true
	return true
}

func (m *Model) cancelExtra() bool {
	if !m.extra.altsLoading && !m.extra.probeLoading {
		return false
	}
	m.extra.cancel()
	m.extra.altsLoading, m.extra.probeLoading = false, false
	m.extra.id++ // drop their answers
	return true
}

func (m Model) onAlternatives(msg AlternativesMsg) Model {
	if msg.ID != m.extra.id {
		return m
	}
	m.extra.altsLoading = false
	m.extra.alts, m.extra.altsErr = msg.Alts, msg.Err
	return m
}

// TakeAlternative searches the alternative i of those listed after a search that found
// nothing.
func (m Model) TakeAlternative(i int) (Model, tea.Cmd) {
	if i < 0 || i >= len(m.extra.alts) || (m.search.running && !m.search.round) {
		return m, nil
	}
	q := m.extra.alts[i].Query
	if f := m.search.form; f != nil && q.Start.Equal(m.search.query.Start) && q.End.Equal(m.search.query.End) {
		// The searched window: its fields as the search had them, read again now.
		form := *f
		form.SetQueryKeepingWindow(q)
		if fq, ok := form.Query(); ok {
			m.form = form
			return m.StartFormSearch(fq)
		}
	}
	m.form.SetQuery(q)
	return m.StartFormSearch(q)
}

// startProbe asks, for each type and region of the last search that sells it, for the
// largest count that has any offering.
func (m Model) startProbe() (Model, tea.Cmd) {
	if !m.search.has || (m.search.running && !m.search.round) || m.extra.probeLoading {
		return m, nil
	}
	q, ok := blocksPart(m.search.query)
	if !ok {
		return m, nil // the probe asks Capacity Blocks (LargestCount): see emptyView
	}
	if m.extra.cancel != nil {
		m.extra.cancel()
	}
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.extra.id++
	m.extra.cancel, m.extra.probeLoading, m.extra.probe, m.extra.probeErr = cancel, true, nil, nil
	m.extra.altsLoading = false
	b, id := m.pc.Backend, m.extra.id
	return m, tea.Batch(func() tea.Msg { return ProbeMsg{id, probe(ctx, b, q)} })
}

// probe runs the LargestCount calls, a few at a time.
func probe(ctx context.Context, b source.Backend, q model.Query) []ProbeResult {
	var jobs []ProbeResult
	for _, t := range q.InstanceTypes {
		lt, _ := model.LookupType(t)
		for _, r := range q.Regions {
			if lt.Sells(r) {
				jobs = append(jobs, ProbeResult{Region: r, Type: t})
			}
		}
	}
	days := q.Durations.MinDays
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range jobs {
		wg.Add(1)
		go func(j *ProbeResult) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			j.Count, j.Err = b.LargestCount(ctx, j.Region, j.Type, days, q.Start, q.End)
		}(&jobs[i])
	}
	wg.Wait()
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].Count > jobs[j].Count })
	return jobs
}

func (m Model) onProbe(msg ProbeMsg) Model {
	if msg.ID != m.extra.id {
		return m
	}
	m.extra.probeLoading = false
	m.extra.probe = msg.Results
	return m
}

// copyCommand puts the AWS CLI command of the selected offering on the clipboard with
// OSC 52, which works over SSH and in tmux. The search and the purchase are separate keys so
// that a paste never buys by surprise.
func (m Model) copyCommand(purchase bool) (Model, tea.Cmd) {
	o, ok := m.table.Selected()
	if !ok || m.focus == PaneForm {
		m.flash = screen.Say("Nothing to copy: select an offering first.")
		return m, nil
	}
	cmd, what := detail.SearchCommand(o, m.rowsQuery), "search"
	if purchase {
		cmd, what = detail.PurchaseCommand(o), "purchase"
	}
	m.flash = screen.Say(fmt.Sprintf("Copied the AWS CLI %s command to the clipboard (OSC 52).", what))
	return m, tea.SetClipboard(cmd)
}

// blocksPart is the Capacity Blocks' share of q by model.SplitQuery: the alternatives and
// the largest-count probe are Capacity Block searches, asked with their rules only where
// Capacity Blocks are searched. ok is false when they are not.
func blocksPart(q model.Query) (model.Query, bool) {
	parts, _ := model.SplitQuery(q)
	for _, p := range parts {
		if p.Source == model.SourceCapacityBlock {
			return p.Query, true
		}
	}
	return q, false
}

// searchedSource is the first source q searches, by model.SplitQuery.
func searchedSource(q model.Query) model.Source {
	if parts, _ := model.SplitQuery(q); len(parts) > 0 {
		return parts[0].Source
	}
	if len(q.Sources) > 0 {
		return q.Sources[0]
	}
	return model.SourceCapacityBlock
}

// SearchID is the id the latest search's messages carry (EventsMsg.ID), so that a test can
// deliver a search's events itself.
func (m Model) SearchID() int { return m.search.id }
