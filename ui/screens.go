package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	reportscreen "github.com/gpublock/gpublock/ui/screen/report"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// screenID names a screen of the program: the search (ui/screen/search), the blocks
// (ui/screen/blocks), the advisor (ui/screen/advisor) and the report (ui/screen/report),
// each a package of its own on the shared program.Context. 1 to 4, [ and ] switch between
// them where keys are not text, alt+1… from anywhere. The header, the footer, the help
// dialog, the clock, the identity and the dialog slot are the root's and serve every screen.
type screenID int

const (
	screenSearch  screenID = iota
	screenBlocks           // every block, its warnings and countdowns
	screenAdvisor          // which capacity to buy for a job
	screenReport           // what was paid and what was used
	numScreens
)

// Screen is a screen as the root holds it, as gh-dash holds its sections: the root routes
// messages, keys, the view, the footer and help to the one shown through this, never
// asking which one it is.
type Screen interface {
	Init() tea.Cmd
	// Owns reports whether msg answers one of the screen's own commands: it goes to the
	// screen wherever the screen is.
	Owns(msg tea.Msg) bool
	// Update and View take the frame the screen is drawn in.
	Update(msg tea.Msg, f frame) (Screen, tea.Cmd)
	View(f frame) string
	// Enter and Leave are the screen being shown and hidden.
	Enter() (Screen, tea.Cmd)
	Leave() Screen
	// Connect is the backend there (or why it is not), told every screen at once.
	Connect(c connection) (Screen, tea.Cmd)
	// Tick is the root's minute: the time shown moved to now, told every screen at once.
	Tick(now time.Time) (Screen, tea.Cmd)
	// Changed: a dialog bought, extended or launched something, so what a screen read of
	// AWS may be out of date. Stop: the program quits, so what runs is cancelled.
	Changed() (Screen, tea.Cmd)
	Stop() Screen
	// Busy: something is loading, which keeps the spinner turning.
	Busy() bool
	// Flash is what the last Update says on the status line.
	Flash() uiscreen.Flash
	// Typing: keys go into a text field, where q and the digits are letters. Filtering: a
	// filter takes them, where ? is a letter too.
	Typing() bool
	Filtering() bool
	// Status is the status line when nothing was said after a key.
	Status() string
	// Header is what the screen says in the root's header, on every screen.
	Header() headerPart
	// ShortHelp is the footer's keys, with the root's; HelpGroups the help's, by title, and
	// KeyGroups the screen's own among them (the search's help lists the blocks' too).
	ShortHelp(r helpEnv) []key.Binding
	HelpGroups(r helpEnv) []keyGroup
	KeyGroups() []keyGroup
	// RowsGone is why the rows numbered rows, which an offering was picked from, are no
	// longer the ones the screen shows ("" while they are, and on a screen without rows
	// to buy from): a purchase must not stay open over rows it did not show.
	RowsGone(rows int64) string
}

// helpEnv is what a screen's help adds to its own keys: the root's keys, the screen keys and
// the blocks' groups, which the search screen's help lists too.
type helpEnv struct {
	root    KeyMap
	screens keyGroup
	blocks  []keyGroup
}

// everywhere is the root's keys that work on every screen, for help.
func (h helpEnv) everywhere(more ...key.Binding) keyGroup {
	return keyGroup{Title: "Everywhere", Keys: append([]key.Binding{h.root.Help, h.root.Quit, h.root.ForceQuit}, more...)}
}

// headerPart is what a screen adds to the header shown on every screen: a note after the
// region (the search's "searched 3 regions"), its badge in the long and the short header
// (the watch's), and the kinds of the warnings in force (the blocks'), which the header
// sums up.
type headerPart struct {
	noteVerb, noteRegions string
	badge, badgeShort     string
	warnings              []model.WarningKind
}

