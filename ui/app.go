// Package ui is gpublock's terminal UI: one root model that owns the frame (the header and
// the footer), the global keys, the connection and help, and routes messages to its screens
// (ui/screen/search, ui/screen/blocks, ui/screen/advisor, ui/screen/report) and to a dialog
// on top when one is open. Every call to AWS runs in a tea.Cmd through Backend; Update
// never blocks.
package ui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/palette"
	"github.com/gpublock/gpublock/ui/program"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
	"github.com/gpublock/gpublock/ui/theme"
)

// Options configure the UI.
type Options struct {
	Backend   source.Backend
	Simulated bool   // the backend is the emulator: the header says SIMULATED
	Profile   string // AWS profile, shown in the header
	Region    string // the profile's region: the default search region
	NoColor   bool
	// Notice is said once, plainly, under the header until the first key: for example that
	// no credentials were found and the emulator is used.
	Notice string
	// Now is the clock; tests fix it. Location is the local time zone shown beside UTC.
	Now      func() time.Time
	Location *time.Location
	// Wall is the wall clock a person's reactions are timed by (nil: time.Now); tests
	// replace it so that no test sleeps through a confirmation's dwell.
	Wall func() time.Time
	// Context is the parent of every call; the program cancels it on exit.
	Context context.Context
	// Connect, when set, opens the backend behind the first frame; it then sets Backend,
	// Simulated, Profile, Region, Notice and the clock.
	Connect func(context.Context) (Connection, error)
	// Prices is the catalog offerings are compared with (the embedded one and the cache of
	// gpublock prices --refresh); nil means the embedded catalog.
	Prices *pricing.Catalog

	// ReadOnly removes purchase, extend and launch from every screen and from help.
	ReadOnly bool
	// MaxSpend, when set, is the spending cap: the purchase dialog refuses a fee above it.
	MaxSpend *model.Money
	// MaxSpendRule names where the cap came from ("--max-spend", "max_spend in …").
	MaxSpendRule string
	// DefaultTags are the purchase dialog's tags to start from; DefaultAMI the launch
	// form's image (the emulator gets a fixed one when it is empty).
	DefaultTags map[string]string
	DefaultAMI  string
	// PollInterval is how often a receipt or a launch looks at its block; 0 means 3 s.
	PollInterval time.Duration

	// The blocks screen (issue 7): StartOnBlocks opens the program on it; Refresh is how
	// often the blocks and the orders list are read again (0: 30 s); NoNotify turns off the bell and the desktop
	// notification (OSC 9) of new warnings, and of a watched search's new offerings.
	StartOnBlocks bool
	// StartOnAdvisor opens the program on the advisor screen (which capacity to buy for a job).
	StartOnAdvisor bool
	// StartOnReport opens the program on the report screen (what was paid and used).
	StartOnReport bool
	Refresh       time.Duration
	NoNotify      bool
	// NoMouse leaves the mouse to the terminal (its own text selection): no wheel, no click.
	NoMouse bool
	// Accessible is the mode for screen readers and braille displays (ui/a11y): nothing
	// animates, no drawing characters, tables and charts said in sentences.
	Accessible bool

	// WatchEvery is how often a watched search (w) runs again; 0 means 5 minutes.
	WatchEvery time.Duration

	// On call: BlockRegions narrows the blocks screen to these regions (nil: every region
	// that sells Capacity Blocks); WarnRules are the lead times of the warnings (zero: a
	// day ahead); Notify, when set, delivers a new warning outside the terminal (a command,
	// a webhook) and returns what failed, in words safe to show; it is called in a command,
	// never in Update. ExtendDays is the length the extend dialog preselects (0: none).
	// AutoExtend, when its Days are set, opens the extend dialog on each block the policy
	// would extend, once per block and lead: the person confirms on screen.
	BlockRegions []string
	WarnRules    model.WarnRules
	Notify       func(ctx context.Context, b model.Block, w model.Warning, now time.Time) []string
	ExtendDays   int
	AutoExtend   model.AutoExtendPolicy

	// Organization: the accounts listed (a backend over several, source.Accounts, or the
	// one) are the organization's whole set: the blocks screen states its Capacity Block
	// instances against AWS's cap of 256 on any date, and the purchase dialog warns of a
	// purchase that would pass it. OrganizationPartial: the accounts listed are only some
	// of the organization's, so its figures may be low, which both say.
	Organization, OrganizationPartial bool
}

