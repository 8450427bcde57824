package table

import "charm.land/bubbles/v2/key"

// KeyMap is a table's keys. Sorting follows k9s: shift and the column's letter, and the
// same key again reverses. Every table answers the same moving and filter keys.
type KeyMap struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	Filter, ClearFilter, ApplyFilter                          key.Binding
	Mark                                                      key.Binding // for the compare chart; unbound in a table without marks
	Sort                                                      []key.Binding
	// SortAny stands for the sort keys in short help.
	SortAny key.Binding
}

// DefaultKeyMap returns the keys of a table of these columns, with the mark key when marks
// is set.
func DefaultKeyMap(cols []Spec, marks bool) KeyMap {
	km := KeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown", "f"), key.WithHelp("pgdn/f", "page down")),
		HalfUp:      key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "½ page up")),
		HalfDown:    key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "½ page down")),
		Top:         key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "first")),
		Bottom:      key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "last")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		ApplyFilter: key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter/tab", "keep filter")),
		Sort:        make([]key.Binding, len(cols)),
	}
	if marks {
		km.Mark = key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark to compare"))
	}
	var all []string
	for c, s := range cols {
		km.Sort[c] = key.NewBinding(key.WithKeys(s.SortKey), key.WithHelp(s.SortKey, "sort by "+s.Name))
		all = append(all, s.SortKey)
	}
	km.SortAny = key.NewBinding(key.WithKeys(all...), key.WithHelp("shift+letter", "sort"))
	return km
}

// ShortHelp is the table's keys for the footer.
func (km KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{km.Down, km.Up, km.Filter, km.SortAny}
}

// FullHelp is every key of the table, in columns.
func (km KeyMap) FullHelp() [][]key.Binding {
	filter := []key.Binding{km.Filter, km.ClearFilter, km.ApplyFilter}
	if km.Mark.Enabled() {
		filter = append(filter, km.Mark)
	}
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.HalfUp, km.HalfDown, km.Top, km.Bottom},
		filter,
		km.Sort,
	}
}

// Nav is the keys that move the cursor (a detail pane scrolls with them too).
func (km KeyMap) Nav() Nav {
	return Nav{Up: km.Up, Down: km.Down, PageUp: km.PageUp, PageDown: km.PageDown,
		HalfUp: km.HalfUp, HalfDown: km.HalfDown, Top: km.Top, Bottom: km.Bottom}
}