// header is every screen's part of the header, together.
func (m Model) header() headerPart {
	var h headerPart
	for _, s := range m.screens {
		p := s.Header()
		h.noteVerb += p.noteVerb
		h.noteRegions += p.noteRegions
		h.badge += p.badge
		h.badgeShort += p.badgeShort
		h.warnings = append(h.warnings, p.warnings...)
	}
	return h
}

// frame is what the root lends a screen to update and draw it: its area, the root's
// spinner, and the time shown (the root's clock).
type frame struct {
	area uiscreen.Area
	spin string
	now  time.Time
}

// searchTab is the search screen.
type searchTab struct{ m searchscreen.Model }

func (s searchTab) at(f frame) searchscreen.Model {
	m := s.m
	m.SetArea(f.area)
	m.SetSpinner(f.spin)
	m.SetNow(f.now)
	return m
}
func (s searchTab) Init() tea.Cmd         { return s.m.Init() }
func (s searchTab) Owns(msg tea.Msg) bool { return searchscreen.Owns(msg) }
func (s searchTab) Update(msg tea.Msg, f frame) (Screen, tea.Cmd) {
	m, cmd := s.at(f).Update(msg)
	return searchTab{m}, cmd
}
func (s searchTab) View(f frame) string      { return s.at(f).View() }
func (s searchTab) Enter() (Screen, tea.Cmd) { return s, nil }
func (s searchTab) Leave() Screen            { return s }

// The search shows what is on offer now.
func (s searchTab) Changed() (Screen, tea.Cmd) {
	m, cmd := s.m.Refresh()
	return searchTab{m}, cmd
}
func (s searchTab) Stop() Screen { return searchTab{s.m.Stop()} }

// Relative dates ("now", "+4w") and the 8-week limit move with the clock.
func (s searchTab) Tick(time.Time) (Screen, tea.Cmd) { return searchTab{s.m.Revalidate()}, nil }
func (s searchTab) Connect(c connection) (Screen, tea.Cmd) {
	if c.err != nil {
		return searchTab{s.m.SetConnection(false, c.err)}, nil
	}
	return searchTab{s.m.Connected(c.region, c.sources)}, nil
}
func (s searchTab) Busy() bool            { return s.m.Busy() }
func (s searchTab) Flash() uiscreen.Flash { return s.m.Flash() }
func (s searchTab) Typing() bool          { return s.m.Typing() }
func (s searchTab) Filtering() bool       { return s.m.Filtering() }
func (s searchTab) Status() string        { return s.m.StatusLine(s.m.Typing()) }
func (s searchTab) Header() headerPart {
	verb, regions := s.m.HeaderNote()
	return headerPart{noteVerb: verb, noteRegions: regions, badge: s.m.WatchBadge(false), badgeShort: s.m.WatchBadge(true)}
}
func (s searchTab) ShortHelp(helpEnv) []key.Binding { return s.m.ShortHelp() }
func (s searchTab) KeyGroups() []keyGroup           { return s.m.HelpGroups() }
func (s searchTab) HelpGroups(h helpEnv) []keyGroup {
	return append(append(s.KeyGroups(), h.screens), h.blocks...)
}
func (s searchTab) RowsGone(rows int64) string { return s.m.RowsOnScreen(rows) }

// blocksTab is the blocks screen.
type blocksTab struct{ m blockscreen.Model }

func (s blocksTab) at(f frame) blockscreen.Model {
	m := s.m.SetNow(f.now)
	m.SetArea(f.area)
	m.SetSpinner(f.spin)
	return m
}
func (s blocksTab) Init() tea.Cmd         { return s.m.Init() }
func (s blocksTab) Owns(msg tea.Msg) bool { return blockscreen.Owns(msg) }
func (s blocksTab) Update(msg tea.Msg, f frame) (Screen, tea.Cmd) {
	m, cmd := s.at(f).Update(msg)
	return blocksTab{m}, cmd
}
func (s blocksTab) View(f frame) string { return s.at(f).View() }
func (s blocksTab) Enter() (Screen, tea.Cmd) {
	m, cmd := s.m.Enter()
	return blocksTab{m}, cmd
}
func (s blocksTab) Leave() Screen { return blocksTab{s.m.Leave()} }

