// Package advisor is the advisor screen: a form for a job, then every way of paying for it
// (pricing/advisor's answer) ranked, with its reasons, a chart of cost against utilization
// and a calendar of the next 8 weeks. Searches run in commands over the shared context's
// backend (or a SearchFunc of the options); Update does no I/O. Buying is the root's
// purchase dialog, asked for with screen.OpenPurchase.
package advisor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	adv "github.com/gpublock/gpublock/pricing/advisor"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// Page is one page of a search: offerings of a region, or that region's failure, and how
// far the search is there (Progress, when the source says).
type Page struct {
	Region    string
	Offerings []model.Offering
	Failed    string // why the region failed; "" otherwise
	Progress  *model.RegionProgress
}

// SearchFunc streams a search's pages; the channel is closed when the search is done or
// ctx is cancelled. nil means there is no backend.
type SearchFunc func(ctx context.Context, q model.Query) <-chan Page

type mode int

const (
	modeForm mode = iota
	modeResults
)

type tab int

const (
	tabSteps tab = iota
	tabChart
	tabCalendar
	numTabs
)

type field struct {
	label, flag string // flag: the JobFields field (and CLI flag) it fills
	input       textfield.Model
	boolean     bool
	on          bool
	hint        string
}

// Options configure the screen; the theme, the clock, the time zone, read-only mode and the
// backend are the shared context's.
type Options struct {
	Catalog *pricing.Catalog
	// Search, when set, is searched instead of the context's backend (tests).
	Search SearchFunc
	Region string // the default region
}

// Model is the screen's state.
type Model struct {
	pc     *program.Context
	opts   Options
	area   screen.Area
	keys   KeyMap
	fields []field
	focus  int
	mode   mode
	tab    tab
	err    string

	run      int // the id of the latest run; older pages are dropped
	pending  int // searches of the run still streaming
	searches int // searches the run started, pending ones included
	// progress is each running search's latest progress, by search and region: the
	// searches share each region's bucket, so the status adds their calls left up.
	progress map[searchRegion]model.RegionProgress
	nearby   bool // the run has searched the counts next to the job's
	ctx      context.Context
	cancel   context.CancelFunc
	job      adv.Job
	offers   []adv.Offering
	failed   []string
	searched map[model.Source]bool // the sources this run searches
	advice   *adv.Advice
	cursor   int
	cal      calCursor
}

// New builds the screen on the root's context, with a form for an 8-accelerator, 48-hour
// H100 job.
func New(pc *program.Context, o Options) Model {
	if o.Region == "" {
		o.Region = "us-east-1"
	}
	text := func(label, flag, v, hint string) field {
		return field{label: label, flag: flag, input: textfield.New(v), hint: hint}
	}
	m := Model{pc: pc, opts: o, keys: DefaultKeyMap(pc.ReadOnly), fields: []field{
		text("Type or class", "type", "p5.48xlarge", "a type, or H100, any H200-class…"),
		text("Instances", "instances", "1", "or leave empty and give accelerators"),
		text("Accelerators", "accelerators", "", "for a class: types get the instances that hold them"),
		text("Hours", "hours", "48", "that the job holds the capacity"),
		text("Utilization %", "utilization", "100", "of those hours doing useful work"),
		{label: "Interruptible", flag: "interruptible", boolean: true, hint: "it checkpoints or retries"},
		{label: "SageMaker", flag: "sagemaker", boolean: true, hint: "SageMaker runs it"},
		text("Hours a month", "monthly-hours", "", "a recurring job (with months)"),
		text("Months", "months", "", "how long it recurs"),
		text("From", "from", "now", "2026-12-03, now, +1w"),
		text("To", "to", "", "empty: as late as a block can end"),
		text("Regions", "regions", o.Region, "R[,R…] or all"),
	}}
	return m
}

// Init starts nothing: the screen searches when the form is sent.
func (m Model) Init() tea.Cmd { return nil }

// Typing reports whether keys go into a text field (q and digits are letters there).
func (m Model) Typing() bool { return m.mode == modeForm && !m.fields[m.focus].boolean }

// Running reports whether a search is streaming in.
func (m Model) Running() bool { return m.pending > 0 }

func (m Model) value(flag string) (string, bool) {
	for _, f := range m.fields {
		if f.flag == flag {
			return f.input.Value(), f.on
		}
	}
	return "", false
}

