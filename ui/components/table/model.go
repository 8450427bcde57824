package table

import (
	"iter"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/theme"
)

// Spec is one column of a table: its title, its name for people, its sort key and how it
// is fitted to a width.
type Spec struct {
	Title   string // in the header
	Name    string // in help and the status line
	SortKey string // shift and a letter, as k9s sorts
	Width   int    // cells, enough for its longest value
	Right   bool   // right-aligned: figures
	Keep    int    // narrow tables drop the columns of lowest Keep first
	// Core columns stay at narrow widths: rather than drop one, the core columns are
	// narrowed to what their title and the rows shown need (see FitWidths).
	Core bool
	// Hidden columns are not drawn at any width (a column of a kind the rows do not hold).
	Hidden bool
}

// Schema is how a table reads its rows of type R. A table keeps its schema by value, so an
// owner whose cells follow a clock or rules sets a new one (SetSchema) when they change,
// and copies of the table (Bubble Tea models are values) keep the one they were made with.
type Schema[R any] interface {
	// Cell is the text of column c.
	Cell(r *R, c int) string
	// Compare orders two rows by column c, ascending; 0 when their keys are equal.
	Compare(a, b *R, c int) int
	// Group sorts before the column and the direction: rows of a higher group go after
	// those of a lower one either way (rows without a figure to sort by, say).
	Group(r *R, c int) int
	// Tie orders rows whose keys are equal, the same way in both directions, so that the
	// order never depends on the order of arrival; 0 only for rows of the same ID.
	Tie(a, b *R) int
	// ID names the row: the cursor and the marks follow it across a new list.
	ID(r *R) string
	// Text is the row's lower-case text, which the filter searches.
	Text(r *R) string
}

// Options are what a table is made with.
type Options struct {
	Theme   theme.Theme
	Columns []Spec
	Sort    int  // the column sorted by at first
	Desc    bool // and its direction
	Noun    string
	// Marks lets m mark rows (for a comparison); a table without marks does not bind the key.
	Marks bool
}

// Model is a sortable, filterable table of rows of type R: rows arrive in pages or as a
// whole list and are kept in sort order; a frame draws only the visible rows.
type Model[R any] struct {
	// th is shared by copies and never changed: a Theme is 15 KB, and Bubble Tea copies the
	// screen holding a table with every message.
	th     *theme.Theme
	keys   KeyMap
	specs  []Spec // shared by copies: changed only by replacing it
	schema Schema[R]
	noun   string

	rows []R
	ids  map[string]struct{}
	view []int // indexes into rows that pass the filter, in sort order
	// byTie is every index into rows in the order of the tie-breaks, kept as rows arrive so
	// that a sort by keys (KeySorter) keeps equal keys in that order without comparing rows.
	byTie []int32

	sortCol int
	desc    bool

	filter    textfield.Model
	terms     []string // the filter's words, taken when it changes
	filtering bool     // keys go to the filter field

	marks []string // ids of the marked rows, in the order marked

	cursor int // index into view
	offset int // first visible index into view
	height int // rows visible, set by SetHeight, for paging

	// gen names the rows, the filter and the schema as they are: a fresh number from
	// tableGen at each change, so that no two copies of a table that changed apart share
	// one. widths, shared by copies, holds what was measured for a gen.
	gen    uint64
	widths *widthCache

	stale bool // the rows are from the previous search
	// moved is set once a person moves the cursor. Until then the cursor stays on the first
	// row while rows stream in; after, it stays on the row they chose.
	moved bool
}

// New returns an empty table.
func New[R any](o Options, s Schema[R]) Model[R] {
	noun := o.Noun
	if noun == "" {
		noun = "row"
	}
	th := o.Theme
	return Model[R]{th: &th, keys: DefaultKeyMap(o.Columns, o.Marks), specs: slices.Clone(o.Columns), schema: s,
		noun: noun, ids: map[string]struct{}{}, sortCol: o.Sort, desc: o.Desc, height: 10,
		gen: tableGen.Add(1), widths: &widthCache{}}
}

