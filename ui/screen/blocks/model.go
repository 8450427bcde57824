// Package blocks is the blocks screen: every Capacity Block and training plan of the account,
// their warnings and countdowns, a block's detail, and the keys that copy, open, extend and
// launch. The list is loaded and refreshed whatever screen is shown, because the header
// counts its warnings on every screen and the bell rings for them; the countdown's tick runs
// only while it is visible, and only when what it shows changes. The extend and launch dialogs are the root's: the
// screen asks for them with screen.OpenExtend and screen.OpenLaunch.
package blocks

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
)

// RefreshFlash is said while r's listing runs, and taken back when it ends.
const RefreshFlash = "Listing the blocks again…"

// Options configure the screen.
type Options struct {
	// Refresh is how often the blocks are listed again (0: 30 s). The bell and the
	// desktop notification (OSC 9) of new warnings follow the program's switch
	// (program.Context.NotifyOff).
	Refresh time.Duration
	// Regions narrows the listing to these regions (nil: every region that sells Capacity
	// Blocks); WarnRules are the lead times of the warnings (zero: a day ahead); Notify,
	// when set, delivers a new warning outside the terminal and returns what failed, in
	// words safe to show; it is called in a command, never in Update.
	Regions   []string
	WarnRules model.WarnRules
	Notify    func(ctx context.Context, b model.Block, w model.Warning, now time.Time) []string
	// AutoExtend is the policy whose extensions the screen asks for (autoextend.go).
	AutoExtend model.AutoExtendPolicy
	// Organization: the accounts listed are the organization's whole set, and the screen
	// states its Capacity Block instances against AWS's cap on any date; OrganizationPartial:
	// only some of its accounts are listed, so the figures may be low.
	Organization, OrganizationPartial bool
	// Visible: the program opens on this screen. Connecting: the backend is being opened,
	// so nothing is listed until SetConnection says it is.
	Visible    bool
	Connecting bool
}

// Model is the blocks screen's state.
type Model struct {
	pc   *program.Context
	opts Options
	keys KeyMap

	area       screen.Area
	spin       string // the root's spinner, as drawn now
	visible    bool
	connecting bool
	connectErr error
	now        time.Time // the time shown, as of the last tick
	flash      screen.Flash

	table    blockstable.Model
	list     []model.Block
	loaded   bool // a listing arrived
	loading  bool
	id       int // of the latest listing; older answers are dropped
	cancel   context.CancelFunc
	err      error
	problems []source.BlockProblem
	regions  []string  // of the latest listing
	at       time.Time // backend time of the latest listing
	timer    int       // generation of the auto-refresh timer; older ticks are dropped
	// tickGen is the generation of the countdown's tick: one redraw at the next moment a
	// countdown shown changes; an older tick is dropped.
	tickGen int
	// detail: the block's detail has the focus (the moving keys scroll it); on narrow
	// terminals it fills the body.
	detail bool
	scroll pager.Scroll // of the selected block's detail; another block's opens at its top
	// notified holds every (block, warning) that has rung, so that each rings once.
	notified map[string]bool
	auto     autoAsks               // the auto-extension's asks (autoextend.go)
	fees     map[string]model.Money // of the latest listing
	quiet    []string               // regions not listed this time (no blocks when last listed)
	// several: the blocks of several accounts are listed, and each says whose it is.
	several bool
	// attached are the launches attached to blocks, by reservation id (byReservation);
	// attachedErr is the last failure to read them, said once; confirm is the reservation
	// whose attached launch waits for y or n to be cancelled.
	attached    map[string]source.AttachedLaunch
	attachedErr string
	confirm     string
}

// ListedMsg is a listing's answer; ID is the listing's (ListingID when it was asked).
// Attached are the launches attached to blocks, read with the list; AttachedErr why they
// could not be.
type ListedMsg struct {
	ID          int
	List        source.BlockList
	Err         error
	Attached    []source.AttachedLaunch
	AttachedErr error
}

// notifiedMsg is the outcome of delivering warnings outside the terminal.
type notifiedMsg struct{ failures []string }

