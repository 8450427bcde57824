package offerings

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/components/table"
)

// KeyMap is the table's keys. Sorting follows k9s: shift and the column's letter, and the
// same key again reverses.
type KeyMap struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	Filter, ClearFilter, ApplyFilter                          key.Binding
	Mark                                                      key.Binding // for the compare chart
	Sort                                                      [numColumns]key.Binding
	// SortAny stands for the sort keys in short help.
	SortAny key.Binding
}

// DefaultKeyMap returns the table's keys.
func DefaultKeyMap() KeyMap {
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
		ApplyFilter: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		Mark:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mark to compare")),
	}
	var all []string
	for c := Column(0); c < numColumns; c++ {
		def := columns[c]
		km.Sort[c] = key.NewBinding(key.WithKeys(def.sortKey), key.WithHelp(def.sortKey, "sort by "+def.name))
		all = append(all, def.sortKey)
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
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.HalfUp, km.HalfDown, km.Top, km.Bottom},
		{km.Filter, km.ClearFilter, km.ApplyFilter, km.Mark},
		km.Sort[:],
	}
}

// Nav is the keys that move the cursor (the detail pane scrolls with them too).
func (km KeyMap) Nav() table.Nav {
	return table.Nav{Up: km.Up, Down: km.Down, PageUp: km.PageUp, PageDown: km.PageDown,
		HalfUp: km.HalfUp, HalfDown: km.HalfDown, Top: km.Top, Bottom: km.Bottom}
}