// Model is the root model.
type Model struct {
	opts Options
	// start is what the screen shown first asks for when the program starts.
	start tea.Cmd
	// pc is shared with every screen and dialog: size, theme, clock, identity, backend.
	pc   *program.Context
	keys KeyMap
	help help.Model
	spin spinner.Model

	spinning bool // a spinner tick is in flight
	dialog   uidialog.Dialog
	// palette is the command palette when open (ui/palette), over the screen.
	palette *palette.Model
	// buyRows, when set, is the number of the search screen's rows the open purchase
	// dialog's offering was picked from (the search screen's RowsGone).
	buyRows *int64
	notice  string
	flash   string    // a one-line answer to the last key (copied, nothing to copy…)
	clock   time.Time // the time shown, as of the last tick

	// deferredAsks are the keys of the auto-extension's asks that came while a dialog was
	// open, given back to the blocks screen when it closes (giveBackAsks).
	deferredAsks []string

	connecting bool
	connectErr error

	screens    [numScreens]uiscreen.Screen
	screen     screenID // the one shown
	screenKeys screenKeyMap
}

// New builds the root model. It does no I/O: Init starts the identity call.
func New(opts Options) Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	clk := program.NewClock(opts.Now)
	th := theme.New(!opts.NoColor)
	th.Accessible = opts.Accessible
	pc := &program.Context{Ctx: opts.Context, Backend: opts.Backend, Simulated: opts.Simulated, ReadOnly: opts.ReadOnly,
		Theme: th, Clock: clk, Location: opts.Location, Wall: opts.Wall, NotifyOff: opts.NoNotify}
	h := help.New()
	h.Styles = help.Styles{
		ShortKey: th.HelpKey, ShortDesc: th.HelpDesc, ShortSeparator: th.HelpSep,
		FullKey: th.HelpKey, FullDesc: th.HelpDesc, FullSeparator: th.HelpSep, Ellipsis: th.HelpSep,
	}
	m := Model{
		opts:   opts,
		keys:   DefaultKeyMap(),
		help:   h,
		spin:   spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(th.Accent)),
		notice: opts.Notice,
		clock:  clk.Now(),
		pc:     pc,
		// Init starts the spinner for the identity call; a second tick chain would double
		// its speed.
		spinning:   true,
		connecting: opts.Connect != nil,
		screenKeys: defaultScreenKeys(),
	}
	m.screens = [numScreens]uiscreen.Screen{
		screenSearch: searchscreen.New(pc, searchscreen.Options{Catalog: opts.Prices, Region: opts.Region,
			WatchEvery: opts.WatchEvery, Connecting: opts.Connect != nil}),
		screenBlocks: blockscreen.New(pc, blockscreen.Options{Refresh: opts.Refresh,
			Regions: opts.BlockRegions, WarnRules: opts.WarnRules, Notify: opts.Notify, AutoExtend: opts.AutoExtend,
			Organization: opts.Organization, OrganizationPartial: opts.OrganizationPartial, Visible: opts.StartOnBlocks, Connecting: opts.Connect != nil}),
		screenAdvisor: advisorui.New(pc, advisorui.Options{Catalog: opts.Prices, Region: opts.Region}),
		screenReport:  reportscreen.New(pc, reportscreen.Options{Catalog: opts.Prices, Regions: opts.BlockRegions}),
	}
	switch {
	case opts.StartOnBlocks:
		m.screen = screenBlocks
	case opts.StartOnAdvisor:
		m.screen = screenAdvisor
	case opts.StartOnReport:
		// Shown from the first frame, it reads at once (or once the backend connects).
		m.screen = screenReport
		m.screens[screenReport], m.start = m.screens[screenReport].Enter()
	}
	return m
}

// Init loads the identity behind a spinner and starts the clock; the first frame does not
// wait for either.
func (m Model) Init() tea.Cmd {
	first := identityCmd(m.pc.Ctx, m.pc.Backend)
	if m.connecting {
		first = connectCmd(m.pc.Ctx, m.opts.Connect)
	}
	// The terminal's background chooses the light or the dark palette (ui/theme).
	cmds := []tea.Cmd{first, m.spinTick(), clockCmd(), tea.RequestBackgroundColor, m.start}
	for _, s := range m.screens {
		cmds = append(cmds, s.Init())
	}
	return tea.Batch(cmds...)
}

type clockMsg time.Time

func clockCmd() tea.Cmd {
	return tea.Every(time.Minute, func(t time.Time) tea.Msg { return clockMsg(t) })
}

// busy reports whether anything is loading, which is what keeps the spinner turning.
func (m Model) busy() bool {
	if m.connecting || !m.pc.Identity.Known {
		return true
	}
	for _, s := range m.screens {
		if s.Busy() {
			return true
		}
	}
	return false
}

