package report

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/screen"
)

// The report is a screen of the root's (screen.Screen).
var _ screen.Screen = Model{}

// At is the screen as drawn in f.
func (m Model) At(f screen.Frame) Model {
	m.SetArea(f.Area)
	m.SetSpinner(f.Spin)
	return m
}

func (m Model) Owns(msg tea.Msg) bool { return Owns(msg) }

func (m Model) Update(msg tea.Msg, f screen.Frame) (screen.Screen, tea.Cmd) {
	if _, mouse := msg.(tea.MouseMsg); mouse {
		return m, nil // the report takes no mouse
	}
	return m.At(f).update(msg)
}

func (m Model) View(f screen.Frame) string              { return m.At(f).render() }
func (m Model) Enter() (screen.Screen, tea.Cmd)         { return m.enter() }
func (m Model) Leave() screen.Screen                    { return m.leave() }
func (m Model) Tick(time.Time) (screen.Screen, tea.Cmd) { return m, nil }
func (m Model) Changed() (screen.Screen, tea.Cmd)       { return m, nil }
func (m Model) Stop() screen.Screen                     { return m }
func (m Model) Typing() bool                            { return false }
func (m Model) Filtering() bool                         { return false }
func (m Model) Status() string                          { return "" }
func (m Model) Header() screen.HeaderPart               { return screen.HeaderPart{} }
func (m Model) RowsGone(int64) string                   { return "" }

func (m Model) Connect(c screen.Connection) (screen.Screen, tea.Cmd) {
	if c.Err != nil {
		return m, nil
	}
	// A report screen shown before the backend was there reads now.
	return m.Connected()
}

func (m Model) ShortHelp(h screen.HelpEnv) []key.Binding {
	return append(m.keys.ShortHelp(), h.ToSearch, h.Help, h.Quit)
}

func (m Model) HelpGroups(h screen.HelpEnv) []screen.KeyGroup {
	return append(m.KeyGroups(), h.Screens, h.Everywhere())
}