var tableGen atomic.Uint64

// widthCache is the widest cell of each column among the visible rows, measured when a frame
// first needs it (a narrow frame fits its core columns to their content) and kept until the
// rows, the filter or the schema change; rows added are measured as they come. Measuring
// every cell of 10,000 rows took milliseconds a frame.
type widthCache struct {
	mu    sync.Mutex
	gen   uint64
	width []int // by column; -1 until measured
}

// changed gives the table a new gen: what was measured is for other rows.
func (m *Model[R]) changed() { m.gen = tableGen.Add(1) }

// cellWidth is the widest cell of column c among the visible rows.
func (m Model[R]) cellWidth(c int) int {
	wc := m.widths
	if wc == nil {
		return m.measure(c, m.view)
	}
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if wc.gen != m.gen || len(wc.width) != len(m.specs) {
		wc.gen = m.gen
		wc.width = slices.Grow(wc.width[:0], len(m.specs))[:len(m.specs)]
		for i := range wc.width {
			wc.width[i] = -1
		}
	}
	if wc.width[c] < 0 {
		wc.width[c] = m.measure(c, m.view)
	}
	return wc.width[c]
}

// measure is the widest cell of column c among the rows of indexes view.
func (m Model[R]) measure(c int, view []int) int {
	w := 0
	for _, ri := range view {
		w = max(w, text.Width(m.schema.Cell(&m.rows[ri], c)))
	}
	return w
}

// added keeps what was measured for the rows before Add, widened by the rows it made
// visible, under the new gen: a search streaming its rows in measures each row once.
func (m *Model[R]) added(prev uint64, shown []int) {
	wc := m.widths
	if wc == nil {
		return
	}
	wc.mu.Lock()
	defer wc.mu.Unlock()
	if wc.gen != prev {
		return // measured for other rows: measured again when needed
	}
	for c, w := range wc.width {
		if w >= 0 {
			wc.width[c] = max(w, m.measure(c, shown))
		}
	}
	wc.gen = m.gen
}

// SetSchema replaces the way rows are read (a new clock, new rules). The order and the
// filter stay as they were until Refresh, which a caller skips when neither can change.
func (m *Model[R]) SetSchema(s Schema[R]) {
	m.schema = s
	m.changed()
}

// Schema returns the way rows are read.
func (m Model[R]) Schema() Schema[R] { return m.schema }

// Theme returns the theme the table draws in.
func (m Model[R]) Theme() theme.Theme { return *m.styles() }

var noTheme theme.Theme

// styles is the theme, or the zero one for a table not made by New.
func (m Model[R]) styles() *theme.Theme {
	if m.th == nil {
		return &noTheme
	}
	return m.th
}

// Columns returns the table's columns.
func (m Model[R]) Columns() []Spec { return m.specs }

// SetHidden hides or shows column c.
func (m *Model[R]) SetHidden(c int, hidden bool) {
	if m.specs[c].Hidden != hidden {
		m.specs = slices.Clone(m.specs)
		m.specs[c].Hidden = hidden
	}
}

// SetKeep changes how much column c is wanted at narrow widths.
func (m *Model[R]) SetKeep(c, keep int) {
	if m.specs[c].Keep != keep {
		m.specs = slices.Clone(m.specs)
		m.specs[c].Keep = keep
	}
}

// SetCore makes column c core (kept at every width, narrowed first) or not.
func (m *Model[R]) SetCore(c int, core bool) {
	if m.specs[c].Core != core {
		m.specs = slices.Clone(m.specs)
		m.specs[c].Core = core
	}
}

// KeyMap returns the table's keys, for help.
func (m Model[R]) KeyMap() KeyMap { return m.keys }

// SetHeight sets the number of rows a frame shows, which paging moves by.
func (m *Model[R]) SetHeight(h int) {
	m.height = max(1, h)
	m.scroll()
}

