package blocks

import (
	"slices"

	"charm.land/bubbles/v2/key"

	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/screen"
)

// KeyMap is the blocks screen's own keys, beside its table's. As on the search screen,
// enter (or d) gives the block's detail the focus, tab and shift+tab go between the table
// and the detail, esc goes back to the table; while the detail has the focus the table's
// moving keys scroll it (Scroll).
type KeyMap struct {
	Refresh, Details, Pane, Back, CopyID, CopyBlockID, Open, Extend, Launch, Use, Notify key.Binding
	// CancelAttached cancels the selected block's pending attached launch once Yes answers
	// its question (any other key keeps it).
	CancelAttached, Yes, No key.Binding
	Scroll                  pager.KeyMap
}

// DefaultKeyMap returns the keys; read-only mode disables extend, launch and cancelling an
// attached launch, so that neither the screen nor help offers them.
func DefaultKeyMap(readOnly bool) KeyMap {
	km := KeyMap{
		Refresh:        key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh now")),
		Details:        key.NewBinding(key.WithKeys("enter", "d"), key.WithHelp("enter", "details")),
		Pane:           key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "table ⇄ details")),
		Back:           key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back · cancel")),
		CopyID:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy reservation id")),
		CopyBlockID:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy block id")),
		Open:           key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "open in AWS console")),
		Extend:         key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "extend…")),
		Launch:         key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "launch…")),
		Use:            key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "use with…")),
		Notify:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "notifications on/off")),
		CancelAttached: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel attached launch")),
		Yes:            key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes, cancel it")),
		No:             key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "no, keep it")),
		Scroll:         pager.NewKeyMap(blockstable.DefaultKeyMap().Nav()),
	}
	if readOnly {
		km.Extend.SetEnabled(false)
		km.Launch.SetEnabled(false)
		km.CancelAttached.SetEnabled(false)
	}
	return km
}

// ShortHelp is the screen's keys for the footer with the table focused.
func (km KeyMap) ShortHelp() []key.Binding { return km.tableHelp(blockstable.DefaultKeyMap()) }

func (km KeyMap) tableHelp(t blockstable.KeyMap) []key.Binding {
	return []key.Binding{km.Details, km.Extend, km.Launch, km.Refresh, t.Filter, t.SortAny, km.CopyID, km.Open}
}

// FullHelp is every key of the screen, by group.
func (km KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range groups(km, blockstable.DefaultKeyMap()) {
		out = append(out, g.Keys)
	}
	return out
}

func groups(b KeyMap, bt blockstable.KeyMap) []screen.KeyGroup {
	return []screen.KeyGroup{
		{Title: "Blocks screen", Keys: []key.Binding{b.Details, b.Pane, b.Refresh, b.Extend, b.Launch, b.CancelAttached, b.Use, b.CopyID, b.CopyBlockID, b.Open, b.Notify, bt.Filter}},
		{Title: "Sort blocks (again reverses)", Keys: bt.Sort[:]},
		{Title: "Block detail (focused) scrolls", Keys: []key.Binding{b.Scroll.Line, b.Scroll.Page, b.Scroll.Half, b.Scroll.Ends}},
	}
}

// KeyMap is the screen's keys.
func (m Model) KeyMap() KeyMap { return m.keys }

// shortHelp is the footer's keys in the screen's state: the filter's while one is typed
// (the root adds ctrl+c), the detail's scrolling while it has the focus.
func (m Model) shortHelp() []key.Binding {
	b, t := m.keys, m.table.KeyMap()
	if sel, ok := m.table.Selected(); ok && blockstable.IsPlan(sel) {
		// A plan is not launched into (SageMaker runs what is given its ARN), and y copies
		// that ARN.
		b.Launch.SetEnabled(false)
		b.CopyID.SetHelp("y", "copy the plan's ARN")
	}
	if _, ok := m.pendingSelected(); !ok {
		b.CancelAttached.SetEnabled(false) // nothing to cancel here
	}
	var out []key.Binding
	switch {
	case m.Asking():
		return []key.Binding{b.Yes, b.No}
	case m.table.Filtering():
		return []key.Binding{t.ApplyFilter, t.ClearFilter}
	case m.detail:
		out = []key.Binding{b.Scroll.Line, b.Scroll.Page, b.Back, b.Pane, b.Extend, b.Launch, b.CancelAttached, b.Use, b.Refresh, b.CopyID, b.Open}
	default:
		out = b.tableHelp(t)
	}
	return slices.DeleteFunc(out, func(k key.Binding) bool { return !k.Enabled() })
}

// KeyGroups are the screen's keys for the help screen, titled.
func (m Model) KeyGroups() []screen.KeyGroup { return groups(m.keys, m.table.KeyMap()) }
