package help

import "charm.land/bubbles/v2/key"

// KeyMap is the help's own keys: it scrolls; any other key closes it.
type KeyMap struct {
	Up, Down, PageUp, PageDown key.Binding
	Close                      key.Binding
}

// DefaultKeyMap is the help's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Close:    key.NewBinding(key.WithKeys("esc", "enter", "q"), key.WithHelp("any other key", "closes")),
	}
}

// ShortHelp is the help's keys in one line.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Close}
}

// FullHelp is ShortHelp in one column.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