// timerMsg is the auto-refresh; tickMsg the countdown's redraw of generation gen.
type timerMsg struct{ gen int }
type tickMsg struct{ gen int }

// OpenedMsg is the answer of the system opener.
type OpenedMsg struct {
	URL string
	Err error
}

// Owns reports whether msg is the screen's own, which the root hands it whatever screen is
// shown.
func Owns(msg tea.Msg) bool {
	switch msg.(type) {
	case ListedMsg, screen.RefreshBlocksMsg, notifiedMsg, timerMsg, tickMsg, OpenedMsg, cancelledMsg, autoMsg:
		return true
	}
	return false
}

// New builds the screen on the root's context. It does no I/O: Init lists the blocks.
func New(pc *program.Context, opts Options) Model {
	m := Model{pc: pc, opts: opts, keys: DefaultKeyMap(pc.ReadOnly), table: blockstable.New(pc.Theme),
		notified: map[string]bool{}, auto: autoAsks{asked: map[string]bool{}}, connecting: opts.Connecting, now: pc.Now()}
	m.table.SetRules(m.rules())
	if opts.Visible {
		m.visible = true // Init starts the countdown's tick
	}
	if !m.connecting && pc.Backend != nil {
		m.loading, m.id = true, 1 // Init lists them
	}
	return m
}

// Init lists the blocks and, on a visible screen, starts the countdown.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.loading {
		cmds = append(cmds, listCmd(m.pc.Backend, m.pc.Ctx, 1, m.Regions(), false))
	}
	if m.visible {
		cmds = append(cmds, m.tickCmd())
	}
	return tea.Batch(cmds...)
}

// rules are the lead times the warnings follow: the options', or a day ahead.
func (m Model) rules() model.WarnRules {
	if len(m.opts.WarnRules.Leads) == 0 {
		return model.DefaultWarnRules()
	}
	return m.opts.WarnRules
}