// The blocks change: every region is listed again, the quiet ones too.
func (s blocksTab) Changed() (Screen, tea.Cmd) {
	m, cmd := s.m.Rescan()
	return blocksTab{m}, cmd
}
func (s blocksTab) Stop() Screen { return s }

func (s blocksTab) Tick(now time.Time) (Screen, tea.Cmd) {
	m, cmd := s.m.Tick(now)
	return blocksTab{m}, cmd
}
func (s blocksTab) Connect(c connection) (Screen, tea.Cmd) {
	// Connected, it lists at once: the header counts the blocks' warnings on every screen.
	m, list := s.m.SetConnection(false, c.err)
	return blocksTab{m}, list
}
func (s blocksTab) Busy() bool            { return s.m.Busy() }
func (s blocksTab) Flash() uiscreen.Flash { return s.m.Flash() }
func (s blocksTab) Typing() bool          { return s.m.Typing() }
func (s blocksTab) Filtering() bool       { return s.m.Typing() }
func (s blocksTab) Header() headerPart    { return headerPart{warnings: s.m.Warnings()} }
func (s blocksTab) ShortHelp(h helpEnv) []key.Binding {
	if s.m.Typing() {
		// Keys go into the filter: enter keeps it, q is a letter.
		return append(s.m.ShortHelp(), h.root.ForceQuit)
	}
	return append(s.m.ShortHelp(), h.screens.Keys[screenSearch], h.root.Help, h.root.Quit)
}
func (s blocksTab) KeyGroups() []keyGroup { return s.m.HelpGroups() }
func (s blocksTab) HelpGroups(h helpEnv) []keyGroup {
	return append(append([]keyGroup{h.screens}, s.KeyGroups()...),
		keyGroup{Title: "Moving", Keys: movingKeys(s.m.Table().KeyMap().Nav())}, h.everywhere(h.root.Back))
}
func (s blocksTab) RowsGone(int64) string { return "" }
func (s blocksTab) Status() string {
	if s.m.Table().Filtering() { // Typing is also the question of a cancel, which the flash asks
		return "Filtering: blocks matching every word stay · enter keeps the filter · esc clears it"
	}
	return "" // the search's state is the search screen's
}

// advisorTab is the advisor screen.
type advisorTab struct{ m advisorui.Model }

func (s advisorTab) Init() tea.Cmd         { return s.m.Init() }
func (s advisorTab) Owns(msg tea.Msg) bool { return advisorui.Owns(msg) }
func (s advisorTab) Update(msg tea.Msg, f frame) (Screen, tea.Cmd) {
	if _, mouse := msg.(tea.MouseMsg); mouse {
		return s, nil // the advisor takes no mouse
	}
	m, cmd := s.m.Update(msg)
	return advisorTab{m}, cmd
}
func (s advisorTab) View(f frame) string {
	m := s.m
	m.SetArea(f.area)
	return m.View()
}
func (s advisorTab) Enter() (Screen, tea.Cmd)             { return s, nil }
func (s advisorTab) Leave() Screen                        { return s }
func (s advisorTab) Connect(connection) (Screen, tea.Cmd) { return s, nil }
func (s advisorTab) Tick(time.Time) (Screen, tea.Cmd)     { return s, nil }
func (s advisorTab) Changed() (Screen, tea.Cmd)           { return s, nil }
func (s advisorTab) Stop() Screen                         { return s }
func (s advisorTab) Busy() bool                           { return s.m.Running() }
func (s advisorTab) Flash() uiscreen.Flash                { return uiscreen.Flash{} }
func (s advisorTab) Typing() bool                         { return s.m.Typing() }
func (s advisorTab) Filtering() bool                      { return false }
func (s advisorTab) Header() headerPart                   { return headerPart{} }
func (s advisorTab) ShortHelp(h helpEnv) []key.Binding {
	quit := h.root.Quit
	if s.m.Typing() {
		quit = h.root.ForceQuit
	}
	return append(s.m.ShortHelp(), h.screens.Keys[screenSearch], h.root.Help, quit)
}
func (s advisorTab) KeyGroups() []keyGroup { return s.m.HelpGroups() }
func (s advisorTab) HelpGroups(h helpEnv) []keyGroup {
	return append(s.KeyGroups(), h.screens, h.everywhere())
}
func (s advisorTab) RowsGone(int64) string { return "" }
func (s advisorTab) Status() string {
	if s.m.Typing() {
		return "Typing: q is a letter here · ctrl+c quits · tab next field · enter advises"
	}
	return "" // the advisor shows its own search's progress
}

