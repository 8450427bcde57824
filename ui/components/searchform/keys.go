package searchform

import "charm.land/bubbles/v2/key"

// KeyMap is the form's keys. Text fields take printable keys as text, so the form's own
// keys are arrows, space and a few that no field value contains.
type KeyMap struct {
	Next, Prev  key.Binding
	Up, Down    key.Binding
	Toggle      key.Binding
	Step        key.Binding // ←/→ on the count and the duration
	Inc, Dec    key.Binding // +/- on the count
	AllRegions  key.Binding
	ClearFilter key.Binding
	Filter      key.Binding // opens the type filter
	Submit      key.Binding
}

// DefaultKeyMap returns the form's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:        key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		Up:          key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Toggle:      key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "choose")),
		Step:        key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "step")),
		Inc:         key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "more")),
		Dec:         key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "fewer")),
		AllRegions:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all regions selling the types")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the types")),
		Submit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search")),
	}
}