// Len is the number of rows held; Visible the number passing the filter.
func (m Model[R]) Len() int     { return len(m.rows) }
func (m Model[R]) Visible() int { return len(m.view) }

// Stale reports whether the rows are from a previous search.
func (m Model[R]) Stale() bool { return m.stale }

// SetStale marks the rows as from a previous search: they stay visible, drawn faint, until
// Reset replaces them.
func (m *Model[R]) SetStale(v bool) { m.stale = v }

// Moved reports whether a person has moved the cursor since the last Reset.
func (m Model[R]) Moved() bool { return m.moved }

// Reset removes every row and mark (the filter and the sort stay).
func (m *Model[R]) Reset() {
	m.rows = m.rows[:0]
	m.view = m.view[:0]
	m.byTie = m.byTie[:0]
	clear(m.ids)
	m.marks = nil
	m.cursor, m.offset, m.stale, m.moved = 0, 0, false, false
	m.changed()
}

// Filtering reports whether keys go to the filter field, where q is a letter.
func (m Model[R]) Filtering() bool { return m.filtering }

// FilterText returns the filter.
func (m Model[R]) FilterText() string { return m.filter.Value() }

// Sort returns the sort column and direction.
func (m Model[R]) Sort() (int, bool) { return m.sortCol, m.desc }

// SortName names the sort column for people.
func (m Model[R]) SortName() string { return m.specs[m.sortCol].Name }

// Cursor returns the cursor's index among the visible rows.
func (m Model[R]) Cursor() int { return m.cursor }

// Selected returns the row under the cursor.
func (m Model[R]) Selected() (*R, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return nil, false
	}
	return &m.rows[m.view[m.cursor]], true
}

// Row returns the row at an index among the visible rows, in their order.
func (m Model[R]) Row(i int) (*R, bool) {
	if i < 0 || i >= len(m.view) {
		return nil, false
	}
	return &m.rows[m.view[i]], true
}

// All yields every row held, filtered out or not, in the order of arrival.
func (m Model[R]) All() iter.Seq[*R] {
	return func(yield func(*R) bool) {
		for i := range m.rows {
			if !yield(&m.rows[i]) {
				return
			}
		}
	}
}

// Holds reports whether a row of this id is held, filtered out or not.
func (m Model[R]) Holds(id string) bool {
	_, ok := m.ids[id]
	return ok
}

// Select puts the cursor on the visible row with this id; false when none is visible.
func (m *Model[R]) Select(id string) bool {
	for i, ri := range m.view {
		if m.schema.ID(&m.rows[ri]) == id {
			m.cursor = i
			m.scroll()
			return true
		}
	}
	return false
}

// Add inserts rows in sort order, skipping any whose id is already held. The cursor stays
// on the row it was on once a person has moved it, and on the first row until then.
func (m *Model[R]) Add(rows ...R) {
	terms := m.terms
	prev, held := m.gen, len(m.rows)
	var shown []int
	for _, r := range rows {
		// The row is read where it is kept: a pointer to r would move it to the heap.
		m.rows = append(m.rows, r)
		i := len(m.rows) - 1
		id := m.schema.ID(&m.rows[i])
		if _, dup := m.ids[id]; dup && id != "" {
			m.rows = m.rows[:i]
			continue
		}
		m.ids[id] = struct{}{}
		t, _ := slices.BinarySearchFunc(m.byTie, int32(i), func(a, b int32) int { return m.schema.Tie(&m.rows[a], &m.rows[b]) })
		m.byTie = slices.Insert(m.byTie, t, int32(i))
		if !Matches(m.schema.Text(&m.rows[i]), terms) {
			continue
		}
		at, _ := slices.BinarySearchFunc(m.view, i, m.cmpIndex)
		m.view = slices.Insert(m.view, at, i)
		shown = append(shown, i)
		if m.moved && at <= m.cursor && len(m.view) > 1 {
			m.cursor++
		}
	}
	if len(m.rows) != held {
		m.changed()
		m.added(prev, shown)
	}
	m.scroll()
}