// reportTab is the report screen.
type reportTab struct{ m reportscreen.Model }

func (s reportTab) at(f frame) reportscreen.Model {
	m := s.m
	m.SetArea(f.area)
	m.SetSpinner(f.spin)
	return m
}
func (s reportTab) Init() tea.Cmd         { return s.m.Init() }
func (s reportTab) Owns(msg tea.Msg) bool { return reportscreen.Owns(msg) }
func (s reportTab) Update(msg tea.Msg, f frame) (Screen, tea.Cmd) {
	if _, mouse := msg.(tea.MouseMsg); mouse {
		return s, nil // the report takes no mouse
	}
	m, cmd := s.at(f).Update(msg)
	return reportTab{m}, cmd
}
func (s reportTab) View(f frame) string { return s.at(f).View() }
func (s reportTab) Enter() (Screen, tea.Cmd) {
	m, cmd := s.m.Enter()
	return reportTab{m}, cmd
}
func (s reportTab) Leave() Screen                    { return reportTab{s.m.Leave()} }
func (s reportTab) Tick(time.Time) (Screen, tea.Cmd) { return s, nil }
func (s reportTab) Changed() (Screen, tea.Cmd)       { return s, nil }
func (s reportTab) Stop() Screen                     { return s }
func (s reportTab) Connect(c connection) (Screen, tea.Cmd) {
	if c.err != nil {
		return s, nil
	}
	// A report screen shown before the backend was there reads now.
	m, read := s.m.Connected()
	return reportTab{m}, read
}
func (s reportTab) Busy() bool            { return s.m.Busy() }
func (s reportTab) Flash() uiscreen.Flash { return s.m.Flash() }
func (s reportTab) Typing() bool          { return false }
func (s reportTab) Filtering() bool       { return false }
func (s reportTab) Status() string        { return "" }
func (s reportTab) Header() headerPart    { return headerPart{} }
func (s reportTab) ShortHelp(h helpEnv) []key.Binding {
	return append(s.m.ShortHelp(), h.screens.Keys[screenSearch], h.root.Help, h.root.Quit)
}
func (s reportTab) KeyGroups() []keyGroup { return s.m.HelpGroups() }
func (s reportTab) HelpGroups(h helpEnv) []keyGroup {
	return append(s.KeyGroups(), h.screens, h.everywhere())
}
func (s reportTab) RowsGone(int64) string { return "" }

