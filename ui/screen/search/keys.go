package search

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/screen"
)

// KeyMap is the search screen's own keys, beside its form's and its table's. Help, Quit and
// ForceQuit are the root's, named here where the footer lists them among the screen's.
type KeyMap struct {
	Quit, ForceQuit key.Binding
	Help            key.Binding
	NextPane        key.Binding
	PrevPane        key.Binding
	Back            key.Binding
	Search          key.Binding
	Rerun           key.Binding
	Open            key.Binding
	Buy             key.Binding // the purchase dialog; disabled in read-only mode
	Copy            key.Binding
	CopyPurchase    key.Binding
	Probe           key.Binding
	Chart           key.Binding // the selected offering's pricing charts (charts.go)
	Compare         key.Binding // the marked offerings on one chart
	TakeAlternative key.Binding
	Watch           key.Binding // runs the last search again every so often (watch.go)
	Export          key.Binding // the table, as shown, to a CSV file (export.go)
	Notify          key.Binding // the blocks screen's switch, which the watch's news follows
	Order           key.Binding // an order for the form's search (ui/dialog/order); disabled in read-only mode
	Orders          key.Binding // the account's orders
}

// DefaultKeyMap returns the keys; read-only mode takes out those that spend money, so that
// neither the screen nor help offers them, and enter then opens the detail again.
func DefaultKeyMap(readOnly bool) KeyMap {
	km := KeyMap{
		Quit:            key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit:       key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Help:            key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		NextPane:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:        key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Back:            key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back · cancel")),
		Search:          key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search")),
		Rerun:           key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "search again")),
		Open:            key.NewBinding(key.WithKeys("enter", "d"), key.WithHelp("d", "details")),
		Buy:             key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "buy…")),
		Copy:            key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy CLI")),
		CopyPurchase:    key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy purchase CLI")),
		Probe:           key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "largest count")),
		Chart:           key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "chart ⇄ details")),
		Compare:         key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare marked")),
		TakeAlternative: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search the chosen alternative")),
		Watch:           key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "watch this search on/off")),
		Export:          key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save the table as CSV")),
		Notify:          key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "notifications on/off")),
		Order:           key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "order this search under a ceiling…")),
		Orders:          key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "orders")),
	}
	if readOnly {
		km.Buy.SetEnabled(false)
		km.Order.SetEnabled(false)
		km.CopyPurchase.SetEnabled(false)
		km.Open.SetHelp("enter", "details")
	}
	return km
}

// ShortHelp is the screen's keys for the footer with the form focused on its first field.
func (km KeyMap) ShortHelp() []key.Binding {
	f := searchform.DefaultKeyMap()
	return []key.Binding{km.Search, f.Next, f.Filter, f.Toggle, km.Help, km.Quit}
}

// FullHelp is every key of the screen, by group.
func (km KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range groups(km, searchform.DefaultKeyMap(), offerings.DefaultKeyMap()) {
		out = append(out, g.Keys)
	}
	return out
}

func groups(r KeyMap, f searchform.KeyMap, t offerings.KeyMap) []screen.KeyGroup {
	d := detail.NewKeyMap(t.Nav())
	return []screen.KeyGroup{
		{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit, r.NextPane, r.PrevPane, r.Back, r.Rerun}},
		{Title: "Search form", Keys: []key.Binding{r.Search, f.Next, f.Prev, f.Up, f.Down, f.ListUp, f.ListDown, f.Toggle, f.Step, f.Inc, f.Dec, f.Target, f.Filter, f.AllRegions, f.ClearFilter}},
		{Title: "Typing in a field", Keys: textfield.DefaultKeyMap().FullHelp()[0]},
		{Title: "Offerings and detail", Keys: []key.Binding{r.Buy, r.Open, r.Copy, r.CopyPurchase, r.Probe, r.TakeAlternative, r.Watch, r.Notify, r.Export}},
		{Title: "Orders", Keys: []key.Binding{r.Order, r.Orders}},
		{Title: "Prices", Keys: []key.Binding{r.Chart, t.Mark, r.Compare}},
		{Title: "Moving", Keys: []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.HalfUp, t.HalfDown, t.Top, t.Bottom}},
		{Title: "Detail pane (focused) scrolls", Keys: []key.Binding{d.Line, d.Page, d.Half, d.Ends}},
		{Title: "Filter", Keys: []key.Binding{t.Filter, t.ApplyFilter, t.ClearFilter}},
		{Title: "Sort (again reverses)", Keys: t.Sort[:]},
	}
}

// KeyMap is the screen's keys.
func (m Model) KeyMap() KeyMap { return m.keys }

// shortHelp is the footer's keys in the screen's state: the focused pane's, the filter's
// while one is typed, the alternatives' after a search that found nothing.
func (m Model) shortHelp() []key.Binding {
	r, t, f := m.keys, m.table.KeyMap(), m.form.KeyMap()
	if m.Typing() && m.focus == PaneResults {
		// Keys go into the filter: enter keeps it (it does not buy), q is a letter.
		return []key.Binding{t.ApplyFilter, t.ClearFilter, r.ForceQuit}
	}
	switch m.focus {
	case PaneForm:
		quit := r.Quit
		if m.Typing() {
			quit = r.ForceQuit
		}
		if m.form.Filtering() {
			return []key.Binding{t.ApplyFilter, t.ClearFilter, f.Toggle, f.Up, f.Down, r.ForceQuit}
		}
		keys := append([]key.Binding{r.Search, f.Next}, m.form.FieldKeys()...)
		return append(keys, r.Help, quit)
	case PaneResults:
		if m.search.has && m.table.Len() == 0 && !m.table.Filtering() && m.table.FilterText() == "" {
			keys := []key.Binding{r.Watch, r.Probe, r.Rerun, r.Back, r.Help, r.Quit}
			if len(m.extra.alts) > 0 {
				keys = append([]key.Binding{r.TakeAlternative}, keys...)
			}
			return keys
		}
		return []key.Binding{r.Buy, r.Open, t.Filter, t.SortAny, r.Help, r.Quit, r.Watch, r.Chart, t.Mark, r.Compare, r.Copy, r.Probe, r.Back}
	}
	keys := []key.Binding{r.Buy, r.Copy, r.Back, r.Help, r.Quit, r.Chart, r.CopyPurchase}
	if m.detailTab == TabDetail {
		d := detail.NewKeyMap(t.Nav())
		keys = append(keys, d.Line, d.Page)
	}
	return keys
}

// KeyGroups are the screen's keys for the help screen, titled.
func (m Model) KeyGroups() []screen.KeyGroup {
	return groups(m.keys, m.form.KeyMap(), m.table.KeyMap())
}