// Update routes a message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	for id, s := range m.screens {
		if s.Owns(msg) {
			return m.updateScreen(screenID(id), msg)
		}
	}
	if uiscreen.IsOpen(msg) {
		if m.dialog != nil {
			// A second key asked for another dialog before the first one's opened: the
			// first stays, as it would had it opened at once. The auto-extension's ask
			// waits for it to close.
			if o, ok := msg.(uiscreen.OpenExtend); ok && o.Ask != nil {
				m.deferredAsks = append(m.deferredAsks, o.Ask.Key)
			}
			return m, nil
		}
		return m.openDialog(msg)
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.pc.Width, m.pc.Height = msg.Width, msg.Height
		m.help.SetWidth(m.pc.Width)
		if m.dialog != nil {
			return m.updateDialog(uidialog.SizeMsg(m.actionEnv().Size))
		}
		return m, nil
	case tea.BackgroundColorMsg:
		// Every copy of the theme, in the panes and the dialogs, follows.
		m.pc.Theme.SetDarkBackground(msg.IsDark())
		return m, nil
	case uidialog.BlockPolledMsg:
		// The dialog that asked reads it too; the screens show the block as it now is.
		if msg.Found {
			f := m.frame()
			m, _ = m.tellScreens(func(s uiscreen.Screen) (uiscreen.Screen, tea.Cmd) {
				return s.Update(uiscreen.BlockSeen{Block: msg.Block}, f)
			})
		}
	case uidialog.RootMsg:
		return m.onRootMsg(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.onMouse(msg.(tea.MouseMsg)), nil
	case clockMsg:
		m, tick := m.moveClock()
		return m, tea.Batch(clockCmd(), tick)
	case uiscreen.NowMsg:
		return m.moveClock()
	case spinner.TickMsg:
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		m.spinning = true
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case snapshotMsg:
		return m.onSnapshot(msg), nil
	case connectedMsg:
		return m.onConnected(msg)
	case identityMsg:
		m.pc.Identity = program.Identity{Identity: msg.id, Err: msg.err, Known: true}
		return m, nil
	}
	if m.dialog != nil {
		return m.updateDialog(msg)
	}
	return m, nil
}

// spinCmd starts the spinner if something became busy and it is not turning.
func (m *Model) spinCmd() tea.Cmd {
	if m.spinning || !m.busy() {
		return nil
	}
	m.spinning = true
	return m.spinTick()
}

// spinTick turns the spinner, which the accessible mode never does: a frame that changes
// with nothing new to say is read aloud again.
func (m Model) spinTick() tea.Cmd {
	if m.opts.Accessible {
		return nil
	}
	return m.spin.Tick
}

// spinView is the spinner as drawn now: in the accessible mode the word beside it says
// what is happening, and the spinner nothing.
func (m Model) spinView() string {
	if m.opts.Accessible {
		return ""
	}
	return m.spin.View()
}

// typing reports whether keys go into a text field, where q is a letter.
func (m Model) typing() bool { return m.current().Typing() }

func (m Model) handleKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	m.notice = ""
	m.flash = ""
	keys := m.keys
	if key.Matches(k, keys.ForceQuit) {
		// A purchase or launch in flight: quitting would leave its outcome unread. The
		// dialog warns, and quits on a second ctrl+c.
		if b, ok := m.dialog.(interface{ Busy() bool }); ok && b.Busy() {
			return m.updateDialog(k)
		}
		return m.quit()
	}
	if m.pc.Width > 0 && m.layout().tooSmall {
		// Nothing but the message is on screen, no text field among it: q quits.
		if key.Matches(k, keys.Quit) {
			return m.quit()
		}
		return m, nil
	}
	if m.palette != nil {
		return m.paletteKeyPress(k)
	}
	if key.Matches(k, keys.Snapshot) {
		return m, m.snapshotCmd()
	}
	if m.dialog != nil {
		return m.updateDialog(k)
	}
	if m.opensPalette(k) {
		return m.openPalette(), nil
	}
	// No form field takes a "?", so help opens from them too; a filter may hold one.
	if key.Matches(k, keys.Help) && !m.current().Filtering() {
		return m.openHelp(), nil
	}
	// Without a backend the form is of no use, so q quits from it too.
	if (!m.typing() || m.connectErr != nil) && key.Matches(k, keys.Quit) {
		return m.quit()
	}
	// Digits and brackets are letters in a text field; alt+digit switches from anywhere.
	if !m.typing() || k.Mod.Contains(tea.ModAlt) {
		if mm, cmd, ok := m.screenKey(k); ok {
			return mm, cmd
		}
	}
	return m.updateScreen(m.screen, k)
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	m, _ = m.tellScreens(func(s uiscreen.Screen) (uiscreen.Screen, tea.Cmd) { return s.Stop(), nil })
	return m, tea.Quit
}