// jobFromForm reads the form through the same rules as gpublock advise.
func (m Model) jobFromForm(now time.Time) (adv.Job, error) {
	get := func(flag string) string { v, _ := m.value(flag); return v }
	_, intr := m.value("interruptible")
	_, sm := m.value("sagemaker")
	j, err := adv.ParseJob(adv.JobFields{Type: get("type"), Instances: get("instances"), Accelerators: get("accelerators"),
		Hours: get("hours"), MonthlyHours: get("monthly-hours"), Months: get("months"), Utilization: get("utilization"),
		From: get("from"), To: get("to"), Interruptible: intr, SageMaker: sm}, now)
	if err != nil {
		return j, err
	}
	regions, err := parseRegions(get("regions"), j)
	if err != nil {
		return j, err
	}
	j.Regions = regions
	if err := j.Validate(); err != nil {
		return j, err
	}
	for _, q := range j.Queries() {
		if err := q.Validate(now); err != nil {
			return j, err
		}
	}
	return j, nil
}

func parseRegions(s string, j adv.Job) ([]string, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "all") || s == "" {
		var types []string
		for _, c := range j.Candidates() {
			types = append(types, c.InstanceType)
		}
		return model.RegionsSelling(types...), nil
	}
	var out []string
	for _, r := range strings.Split(s, ",") {
		r = strings.TrimSpace(r)
		if !slices.Contains(model.Regions(), r) {
			return nil, adv.FieldError{Field: "regions", Msg: fmt.Sprintf("%q is not a Capacity Block region", r)}
		}
		out = append(out, r)
	}
	return out, nil
}

type pageMsg struct {
	run, search int // the run, and its search (the nth it started)
	ch          <-chan Page
	page        Page
	done        bool
}

// searchRegion is one search of a run in one region.
type searchRegion struct {
	search int
	region string
}

func readPage(run, search int, ch <-chan Page) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-ch
		return pageMsg{run: run, search: search, ch: ch, page: p, done: !ok}
	}
}

func startSearch(ctx context.Context, run, n int, search SearchFunc, q model.Query) tea.Cmd {
	return func() tea.Msg {
		ch := search(ctx, q)
		p, ok := <-ch
		return pageMsg{run: run, search: n, ch: ch, page: p, done: !ok}
	}
}

// start reads the form and starts the job's searches.
func (m Model) start() (Model, tea.Cmd) {
	now := m.pc.Now().UTC()
	j, err := m.jobFromForm(now)
	if err != nil {
		m.err = err.Error()
		return m, nil
	}
	if m.cancel != nil {
		m.cancel()
	}
	m.err, m.job, m.offers, m.failed, m.cursor, m.searched, m.pending = "", j, nil, nil, 0, nil, 0
	m.searches, m.progress = 0, map[searchRegion]model.RegionProgress{}
	m.mode, m.run = modeResults, m.run+1
	// the calendar opens on the window's first day
	today := now.Truncate(24 * time.Hour)
	m.cal = calCursor{day: min(calDays-1, max(0, int(j.WindowStart.Sub(today)/(24*time.Hour))))}
	qs := j.Queries()
	for _, q := range j.PlanQueries() {
		if adv.PlanQueryFits(q) == nil {
			qs = append(qs, q)
		}
	}
	if len(qs) > 0 && m.search() == nil {
		m.err = "Not connected: nothing can be searched."
		m.recompute()
		return m, nil
	}
	m.ctx, m.cancel = context.WithCancel(m.pc.Ctx)
	m.nearby = false
	m.searched = map[model.Source]bool{}
	for _, q := range qs {
		for _, src := range model.Sources() {
			if q.Searches(src) {
				m.searched[src] = true
			}
		}
	}
	cmd := m.searchAll(qs)
	m.recompute()
	return m, cmd
}

// searchAll starts the run's searches.
func (m *Model) searchAll(qs []model.Query) tea.Cmd {
	var cmds []tea.Cmd
	for _, q := range qs {
		cmds = append(cmds, startSearch(m.ctx, m.run, m.searches, m.search(), q))
		m.searches++
	}
	m.pending += len(qs)
	return tea.Batch(cmds...)
}

// paceNote is what AWS's buckets make the run's searches still take: their calls left
// added up per region (they share its bucket, read at the latest step), by model.PaceNote.
func (m Model) paceNote() string {
	byRegion := map[string]model.RegionProgress{}
	for k, p := range m.progress {
		r, ok := byRegion[k.region]
		if ok && r.At.After(p.At) {
			p.Tokens, p.Rate, p.At = r.Tokens, r.Rate, r.At
		}
		p.Done += r.Done
		p.Left += r.Left
		byRegion[k.region] = p
	}
	ps := make([]model.RegionProgress, 0, len(byRegion))
	for _, r := range slices.Sorted(maps.Keys(byRegion)) {
		ps = append(ps, byRegion[r])
	}
	return model.PaceNote(ps, m.pc.Now())
}

