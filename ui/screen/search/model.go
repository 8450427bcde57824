// Package search is the search screen: the form (ui/components/searchform), the offerings
// table (ui/components/offerings) and the detail pane (ui/components/detail, with its chart
// tab), the region states of the running search, the alternatives and the largest-count
// probe after a search that found nothing, the watch (w) and the CSV export. Its searches
// run over the shared context's backend whatever screen is shown, since the header says
// what is being searched and a watched search rings from every screen. The purchase and
// the compare dialogs are the root's: the screen asks for them with screen.OpenPurchase and
// screen.OpenCompare; it says what it has to say with screen.Flash.
package search

import (
	"fmt"

	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// Options configure the screen.
type Options struct {
	// Catalog is what offerings are compared with (nil: the embedded catalog), loaded
	// before the program starts so that neither Update nor View reads a file.
	Catalog *pricing.Catalog
	// Region is the form's home region, searched by default.
	Region string
	// WatchEvery is how often a watched search runs again; 0 means 5 minutes.
	WatchEvery time.Duration
	// Connecting: the backend is being opened, so nothing is searched until SetConnection
	// says it is.
	Connecting bool
}

// Pane is a part of the screen that can have the focus.
type Pane int

const (
	PaneForm Pane = iota
	PaneResults
	PaneDetail
	numPanes
)

// Tab is what the detail pane shows: everything about the offering, or its pricing charts.
// The charts are a tab of the detail pane, not a pane of their own, so that in the wide
// layout they sit under the table and follow the cursor as it moves, and in the stacked
// layout they get the whole body as the detail does.
type Tab int

const (
	TabDetail Tab = iota
	TabChart
)

// Model is the search screen's state.
type Model struct {
	pc   *program.Context
	opts Options
	keys KeyMap

	area       screen.Area
	spin       string    // the root's spinner, as drawn now
	now        time.Time // the time shown, as of the root's last tick
	flash      screen.Flash
	connecting bool
	connectErr error

	focus Pane
	form  searchform.Model
	table offerings.Model
	// detailTab is what the detail pane shows; detailScroll how far the offering's
	// detail is scrolled.
	detailTab    Tab
	detailScroll detail.Scroll
	// rowsQuery is the search the table's rows answer, which is not the running search's
	// while its rows have not arrived.
	rowsQuery model.Query
	// rows numbers the table's rows: it moves whenever they are replaced or become the
	// previous search's (RowsGone).
	rows int64

	search search
	extra  extra
	watch  watch // watch.go
}

// exportedMsg is an export's outcome, said on the status line.
type exportedMsg struct{ text string }

// Owns reports whether msg is the screen's own, which the root hands it whatever screen is
// shown.
func Owns(msg tea.Msg) bool {
	switch msg.(type) {
	case EventsMsg, AlternativesMsg, ProbeMsg, WatchTickMsg, exportedMsg:
		return true
	}
	return false
}

// New builds the screen on the root's context. It does no I/O.
func New(pc *program.Context, opts Options) Model {
	t := offerings.New(pc.Theme)
	if opts.Catalog != nil {
		t.SetCatalog(opts.Catalog)
	}
	return Model{pc: pc, opts: opts, keys: DefaultKeyMap(pc.ReadOnly), now: pc.Now(), connecting: opts.Connecting,
		form: searchform.New(pc.Theme, pc.Clock.Now, opts.Region), table: t}
}

// Init starts nothing: the first search is a person's.
func (m Model) Init() tea.Cmd { return nil }

// update handles the screen's own messages (Owns), and the keys and the mouse while it is
// shown.
func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	m.flash = screen.Flash{}
	switch msg := msg.(type) {
	case EventsMsg:
		return m.onSearchEvents(msg)
	case WatchTickMsg:
		return m.onWatchTick(msg)
	case AlternativesMsg:
		return m.onAlternatives(msg), nil
	case ProbeMsg:
		return m.onProbe(msg), nil
	case exportedMsg:
		m.flash = screen.Say(msg.text)
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.mouse(msg.(tea.MouseMsg)), nil
	}
	return m, nil
}

