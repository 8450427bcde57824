package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	uiscreen "github.com/gpublock/gpublock/ui/screen"
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

// header is every screen's part of the header, together.
func (m Model) header() uiscreen.HeaderPart {
	var h uiscreen.HeaderPart
	for _, s := range m.screens {
		p := s.Header()
		h.NoteVerb += p.NoteVerb
		h.NoteRegions += p.NoteRegions
		h.Badge += p.Badge
		h.BadgeShort += p.BadgeShort
		h.Warnings = append(h.Warnings, p.Warnings...)
	}
	return h
}

// tellScreens tells every screen the same thing, as tell does it to one, and takes back
// each screen and its command.
func (m Model) tellScreens(tell func(uiscreen.Screen) (uiscreen.Screen, tea.Cmd)) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(m.screens))
	for id, s := range m.screens {
		s, cmd := tell(s)
		m.screens[id] = s
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// current is the screen shown.
func (m Model) current() uiscreen.Screen { return m.screens[m.screen] }

// frame is the screen's frame now.
func (m Model) frame() uiscreen.Frame {
	return uiscreen.Frame{Area: m.area(), Spin: m.spinView(), Now: m.clock}
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
	return m.tellScreens(func(s uiscreen.Screen) (uiscreen.Screen, tea.Cmd) { return s.Tick(m.clock) })
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
