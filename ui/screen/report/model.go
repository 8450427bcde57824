// Package report is the report screen: what was paid for the reservations and how much of
// them was used, in a window of calendar months. It reads the report's input in a command
// (the shared context's backend, or a LoadFunc of the options), prices the used hours
// on-demand from the catalog and draws what model/report's Build makes of it, the figures
// `gpublock report` prints: the totals, the fees paid by month as bars, and per reservation
// the hours reserved and used, with views by account, source and tag. Update does no I/O.
package report

import (
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// LoadFunc reads the report's input for [from, to): source.Backend's Report.
type LoadFunc func(ctx context.Context, from, to time.Time) (report.Input, error)

// Options configure the screen; the theme, the clock and the backend are the shared
// context's.
type Options struct {
	// Catalog prices the used hours on-demand (nil: the embedded catalog).
	Catalog *pricing.Catalog
	// Load, when set, is read instead of the context's backend (tests).
	Load LoadFunc
	// TagKeys are the tags the fees are grouped by (nil: report.DefaultTagKeys).
	TagKeys []string
	// Regions are those the report covers, as the blocks screen lists them (nil: every
	// region each account lists).
	Regions []string
}

// view is what the lower part of the screen lists.
type view int

const (
	viewReservations view = iota
	viewAccounts
	viewSources
	viewTags
	numViews
)

// Model is the screen's state.
type Model struct {
	pc   *program.Context
	opts Options
	keys KeyMap
	area screen.Area
	spin string

	win     window
	id      int // the latest read's; a reply of another is dropped
	loading bool
	cancel  context.CancelFunc
	// asked is the window being read, or the last read; shown is the report's window.
	askedFrom, askedTo time.Time
	rep                *report.Report
	repWin             window // the window rep is of
	err                error  // the last read's failure
	waiting            bool   // entered with nothing to read from: it reads once connected

	visible bool
	view    view
	cursor  int // in the view's rows
	offset  int // the first row shown
	flash   screen.Flash
}

// New builds the screen on the root's context. It does no I/O: it reads when first shown.
func New(pc *program.Context, o Options) Model {
	if o.Catalog == nil {
		o.Catalog = pricing.Embedded()
	}
	if o.TagKeys == nil {
		o.TagKeys = report.DefaultTagKeys
	}
	o.TagKeys = slices.Clone(o.TagKeys)
	return Model{pc: pc, opts: o, keys: DefaultKeyMap(), win: defaultWindow}
}

// loadedMsg is a read's answer.
type loadedMsg struct {
	id       int
	from, to time.Time
	upToNow  bool // asked up to the backend's now, which the input's Now then is
	in       report.Input
	err      error
}

// Owns reports whether msg is one of the screen's own (a read's answer), which the root
// hands over whichever screen is shown.
func Owns(msg tea.Msg) bool {
	_, ok := msg.(loadedMsg)
	return ok
}

// Init starts nothing: the screen reads when it is first shown.
func (m Model) Init() tea.Cmd { return nil }

// enter is the screen being shown: the first time, it reads the report.
func (m Model) enter() (Model, tea.Cmd) {
	m.visible = true
	if m.rep == nil && m.err == nil && !m.loading {
		return m.load()
	}
	return m, nil
}

// leave is the screen being hidden; a read in flight goes on.
func (m Model) leave() Model {
	m.visible = false
	return m
}

// Connected is the backend having been opened: a screen shown before it reads now.
func (m Model) Connected() (Model, tea.Cmd) {
	if m.waiting && m.visible {
		return m.load()
	}
	return m, nil
}

// loader is what the next read reads: the options', or the context's backend as it is now
// (it may connect after the screen was built); nil without either.
func (m Model) loader() LoadFunc {
	if m.opts.Load != nil {
		return m.opts.Load
	}
	return loadOver(m.pc.Backend, m.opts.Regions)
}

func loadOver(b source.Backend, regions []string) LoadFunc {
	if b == nil {
		return nil
	}
	return func(ctx context.Context, from, to time.Time) (report.Input, error) {
		return b.Report(ctx, regions, from, to)
	}
}

// load reads the report of the window at the backend's now.
func (m Model) load() (Model, tea.Cmd) {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.id++
	m.askedFrom, m.askedTo = m.win.at(m.pc.Now())
	if m.rep != nil && m.repWin != m.win {
		// Another window's figures would read as this one's; the same window read again
		// (to a later now) keeps its figures on screen until the new ones arrive.
		m.rep = nil
	}
	m.err = nil
	load := m.loader()
	if load == nil {
		m.loading, m.waiting = false, true
		return m, nil
	}
	m.loading, m.waiting = true, false
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.cancel = cancel
	id, from, to := m.id, m.askedFrom, m.askedTo
	ask := to
	if m.win.back == 0 {
		// A window that ends now is asked as one: what is paid up to the instant the
		// backend is read is in it, its clock having moved on since.
		ask = time.Time{}
	}
	return m, func() tea.Msg {
		in, err := load(ctx, from, ask)
		return loadedMsg{id: id, from: from, to: to, upToNow: ask.IsZero(), in: in, err: err}
	}
}

// update handles keys and the reads' answers.
func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	m.flash = screen.Flash{}
	switch msg := msg.(type) {
	case loadedMsg:
		if msg.id != m.id {
			return m, nil
		}
		m.loading = false
		if m.cancel != nil {
			m.cancel()
			m.cancel = nil
		}
		if msg.err != nil {
			m.err = msg.err
			return m, nil
		}
		in, to := msg.in, msg.to
		if msg.upToNow {
			// Up to now: the later of the screen's now and the backend's, which is both.
			if in.Now.After(to) {
				to = in.Now
			}
			in.Now = to
		}
		r := build(in, msg.from, to, m.opts)
		m.rep, m.repWin, m.err = &r, m.win, nil
		m.clamp()
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

// build is the report of in as `gpublock report` makes it: the window asked, the backend's
// now when the input has none, the tag keys, and the used hours priced on-demand from the
// catalog by the same function.
func build(in report.Input, from, to time.Time, o Options) report.Report {
	in.From, in.To, in.TagKeys = from, to, slices.Clone(o.TagKeys)
	if in.Now.IsZero() {
		in.Now = to
	}
	pricing.PriceReport(o.Catalog, &in)
	return report.Build(in)
}

func (m Model) key(k tea.KeyPressMsg) (Model, tea.Cmd) {
	km := m.keys
	switch {
	case keyIs(k, km.Reload):
		return m.load()
	case keyIs(k, km.Earlier):
		if m.win.back >= maxBack {
			m.flash = screen.Say("The window goes back no further.")
			return m, nil
		}
		m.win.back++
		return m.load()
	case keyIs(k, km.Later):
		if m.win.back == 0 {
			m.flash = screen.Say("The window already ends now: nothing has been paid or used later yet.")
			return m, nil
		}
		m.win.back--
		return m.load()
	case keyIs(k, km.Span):
		m.win = m.win.toggleSpan()
		return m.load()
	case keyIs(k, km.Next):
		m.view = (m.view + 1) % numViews
		m.cursor, m.offset = 0, 0
	case keyIs(k, km.Prev):
		m.view = (m.view + numViews - 1) % numViews
		m.cursor, m.offset = 0, 0
	default:
		n := m.rowCount()
		h := max(1, m.listHeight())
		c, o, ok := table.Move(k, km.nav(), m.cursor, m.offset, h, n)
		if ok {
			m.cursor, m.offset = table.Scroll(c, o, h, n)
		}
	}
	return m, nil
}

// clamp keeps the cursor on a row after the rows changed.
func (m *Model) clamp() {
	n := m.rowCount()
	m.cursor, m.offset = table.Scroll(m.cursor, m.offset, max(1, m.listHeight()), n)
}

// Busy reports whether the report is being read, which keeps the root's spinner turning.
func (m Model) Busy() bool { return m.loading }

// Flash is what the last Update says on the status line.
func (m Model) Flash() screen.Flash { return m.flash }

// Report is the report shown, if one was read.
func (m Model) Report() (report.Report, bool) {
	if m.rep == nil {
		return report.Report{}, false
	}
	return *m.rep, true
}

// Window is the window the screen reads (or read last), at the backend's now then.
func (m Model) Window() (from, to time.Time) { return m.askedFrom, m.askedTo }

// SetArea is where the screen is drawn, and SetSpinner the root's spinner as drawn now.
func (m *Model) SetArea(a screen.Area)  { m.area = a }
func (m *Model) SetSpinner(view string) { m.spin = view }