// tellScreens tells every screen the same thing, as tell does it to one, and takes back
// each screen and its command.
func (m Model) tellScreens(tell func(Screen) (Screen, tea.Cmd)) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(m.screens))
	for id, s := range m.screens {
		s, cmd := tell(s)
		m.screens[id] = s
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// current is the screen shown.
func (m Model) current() Screen { return m.screens[m.screen] }

// frame is the screen's frame now.
func (m Model) frame() frame {
	return frame{area: m.area(), spin: m.spinView(), now: m.clock}
}

// area is the body a screen is drawn in, between the header and the footer; zero when the
// terminal is too small or not sized yet.
func (m Model) area() uiscreen.Area {
	l := m.layout()
	if m.pc.Width == 0 || l.tooSmall {
		return uiscreen.Area{}
	}
	return uiscreen.Area{Top: l.headerH, Width: m.pc.Width, Height: m.pc.Height - l.headerH - l.footerH}
}

// updateScreen hands a message to a screen and takes back what it says and whether the
// spinner must turn; when the screen set the clock to the backend's, every screen shows
// the backend's time from the next frame.
func (m Model) updateScreen(id screenID, msg tea.Msg) (Model, tea.Cmd) {
	syncs := m.pc.Clock.Syncs()
	s, cmd := m.screens[id].Update(msg, m.frame())
	m.screens[id] = s
	m.flash = s.Flash().Apply(m.flash)
	var tick tea.Cmd
	if m.pc.Clock.Syncs() != syncs {
		m, tick = m.moveClock()
	}
	m = m.closeStalePurchase()
	return m, tea.Batch(cmd, tick, m.spinCmd())
}

// switchScreen shows a screen.
func (m Model) switchScreen(to screenID) (tea.Model, tea.Cmd) {
	if m.screen == to {
		return m, nil
	}
	m.screens[m.screen] = m.current().Leave()
	m.screen = to
	s, cmd := m.current().Enter()
	m.screens[to] = s
	m, tick := m.moveClock()
	return m, tea.Batch(cmd, tick, m.spinCmd())
}

// moveClock moves the time every screen shows to the program's clock, which only the root
// reads: the minute, a screen's countdown (NowMsg), a connection, a screen shown.
func (m Model) moveClock() (Model, tea.Cmd) {
	m.clock = m.pc.Clock.Now()
	return m.tellScreens(func(s Screen) (Screen, tea.Cmd) { return s.Tick(m.clock) })
}

// screenKey handles the keys that change screens, which work wherever keys are not text.
func (m Model) screenKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	sk := m.screenKeys
	for id, b := range []key.Binding{sk.Search, sk.Blocks, sk.Advisor, sk.Report} {
		if key.Matches(k, b) {
			mm, cmd := m.switchScreen(screenID(id))
			return mm, cmd, true
		}
	}
	switch {
	case key.Matches(k, sk.Next):
		mm, cmd := m.switchScreen((m.screen + 1) % numScreens)
		return mm, cmd, true
	case key.Matches(k, sk.Prev):
		mm, cmd := m.switchScreen((m.screen + numScreens - 1) % numScreens)
		return mm, cmd, true
	}
	return m, nil, false
}

// The mouse, as k9s, gh-dash and lazygit have it: the wheel scrolls the table or the pane
// under the pointer, a click selects a table's row or sorts by the column whose title it
// hits. Options.NoMouse turns it off (and with it the terminal's mouse reporting, which
// takes the terminal's own text selection away). Dialogs take no mouse: what spends money
// is typed. Each screen finds the pane under the pointer itself.
func (m Model) onMouse(msg tea.MouseMsg) Model {
	if m.opts.NoMouse || m.dialog != nil || m.pc.Width == 0 || m.layout().tooSmall {
		return m
	}
	m, _ = m.updateScreen(m.screen, msg)
	return m
}

// The smallest terminal the UI draws in; below it a message asks for a larger one.
const (
	minWidth  = 60
	minHeight = 16
)

// layout is the root's frame at the current size: the header and the footer, between which
// the screen shown draws its panes (area). It is computed from the model, not stored, so
// that View and the paging in Update agree.
type layout struct {
	tooSmall bool
	headerH  int
	footerH  int
}

func (m Model) layout() layout {
	var l layout
	if m.pc.Width < minWidth || m.pc.Height < minHeight {
		l.tooSmall = true
		return l
	}
	l.headerH = 1
	if m.notice != "" {
		l.headerH++
	}
	l.footerH = 1 + len(m.flashLines())
	return l
}