// Set replaces the rows with a new list (a refresh). The cursor stays on the row of the
// same id while it is listed, and at its place in the list when that row has gone; the
// marks of rows no longer listed go.
func (m *Model[R]) Set(rows []R) {
	at, sel := m.cursor, ""
	if r, ok := m.Selected(); ok {
		sel = m.schema.ID(r)
	}
	m.rows = append(m.rows[:0], rows...)
	clear(m.ids)
	m.byTie = m.byTie[:0]
	for i := range m.rows {
		m.ids[m.schema.ID(&m.rows[i])] = struct{}{}
		m.byTie = append(m.byTie, int32(i))
	}
	slices.SortStableFunc(m.byTie, func(a, b int32) int { return m.schema.Tie(&m.rows[a], &m.rows[b]) })
	if len(m.marks) > 0 {
		m.KeepMarks(m.marks)
	}
	m.refilter(-1)
	if sel == "" || !m.Select(sel) {
		m.cursor = at
		m.scroll()
	}
}

// Replace rebuilds every row with f, in place (new prices for the same offerings, say),
// and sorts again, the cursor kept on its row. f must keep each row's id.
func (m *Model[R]) Replace(f func(r R) R) {
	for i := range m.rows {
		m.rows[i] = f(m.rows[i])
	}
	if len(m.rows) == 0 {
		return
	}
	slices.SortStableFunc(m.byTie, func(a, b int32) int { return m.schema.Tie(&m.rows[a], &m.rows[b]) })
	m.Refresh()
}

// SortBy sorts by column c; sorting again by the same column reverses the order. The
// cursor stays on the row it was on.
func (m *Model[R]) SortBy(c int) {
	if c == m.sortCol {
		m.desc = !m.desc
	} else {
		m.sortCol, m.desc = c, false
	}
	m.resort()
}

// SetSort sorts by column c in the direction given.
func (m *Model[R]) SetSort(c int, desc bool) {
	m.sortCol, m.desc = c, desc
	m.resort()
}

// SetFilter keeps only the rows that contain every word of s.
func (m *Model[R]) SetFilter(s string) {
	m.filter.SetValue(s)
	m.filterChanged()
}

// Refresh filters and sorts again, the cursor kept on its row: for a schema whose cells
// follow a clock that has moved.
func (m *Model[R]) Refresh() { m.refilter(m.selectedRow()) }

func (m *Model[R]) resort() { m.sortView(m.selectedRow()) }

// filterChanged takes the filter's words and filters again.
func (m *Model[R]) filterChanged() {
	m.terms = Terms(m.filter.Value())
	m.Refresh()
}

// selectedRow is the index into rows of the row under the cursor, -1 when there is none.
func (m *Model[R]) selectedRow() int {
	if m.cursor >= 0 && m.cursor < len(m.view) {
		return m.view[m.cursor]
	}
	return -1
}

func (m *Model[R]) refilter(sel int) {
	m.changed()
	terms := m.terms
	m.view = m.view[:0]
	for i := range m.rows {
		if Matches(m.schema.Text(&m.rows[i]), terms) {
			m.view = append(m.view, i)
		}
	}
	m.sortView(sel)
}

// sortView sorts the visible rows and puts the cursor back on the row sel, or on the first
// row when sel is no longer visible.
func (m *Model[R]) sortView(sel int) {
	m.sortRows()
	m.cursor = 0
	if sel >= 0 {
		if i := slices.Index(m.view, sel); i >= 0 {
			m.cursor = i
		}
	}
	m.scroll()
}

// scroll keeps the cursor inside the visible window.
func (m *Model[R]) scroll() {
	m.cursor, m.offset = Scroll(m.cursor, m.offset, m.height, len(m.view))
}

// Position describes where the cursor is and how the table is sorted, for a status line.
func (m Model[R]) Position() string {
	return Position(m.cursor, len(m.view), len(m.rows), m.specs[m.sortCol].Name, m.desc)
}
