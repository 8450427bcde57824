package ui

import (
	"charm.land/bubbles/v2/key"

	"github.com/gpublock/gpublock/ui/components/detail"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/components/searchform"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// KeyMap is the keys of the root model: those that work in every pane, and those of the
// results and detail panes that are not the table's own.
type KeyMap struct {
	Quit, ForceQuit key.Binding
	Help            key.Binding
	NextPane        key.Binding
	PrevPane        key.Binding
	Back            key.Binding
	Search          key.Binding
	Rerun           key.Binding
	Open            key.Binding
	Buy             key.Binding // issue 6: the purchase dialog; disabled in read-only mode
	Copy            key.Binding
	CopyPurchase    key.Binding
	Probe           key.Binding
	Chart           key.Binding // the selected offering's pricing charts (ui/charts.go)
	Compare         key.Binding // the marked offerings on one chart
	TakeAlternative key.Binding
	Watch           key.Binding // runs the last search again every so often (ui/watch.go)
	Export          key.Binding // the table, as shown, to a CSV file (ui/export.go)
}

// DefaultKeyMap returns the root keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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
	}
}

// helpKeys is what help shows for the focused pane; it satisfies help.KeyMap.
type helpKeys struct {
	root  KeyMap
	form  searchform.KeyMap
	table offerings.KeyMap
	// detail is the detail pane's scrolling; detailScrolls is set while it takes the moving
	// keys (focused, showing the offering rather than its charts).
	detail        detail.KeyMap
	detailScrolls bool
	focus         pane
	screen        screenID
	screens       screenKeyMap
	// The blocks screen's (ui/screen/blocks): its footer keys in its state, its help groups
	// and its notifications switch, which works on the search screen too.
	blocksShort  []key.Binding
	blocksGroups []uiscreen.KeyGroup
	notify       key.Binding
	typing       bool // keys go into a text field, where q is a letter
	formFilter   bool // the type filter takes the keys
	formField    searchform.Field
	tableFilter  bool // a table's filter takes the keys (after /)
	noRows       bool // the search found nothing: enter takes an alternative, not a row
	alts         bool // alternatives are listed
	// The advisor screen's keys (ui/screen/advisor), for where it is.
	advisorShort  []key.Binding
	advisorGroups []keyGroup
}

func (h helpKeys) ShortHelp() []key.Binding {
	r := h.root
	if h.tableFilter {
		// Keys go into the filter: enter keeps it (it does not buy), q is a letter.
		if h.screen == screenBlocks {
			return append(h.blocksShort, r.ForceQuit)
		}
		return []key.Binding{h.table.ApplyFilter, h.table.ClearFilter, r.ForceQuit}
	}
	if h.screen == screenAdvisor {
		quit := r.Quit
		if h.typing {
			quit = r.ForceQuit
		}
		return append(h.advisorShort, h.screens.Search, r.Help, quit)
	}
	if h.screen == screenBlocks {
		return append(h.blocksShort, h.screens.Search, r.Help, r.Quit)
	}
	switch h.focus {
	case paneForm:
		quit := r.Quit
		if h.typing {
			quit = r.ForceQuit
		}
		if h.formFilter {
			t := h.table
			return []key.Binding{t.ApplyFilter, t.ClearFilter, h.form.Toggle, h.form.Up, h.form.Down, r.ForceQuit}
		}
		// Only the focused field's own keys: / does nothing on the regions, ←/→ steps only
		// the count and the duration.
		keys := []key.Binding{r.Search, h.form.Next}
		switch h.formField {
		case searchform.Types:
			keys = append(keys, h.form.Filter, h.form.Toggle)
		case searchform.Regions:
			keys = append(keys, h.form.Toggle, h.form.AllRegions)
		case searchform.Count:
			keys = append(keys, h.form.Inc, h.form.Dec)
		case searchform.Duration:
			keys = append(keys, h.form.Step)
		}
		return append(keys, r.Help, quit)
	case paneResults:
		t := h.table
		if h.noRows {
			keys := []key.Binding{r.Watch, r.Probe, r.Rerun, r.Back, r.Help, r.Quit}
			if h.alts {
				keys = append([]key.Binding{r.TakeAlternative}, keys...)
			}
			return keys
		}
		return []key.Binding{r.Buy, r.Open, t.Filter, t.SortAny, r.Help, r.Quit, r.Watch, r.Chart, t.Mark, r.Compare, r.Copy, r.Probe, r.Back}
	}
	keys := []key.Binding{r.Buy, r.Copy, r.Back, r.Help, r.Quit, r.Chart, r.CopyPurchase}
	if h.detailScrolls {
		keys = append(keys, h.detail.Line, h.detail.Page)
	}
	return keys
}

func (h helpKeys) FullHelp() [][]key.Binding {
	groups := h.groups()
	out := make([][]key.Binding, len(groups))
	for i, g := range groups {
		out[i] = g.Keys
	}
	return out
}

type keyGroup = uiscreen.KeyGroup

// groups is every key, by what it acts on, for the help screen.
func (h helpKeys) groups() []keyGroup {
	r, f, t := h.root, h.form, h.table
	s := h.screens
	blockGroups := append([]keyGroup{{Title: "Screens", Keys: []key.Binding{s.Search, s.Blocks, advisorScreenKey, s.Next, s.Prev}}}, h.blocksGroups...)
	if h.screen == screenAdvisor {
		return append(h.advisorGroups, append(blockGroups[:1:1], keyGroup{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit}})...)
	}
	if h.screen == screenBlocks {
		return append(blockGroups, keyGroup{Title: "Moving", Keys: []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.HalfUp, t.HalfDown, t.Top, t.Bottom}},
			keyGroup{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit, r.Back}})
	}
	return append([]keyGroup{
		{Title: "Everywhere", Keys: []key.Binding{r.Help, r.Quit, r.ForceQuit, r.NextPane, r.PrevPane, r.Back, r.Rerun}},
		{Title: "Search form", Keys: []key.Binding{r.Search, f.Next, f.Prev, f.Up, f.Down, f.Toggle, f.Step, f.Inc, f.Dec, f.Filter, f.AllRegions, f.ClearFilter}},
		{Title: "Offerings and detail", Keys: []key.Binding{r.Buy, r.Open, r.Copy, r.CopyPurchase, r.Probe, r.TakeAlternative, r.Watch, h.notify, r.Export}},
		{Title: "Prices", Keys: []key.Binding{r.Chart, t.Mark, r.Compare}},
		{Title: "Moving", Keys: []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.HalfUp, t.HalfDown, t.Top, t.Bottom}},
		{Title: "Detail pane (focused) scrolls", Keys: []key.Binding{h.detail.Line, h.detail.Page, h.detail.Half, h.detail.Ends}},
		{Title: "Filter", Keys: []key.Binding{t.Filter, t.ApplyFilter, t.ClearFilter}},
		{Title: "Sort (again reverses)", Keys: t.Sort[:]},
	}, blockGroups...)
}