// SetArea is where the screen is drawn; the table's page follows its height.
func (m *Model) SetArea(a screen.Area) {
	if a == m.area {
		return
	}
	m.area = a
	m.table.SetHeight(m.layout().tableRows)
}

// SetSpinner is the root's spinner as drawn now.
func (m *Model) SetSpinner(view string) { m.spin = view }

// SetNow is the time the root shows, as of its last tick.
func (m *Model) SetNow(t time.Time) { m.now = t }

// Revalidate reads the form again on the clock (the root's minute tick): relative dates
// ("now", "+4w") and the 8-week limit move with it, and the offerings that have started
// leave the table, as AWS no longer sells them.
func (m Model) Revalidate() Model {
	m.form.Revalidate()
	stale := m.table.Stale()
	if n := m.table.DropStarted(m.pc.Now()); !stale {
		m.search.started += n
	}
	return m
}

// SetConnection says whether the backend is still being opened, or why it could not be.
func (m Model) SetConnection(connecting bool, err error) Model {
	m.connecting, m.connectErr = connecting, err
	return m
}

// Connected takes what the connection says about the form: its home region and, when set,
// the sources it searches at first.
func (m Model) Connected(region string, sources []model.Source) Model {
	m.connecting, m.connectErr = false, nil
	m.now = m.pc.Now()
	m.form.SetHomeRegion(region)
	if len(sources) > 0 {
		m.form.SetSources(sources, "")
	}
	return m
}

// Flash is what the last Update says on the status line.
func (m Model) Flash() screen.Flash { return m.flash }

// Rows is the number of the table's rows as they are now, which an offering picked from
// them carries (screen.OpenPurchase) to be asked about later with RowsGone.
func (m Model) Rows() int64 { return m.rows }

// RowsGone is why nothing can be bought from the rows numbered rows, or "" when they
// are the rows of the search on screen. The rows of a previous search, drawn faint until
// the new one's first offering arrives, answered another question; rows replaced since
// (a new search, a watch round) are not the rows the offering was picked from.
func (m Model) RowsGone(rows int64) string {
	switch {
	case rows != m.rows:
		return "The search was run again since this offering was picked: its rows are not the ones on screen, and nothing was bought. Pick a row of the new search."
	case m.table.Stale():
		return "These rows are the previous search's, shown until the new search answers: nothing can be bought from them. Wait for its rows."
	}
	return ""
}

// Busy reports a search, its alternatives or its probe under way, which keeps the root's
// spinner turning.
func (m Model) Busy() bool {
	return m.search.running || m.extra.altsLoading || m.extra.probeLoading
}

// Typing reports whether keys go into a text field, where q is a letter.
func (m Model) Typing() bool {
	switch m.focus {
	case PaneForm:
		return m.form.Typing()
	case PaneResults:
		return m.table.Filtering()
	}
	return false
}

// Filtering reports whether the table's filter takes the keys (after /).
func (m Model) Filtering() bool { return m.table.Filtering() }

// Refresh searches again after a dialog bought, extended or launched something, unless
// nothing was searched or a search is running.
func (m Model) Refresh() (Model, tea.Cmd) {
	if !m.search.has || m.search.running {
		return m, nil
	}
	return m.StartSearch(m.search.query)
}

// stop cancels what runs, as the program quits.
func (m Model) stop() Model {
	m.cancelRunning()
	return m
}

// HeaderNote is the header's word on the search: what it searches or searched, "" before
// the first.
func (m Model) HeaderNote() (verb, regions string) {
	if !m.search.has {
		return "", ""
	}
	verb = " · searched "
	regions = screen.RegionList(m.search.query.Regions)
	if m.search.running {
		verb = " · searching "
		// A paced search also says, on every screen, how far it is and when it ends.
		if note := model.PaceNote(m.search.progressByRegion(), m.pc.Now()); note != "" {
			regions += fmt.Sprintf(" · %d of %d calls · %s", m.search.callsDone, m.search.callsTotal, note)
		}
	}
	return verb, regions
}

// What the root and the program's tests read of the screen's state: the table and the
// latest search's query. The program's tests read the rest from the view.

func (m Model) Table() offerings.Model { return m.table }
func (m Model) Query() model.Query     { return m.search.query }
