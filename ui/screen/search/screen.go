package search

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/screen"
)

// The search is a screen of the root's (screen.Screen).
var _ screen.Screen = Model{}

// At is the screen as drawn in f.
func (m Model) At(f screen.Frame) Model {
	m.SetArea(f.Area)
	m.SetSpinner(f.Spin)
	m.SetNow(f.Now)
	return m
}

func (m Model) Owns(msg tea.Msg) bool { return Owns(msg) }

func (m Model) Update(msg tea.Msg, f screen.Frame) (screen.Screen, tea.Cmd) {
	return m.At(f).update(msg)
}

func (m Model) View(f screen.Frame) string      { return m.At(f).render() }
func (m Model) Enter() (screen.Screen, tea.Cmd) { return m, nil }
func (m Model) Leave() screen.Screen            { return m }

// Changed: the search shows what is on offer now.
func (m Model) Changed() (screen.Screen, tea.Cmd) { return m.Refresh() }
func (m Model) Stop() screen.Screen               { return m.stop() }

// Tick: relative dates ("now", "+4w") and the 8-week limit move with the clock.
func (m Model) Tick(time.Time) (screen.Screen, tea.Cmd) { return m.Revalidate(), nil }

func (m Model) Connect(c screen.Connection) (screen.Screen, tea.Cmd) {
	if c.Err != nil {
		return m.SetConnection(false, c.Err), nil
	}
	return m.Connected(c.Region, c.Sources), nil
}

func (m Model) Status() string { return m.StatusLine(m.Typing()) }

func (m Model) Header() screen.HeaderPart {
	verb, regions := m.HeaderNote()
	return screen.HeaderPart{NoteVerb: verb, NoteRegions: regions, Badge: m.WatchBadge(false), BadgeShort: m.WatchBadge(true)}
}

func (m Model) ShortHelp(screen.HelpEnv) []key.Binding { return m.shortHelp() }

// HelpGroups: the search's help lists the blocks' keys too.
func (m Model) HelpGroups(h screen.HelpEnv) []screen.KeyGroup {
	return append(append(m.KeyGroups(), h.Screens), h.Blocks...)
}
