package blocks

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/table"
)

// KeyMap is the table's keys: the offerings table's moving and filter keys, so that both
// tables answer the same keys, and sort keys of its own columns (shift and a letter, again
// reverses).
type KeyMap struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
	Filter, ClearFilter, ApplyFilter                          key.Binding
	Sort                                                      [numColumns]key.Binding
	SortAny                                                   key.Binding
}

// DefaultKeyMap returns the table's keys.
func DefaultKeyMap() KeyMap {
	o := offerings.DefaultKeyMap()
	km := KeyMap{Up: o.Up, Down: o.Down, PageUp: o.PageUp, PageDown: o.PageDown, HalfUp: o.HalfUp, HalfDown: o.HalfDown,
		Top: o.Top, Bottom: o.Bottom, Filter: o.Filter, ClearFilter: o.ClearFilter, ApplyFilter: o.ApplyFilter}
	var all []string
	for c := Column(0); c < numColumns; c++ {
		d := columns[c]
		km.Sort[c] = key.NewBinding(key.WithKeys(d.sortKey), key.WithHelp(d.sortKey, "sort by "+d.name))
		all = append(all, d.sortKey)
	}
	km.SortAny = key.NewBinding(key.WithKeys(all...), key.WithHelp("shift+letter", "sort"))
	return km
}

// Nav is the table's moving keys, which also scroll the block's detail when it has the
// focus.
func (km KeyMap) Nav() table.Nav {
	return table.Nav{Up: km.Up, Down: km.Down, PageUp: km.PageUp, PageDown: km.PageDown,
		HalfUp: km.HalfUp, HalfDown: km.HalfDown, Top: km.Top, Bottom: km.Bottom}
}
