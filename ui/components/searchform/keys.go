package searchform

import "charm.land/bubbles/v2/key"

// KeyMap is the form's keys. Text fields take printable keys as text, so the form's own
// keys are arrows, space and a few that no field value contains.
type KeyMap struct {
	Next, Prev  key.Binding
	Up, Down    key.Binding
	ListUp      key.Binding // k and j move in the type and region lists, as in the tables
	ListDown    key.Binding
	Toggle      key.Binding
	Step        key.Binding // ←/→ on the count, the duration and the source, in help
	StepUp      key.Binding // → alone: Step's direction
	StepDown    key.Binding
	Inc, Dec    key.Binding // +/- on the count
	Target      key.Binding // the training plan's target resource
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
		ListUp:      key.NewBinding(key.WithKeys("k"), key.WithHelp("k", "up the list")),
		ListDown:    key.NewBinding(key.WithKeys("j"), key.WithHelp("j", "down the list")),
		Toggle:      key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "choose")),
		Step:        key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "step")),
		StepUp:      key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "step up")),
		StepDown:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "step down")),
		Inc:         key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "more")),
		Dec:         key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "fewer")),
		Target:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "plan's target resource")),
		AllRegions:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all regions selling the types")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter the types")),
		Submit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search")),
	}
}

// FieldKeys is the focused field's own keys, for a footer: / does nothing on the regions,
// ←/→ steps only the count, the duration and the source, t only with plans chosen.
func (m Model) FieldKeys() []key.Binding {
	k := m.keys
	switch m.focus {
	case Types:
		return []key.Binding{k.Filter, k.Toggle}
	case Regions:
		return []key.Binding{k.Toggle, k.AllRegions}
	case Source:
		if m.sources.plans() {
			return []key.Binding{k.Step, k.Target}
		}
		return []key.Binding{k.Step}
	case Count:
		return []key.Binding{k.Inc, k.Dec, k.Step}
	case Duration:
		return []key.Binding{k.Step}
	}
	return nil
}
