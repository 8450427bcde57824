package blocks

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/screen"
)

// The blocks are a screen of the root's (screen.Screen).
var _ screen.Screen = Model{}

// At is the screen as drawn in f.
func (m Model) At(f screen.Frame) Model {
	m = m.SetNow(f.Now)
	m.SetArea(f.Area)
	m.SetSpinner(f.Spin)
	return m
}

func (m Model) Owns(msg tea.Msg) bool { return Owns(msg) }

func (m Model) Update(msg tea.Msg, f screen.Frame) (screen.Screen, tea.Cmd) {
	return m.At(f).update(msg)
}

func (m Model) View(f screen.Frame) string      { return m.At(f).render() }
func (m Model) Enter() (screen.Screen, tea.Cmd) { return m.enter() }
func (m Model) Leave() screen.Screen            { return m.leave() }

// Changed: the blocks change, so every region is listed again, the quiet ones too.
func (m Model) Changed() (screen.Screen, tea.Cmd)           { return m.Rescan() }
func (m Model) Stop() screen.Screen                         { return m }
func (m Model) Tick(now time.Time) (screen.Screen, tea.Cmd) { return m.tick(now) }

// Connect: connected, it lists at once, since the header counts the blocks' warnings on
// every screen.
func (m Model) Connect(c screen.Connection) (screen.Screen, tea.Cmd) {
	return m.SetConnection(false, c.Err)
}

func (m Model) Filtering() bool           { return m.Typing() }
func (m Model) Header() screen.HeaderPart { return screen.HeaderPart{Warnings: m.Warnings()} }
func (m Model) RowsGone(int64) string     { return "" }

func (m Model) Status() string {
	if m.table.Filtering() { // Typing is also the question of a cancel, which the flash asks
		return "Filtering: blocks matching every word stay · enter keeps the filter · esc clears it"
	}
	return "" // the search's state is the search screen's
}

func (m Model) ShortHelp(h screen.HelpEnv) []key.Binding {
	if m.Typing() {
		// Keys go into the filter: enter keeps it, q is a letter.
		return append(m.shortHelp(), h.ForceQuit)
	}
	return append(m.shortHelp(), h.ToSearch, h.Help, h.Quit)
}

func (m Model) HelpGroups(h screen.HelpEnv) []screen.KeyGroup {
	return append(append([]screen.KeyGroup{h.Screens}, m.KeyGroups()...),
		screen.KeyGroup{Title: "Moving", Keys: movingKeys(m.table.KeyMap().Nav())}, h.Everywhere(h.Back))
}

// movingKeys are the keys that move a table's cursor, for help.
func movingKeys(n table.Nav) []key.Binding {
	return []key.Binding{n.Up, n.Down, n.PageUp, n.PageDown, n.HalfUp, n.HalfDown, n.Top, n.Bottom}
}