// recompute asks pricing/advisor again with what has arrived so far.
func (m *Model) recompute() {
	in := adv.Inputs{Catalog: m.opts.Catalog, Offerings: m.offers, Searched: m.searched, Now: m.pc.Now().UTC()}
	a, err := adv.Advise(m.job, in)
	if err != nil {
		m.err, m.advice = err.Error(), nil
		return
	}
	m.advice = &a
	m.cursor = min(m.cursor, len(a.Options)-1)
}

// update handles keys and the search's pages.
func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case pageMsg:
		if msg.run != m.run {
			return m, nil
		}
		if msg.done {
			for k := range m.progress {
				if k.search == msg.search {
					delete(m.progress, k)
				}
			}
			m.pending--
			if m.pending > 0 {
				return m, nil
			}
			if !m.nearby && m.advice != nil && adv.NeedsNearby(*m.advice) {
				// nothing at the job's count: search one instance fewer and one more
				m.nearby = true
				return m, m.searchAll(m.job.NearbyQueries())
			}
			m.cancel()
			return m, nil
		}
		found := m.pc.Now().UTC()
		for _, o := range msg.page.Offerings {
			m.offers = append(m.offers, adv.Offering{Offering: o, Found: found})
		}
		if msg.page.Failed != "" {
			m.failed = append(m.failed, msg.page.Region+": "+msg.page.Failed)
		}
		if p := msg.page.Progress; p != nil {
			m.progress[searchRegion{msg.search, p.Region}] = *p
		}
		m.offers = adv.Dedupe(m.offers)
		m.recompute()
		return m, readPage(msg.run, msg.search, msg.ch)
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m Model) key(k tea.KeyPressMsg) (Model, tea.Cmd) {
	km := m.keys
	if m.mode == modeForm {
		f := &m.fields[m.focus]
		switch {
		case keyIs(k, km.Run):
			return m.start()
		case keyIs(k, km.Next):
			m.focus = (m.focus + 1) % len(m.fields)
		case keyIs(k, km.Prev):
			m.focus = (m.focus + len(m.fields) - 1) % len(m.fields)
		case f.boolean && keyIs(k, km.Toggle, km.Yes, km.No):
			f.on = keyIs(k, km.Yes) || (!keyIs(k, km.No) && !f.on)
		case keyIs(k, km.Back) && m.advice != nil:
			m.mode = modeResults
		case !f.boolean:
			f.input, _ = f.input.Update(k)
			m.err = ""
		}
		return m, nil
	}
	switch {
	case keyIs(k, km.Edit):
		m.mode = modeForm
	case keyIs(k, km.View):
		m.tab = (m.tab + 1) % numTabs
	case keyIs(k, km.Rerun):
		return m.start()
	case m.tab == tabCalendar && keyIs(k, km.Buy):
		if off, ok := m.CalendarOffering(); ok {
			return m, func() tea.Msg { return screen.OpenPurchase{Offering: off} }
		}
	case m.tab == tabCalendar:
		m.cal = m.calKey(k)
	case keyIs(k, km.Up):
		m.cursor = max(0, m.cursor-1)
	case keyIs(k, km.Down):
		if m.advice != nil {
			m.cursor = min(len(m.advice.Options)-1, m.cursor+1)
		}
	case keyIs(k, km.Buy):
		if o, ok := m.Selected(); ok && o.Offering != nil {
			off := o.Offering.Offering
			return m, func() tea.Msg { return screen.OpenPurchase{Offering: off} }
		}
	}
	return m, nil
}

// Selected is the option under the cursor.
func (m Model) Selected() (adv.Option, bool) {
	if m.advice == nil || m.cursor >= len(m.advice.Options) {
		return adv.Option{}, false
	}
	return m.advice.Options[m.cursor], true
}

// Owns reports whether a message is one of the screen's own (a search's page), which the
// root hands over whichever screen is shown.
func Owns(msg tea.Msg) bool {
	_, ok := msg.(pageMsg)
	return ok
}

// search is what the next run searches: the options', or the context's backend as it is
// now (it may connect after the screen was built); nil without either.
func (m Model) search() SearchFunc {
	if m.opts.Search != nil {
		return m.opts.Search
	}
	return searchOver(m.pc.Backend)
}

// SetArea is where the screen is drawn.
func (m *Model) SetArea(a screen.Area) { m.area = a }
