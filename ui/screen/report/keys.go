package report

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/screen"
)

// KeyMap is the report screen's keys; it feeds help.
type KeyMap struct {
	Reload         key.Binding
	Earlier, Later key.Binding // move the window by a month
	Span           key.Binding // the last 12 or 3 months
	Next, Prev     key.Binding // the views under the months
	// Moving in the view's rows.
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
}

// DefaultKeyMap returns the keys. Nothing here spends, so read-only mode changes none.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Reload:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "read again")),
		Earlier:  key.NewBinding(key.WithKeys("<", "left"), key.WithHelp("<", "window a month earlier")),
		Later:    key.NewBinding(key.WithKeys(">", "right"), key.WithHelp(">", "window a month later")),
		Span:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "last 12 ⇄ 3 months")),
		Next:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "reservations ⇄ by account, source, tag")),
		Prev:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous view")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last")),
	}
}

// nav is the moving keys as the table's cursor helpers take them.
func (k KeyMap) nav() table.Nav {
	return table.Nav{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown, Top: k.Top, Bottom: k.Bottom}
}

func (k KeyMap) all() []key.Binding {
	return []key.Binding{k.Reload, k.Earlier, k.Later, k.Span, k.Next, k.Prev, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

// ShortHelp and FullHelp make the key map a help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Earlier, k.Later, k.Span, k.Next, k.Reload}
}
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.all()} }

// KeyMap is the screen's keys.
func (m Model) KeyMap() KeyMap { return m.keys }

// KeyGroups are the screen's keys for the help screen, titled.
func (m Model) KeyGroups() []screen.KeyGroup {
	k := m.keys
	return []screen.KeyGroup{
		{Title: "Report screen", Keys: []key.Binding{k.Earlier, k.Later, k.Span, k.Next, k.Prev, k.Reload}},
		{Title: "Report rows", Keys: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}},
	}
}

func keyIs(k tea.KeyPressMsg, b ...key.Binding) bool { return key.Matches(k, b...) }