// Regions are the regions the blocks are listed in: every region that sells Capacity
// Blocks, so that a block bought from another machine is never missing (the backend lists
// the regions found empty only now and then); with --region, those regions and the regions
// of the blocks already listed, so that a block once seen keeps its warnings in the header.
func (m Model) Regions() []string {
	if len(m.opts.Regions) == 0 {
		return model.Regions()
	}
	var out []string
	add := func(r string) {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, r := range m.opts.Regions {
		add(r)
	}
	for _, r := range m.table.Regions() {
		add(r)
	}
	slices.Sort(out)
	return out
}

func (m Model) refreshEvery() time.Duration { return screen.RefreshEvery(m.opts.Refresh) }

// load lists the blocks now; the auto-refresh timer starts again from its answer.
func (m Model) load() (Model, tea.Cmd) { return m.listing(false) }

// Rescan lists the blocks of every region now, the quiet ones too: something was bought,
// or the person asked.
func (m Model) Rescan() (Model, tea.Cmd) { return m.listing(true) }

func (m Model) listing(all bool) (Model, tea.Cmd) {
	b := m.pc.Backend
	if b == nil || m.connecting {
		return m, nil
	}
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.id++
	m.timer++ // the pending timer is replaced by the one this answer starts
	m.cancel, m.loading = cancel, true
	return m, listCmd(b, ctx, m.id, m.Regions(), all)
}

// listCmd is the listing's command: the blocks, and the launches attached to them, read here
// since Update does no I/O.
func listCmd(b source.Backend, ctx context.Context, id int, regions []string, all bool) tea.Cmd {
	return func() tea.Msg {
		if r, ok := b.(source.Rescanner); ok && all {
			r.Forget()
		}
		list, err := b.Blocks(ctx, regions)
		msg := ListedMsg{ID: id, List: list, Err: err}
		msg.Attached, msg.AttachedErr = b.AttachedLaunches(ctx)
		return msg
	}
}

// update handles the screen's own messages (Owns), and the keys and the mouse while it is
// shown.
func (m Model) update(msg tea.Msg) (Model, tea.Cmd) {
	m.flash = screen.Flash{}
	switch msg := msg.(type) {
	case screen.BlockSeen:
		return m.Show(msg.Block), nil
	case ListedMsg:
		if msg.ID != m.id {
			return m, nil
		}
		m = m.onList(msg)
		countdown := m.startTick() // the countdowns shown may change sooner
		gen := m.timer
		next := tea.Tick(m.refreshEvery(), func(time.Time) tea.Msg { return timerMsg{gen} })
		m, ring := m.checkWarnings()
		return m, tea.Batch(next, ring, countdown)
	case timerMsg:
		if msg.gen != m.timer {
			return m, nil
		}
		return m.load()
	case screen.RefreshBlocksMsg:
		return m.Rescan()
	case notifiedMsg:
		if len(msg.failures) > 0 {
			m.flash = screen.Say("Notification failed: " + strings.Join(msg.failures, "; "))
		}
		return m, nil
	case tickMsg:
		if !m.visible || msg.gen != m.tickGen {
			return m, nil
		}
		// The root moves the time shown and tells the screen (Tick), which schedules the next.
		return m, screen.AskNow
	case OpenedMsg:
		if msg.Err != nil {
			m.flash = screen.Say("Could not open the browser (" + msg.Err.Error() + "); the console URL: " + msg.URL)
		} else {
			m.flash = screen.Say("Opened the console page in the browser.")
		}
		return m, nil
	case cancelledMsg:
		return m.onCancelled(msg)
	case autoMsg:
		return m.onAuto(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.mouse(msg.(tea.MouseMsg)), nil
	}
	return m, nil
}

// tickCmd is the countdown's next tick, at the first moment anything the screen shows by
// the clock changes (NextTick); none when nothing shown counts.
func (m Model) tickCmd() tea.Cmd {
	d, ok := m.NextTick()
	if !ok {
		return nil
	}
	if m.pc.Theme.Accessible {
		// A countdown read aloud or on a braille line changes once a minute, not each second.
		d = max(d, time.Minute)
	}
	gen := m.tickGen
	return tea.Tick(d, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// NextTick is how long from the screen's now until a countdown, a warning or a cell it
// shows changes with the clock: a second under an hour, the minute under a day, the hour
// beyond. ok is false with no block listed.
func (m Model) NextTick() (d time.Duration, ok bool) {
	now := m.now
	var next time.Time
	for _, b := range m.list {
		if c := b.CountdownsChangeAt(now, m.rules()); next.IsZero() || c.Before(next) {
			next = c
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return next.Sub(now), true
}

func (m Model) onList(msg ListedMsg) Model {
	m.loading, m.loaded = false, true
	m.err, m.problems, m.quiet = msg.Err, msg.List.Problems, msg.List.Quiet
	m.flash = screen.Unsay(RefreshFlash) // the listing it announced has ended
	if msg.AttachedErr != nil {
		// The attached launches are a file beside the journal: the blocks stand without
		// them, and the same failure every refresh is said only the first time.
		if e := msg.AttachedErr.Error(); e != m.attachedErr {
			m.attachedErr = e
			m.flash = screen.Say("Could not read the launches attached to blocks: " + e)
		}
	} else {
		m.attachedErr, m.attached = "", byReservation(msg.Attached)
	}
	if msg.Err != nil && len(msg.List.Blocks) == 0 {
		return m // keep the last list: a failed refresh does not empty the screen
	}
	if !msg.List.Now.IsZero() {
		// The UI's clock follows the backend's: the emulator's may have been moved. The
		// listing is shown, and its warnings checked, at its own time; the root moves every
		// screen's after it (Tick).
		m.pc.Clock.Sync(msg.List.Now)
		m.at = msg.List.Now
		m = m.SetNow(msg.List.Now)
	}
	m.list, m.fees = msg.List.Blocks, msg.List.Fees
	m.regions = m.Regions()
	m.several = SeveralAccounts(m.pc.Backend)
	m.table.ShowAccounts(m.several)
	before, _ := m.table.Selected()
	m.table.Set(msg.List.Blocks, msg.List.Fees, m.now)
	if after, _ := m.table.Selected(); after.ReservationID != before.ReservationID {
		m.scroll = pager.Scroll{} // its block went away: the next one opens at its top
	}
	return m
}

// SeveralAccounts reports whether b lists the blocks of more than one account.
func SeveralAccounts(b source.Backend) bool {
	a, ok := b.(source.Accounts)
	return ok && len(a.Accounts()) > 1
}

// Show puts a block as a dialog just read it into the list (a new one, bought now, is
// added), so that the screen does not show an older state than the receipt.
func (m Model) Show(b model.Block) Model {
	list := slices.Clone(m.list)
	i := slices.IndexFunc(list, func(x model.Block) bool { return x.ReservationID == b.ReservationID && x.Region == b.Region })
	if i >= 0 {
		list[i] = b
	} else {
		list = append(list, b)
	}
	m.list = list
	m.table.Set(list, m.fees, m.now)
	return m
}

// enter shows the screen: the countdown ticks, and the blocks are listed at once when they
// have not been yet, or when regions were chosen on the search screen since.
func (m Model) enter() (Model, tea.Cmd) {
	m.visible = true
	cmds := []tea.Cmd{m.startTick()}
	stale := m.loaded && !slices.Equal(m.regions, m.Regions())
	if !m.loading && (!m.loaded || stale) {
		var cmd tea.Cmd
		m, cmd = m.load()
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// leave hides the screen: its countdown stops at the next tick.
func (m Model) leave() Model {
	m.visible = false
	return m
}

// startTick schedules the countdown's next tick while the screen is visible; a tick
// scheduled before is dropped when it comes.
func (m *Model) startTick() tea.Cmd {
	m.tickGen++
	if !m.visible {
		return nil
	}
	return m.tickCmd()
}

// SetNow is the time the screen shows: the root's, as its frame and its Tick carry it.
func (m Model) SetNow(t time.Time) Model {
	m.now = t
	m.table.SetNow(t)
	return m
}

// tick moves the time shown to now (the root's minute, or the NowMsg the screen's countdown
// asked for): the warnings new at it ring, and a visible screen's countdown schedules its
// next tick from it.
func (m Model) tick(now time.Time) (Model, tea.Cmd) {
	m = m.SetNow(now)
	m, ring := m.checkWarnings()
	return m, tea.Batch(m.startTick(), ring)
}

// Now is the time the screen shows, as of its last tick.
func (m Model) Now() time.Time { return m.now }

// SetArea is where the screen is drawn, and SetSpinner the root's spinner as drawn now.
func (m *Model) SetArea(a screen.Area)  { m.area = a }
func (m *Model) SetSpinner(view string) { m.spin = view }

// SetConnection says whether the backend is still being opened, or why it could not be.
// Once connected the blocks are listed.
func (m Model) SetConnection(connecting bool, err error) (Model, tea.Cmd) {
	m.connecting, m.connectErr = connecting, err
	if connecting || err != nil {
		return m, nil
	}
	return m.load()
}

// Flash is what the last Update says on the status line.
func (m Model) Flash() screen.Flash { return m.flash }

// Busy reports a listing under way, which keeps the root's spinner turning.
func (m Model) Busy() bool { return m.loading }

// Typing reports whether keys go into the table's filter, where q is a letter, or answer
// the question of a cancel, where n is no and a digit must not leave it pending.
func (m Model) Typing() bool { return m.table.Filtering() || m.Asking() }

// ListingID is the latest listing's; a ListedMsg of another is dropped.
func (m Model) ListingID() int { return m.id }

// Table is the blocks table as shown, DetailFocused whether the block's detail has the
// focus, Scroll how far it is scrolled.
func (m Model) Table() blockstable.Model { return m.table }
func (m Model) DetailFocused() bool      { return m.detail }
func (m Model) Scroll() pager.Scroll     { return m.scroll }

// ToggleNotify is n: the program's one switch for the blocks' warnings and the watch's
// news alike.
func (m Model) ToggleNotify() Model {
	m.flash = screen.ToggleNotify(m.pc)
	return m
}
