package advisor

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/screen"
)

// KeyMap is the advisor screen's keys; it feeds help.
type KeyMap struct {
	Next, Prev, Toggle, Run key.Binding // the form
	Yes, No                 key.Binding // a yes/no field
	Back                    key.Binding // from the form to the options it advised
	Up, Down, Buy, Edit     key.Binding // the options
	View, Rerun             key.Binding
	// Calendar moves its cursor across days (Left, Right) and regions (Up, Down).
	Left, Right key.Binding
}

// DefaultKeyMap returns the keys. readOnly disables Buy, so neither the screen nor help
// offers it.
func DefaultKeyMap(readOnly bool) KeyMap {
	km := KeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "yes/no")),
		Run:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "advise")),
		Yes:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the options")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Buy:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "buy this offering…")),
		Edit:   key.NewBinding(key.WithKeys("e", "esc"), key.WithHelp("e", "edit the job")),
		View:   key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "steps ⇄ chart ⇄ calendar")),
		Rerun:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "search again")),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "day before")),
		Right:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "day after")),
	}
	if readOnly {
		km.Buy.SetEnabled(false)
	}
	return km
}

// shortHelp is the footer's keys for where the screen is.
func (m Model) shortHelp() []key.Binding {
	k := m.keys
	if m.mode == modeForm {
		keys := []key.Binding{k.Run, k.Next, k.Prev}
		if m.fields[m.focus].boolean {
			keys = append(keys, k.Toggle)
		}
		return keys
	}
	if m.tab == tabCalendar {
		return []key.Binding{k.Buy, k.Left, k.Right, k.Up, k.Down, k.View, k.Edit, k.Rerun}
	}
	return []key.Binding{k.Buy, k.Up, k.Down, k.View, k.Edit, k.Rerun}
}

// FullHelp is every key of the screen, for the help dialog.
func (m Model) FullHelp() []key.Binding { return m.keys.all() }

func (k KeyMap) all() []key.Binding {
	return []key.Binding{k.Run, k.Next, k.Prev, k.Toggle, k.Yes, k.No, k.Back, k.Up, k.Down, k.Buy, k.Edit, k.View, k.Rerun, k.Left, k.Right}
}

// ShortHelp and FullHelp make the key map a help.KeyMap, as the blocks screen's is.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Run, k.Buy, k.View, k.Edit, k.Rerun}
}
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.all()} }

// KeyMap is the screen's keys.
func (m Model) KeyMap() KeyMap { return m.keys }

// KeyGroups are the screen's keys for the help screen, titled.
func (m Model) KeyGroups() []screen.KeyGroup {
	return []screen.KeyGroup{{Title: "Advisor screen", Keys: m.FullHelp()}}
}
