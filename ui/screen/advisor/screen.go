package advisor

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/screen"
)

// The advisor is a screen of the root's (screen.Screen).
var _ screen.Screen = Model{}

func (m Model) Owns(msg tea.Msg) bool { return Owns(msg) }

func (m Model) Update(msg tea.Msg, _ screen.Frame) (screen.Screen, tea.Cmd) {
	if _, mouse := msg.(tea.MouseMsg); mouse {
		return m, nil // the advisor takes no mouse
	}
	return m.update(msg)
}

func (m Model) View(f screen.Frame) string {
	m.SetArea(f.Area)
	return m.render()
}

func (m Model) Enter() (screen.Screen, tea.Cmd)                    { return m, nil }
func (m Model) Leave() screen.Screen                               { return m }
func (m Model) Connect(screen.Connection) (screen.Screen, tea.Cmd) { return m, nil }
func (m Model) Tick(time.Time) (screen.Screen, tea.Cmd)            { return m, nil }
func (m Model) Changed() (screen.Screen, tea.Cmd)                  { return m, nil }
func (m Model) Stop() screen.Screen                                { return m }
func (m Model) Busy() bool                                         { return m.Running() }
func (m Model) Flash() screen.Flash                                { return screen.Flash{} }
func (m Model) Filtering() bool                                    { return false }
func (m Model) Header() screen.HeaderPart                          { return screen.HeaderPart{} }
func (m Model) RowsGone(int64) string                              { return "" }

func (m Model) Status() string {
	if m.Typing() {
		return "Typing: q is a letter here · ctrl+c quits · tab next field · enter advises"
	}
	return "" // the advisor shows its own search's progress
}

func (m Model) ShortHelp(h screen.HelpEnv) []key.Binding {
	quit := h.Quit
	if m.Typing() {
		quit = h.ForceQuit
	}
	return append(m.shortHelp(), h.ToSearch, h.Help, quit)
}

func (m Model) HelpGroups(h screen.HelpEnv) []screen.KeyGroup {
	return append(m.KeyGroups(), h.Screens, h.Everywhere())
}
