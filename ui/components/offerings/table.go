// Package offerings is the table of Capacity Block offerings: rows arrive page by page and
// are inserted in sort order, so that neither a page nor a key press re-sorts more than it
// must, and a frame draws only the visible rows.
package offerings

import (
	"iter"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/theme"
)

// Model is the table.
type Model struct {
	th   theme.Theme
	keys KeyMap
	cat  *pricing.Catalog // the on-demand prices rows are compared with

	// marks are the ids of the offerings marked for comparison, in the order marked.
	marks []string

	rows  []row
	plans int // rows of training plans: the source column is shown while there is one
	ids   map[string]struct{}
	view  []int // indexes into rows that pass the filter, in sort order
	// byTie is every index into rows in the order of the tie-breaks (start, fee, id), kept
	// as rows arrive so that a sort compares a row's place in it instead of the rows.
	byTie []int32

	sortCol Column
	desc    bool

	filter    textfield.Model
	filtering bool // keys go to the filter field

	cursor int // index into view
	offset int // first visible index into view
	height int // rows visible, set by SetHeight, for paging

	stale bool // the rows are from the previous search
	// moved is set once a person moves the cursor. Until then the cursor stays on the first
	// row while rows stream in; after, it stays on the offering they chose.
	moved bool
}

// New returns an empty table sorted by start.
func New(th theme.Theme) Model {
	return Model{th: th, keys: DefaultKeyMap(), cat: pricing.Embedded(), ids: map[string]struct{}{}, sortCol: ColStart, height: 10}
}

// KeyMap returns the table's keys, for help.
func (m Model) KeyMap() KeyMap { return m.keys }

// SetHeight sets the number of rows a frame shows, which paging moves by.
func (m *Model) SetHeight(h int) {
	m.height = max(1, h)
	m.scroll()
}

// Len is the number of offerings held; Visible the number passing the filter.
func (m Model) Len() int     { return len(m.rows) }
func (m Model) Visible() int { return len(m.view) }

// Stale reports whether the rows are from a previous search.
func (m Model) Stale() bool { return m.stale }

// SetStale marks the rows as from a previous search: they stay visible, drawn faint, until
// Reset replaces them.
func (m *Model) SetStale(v bool) { m.stale = v }

// Reset removes every row (the filter and the sort stay).
func (m *Model) Reset() {
	m.rows = m.rows[:0]
	m.plans = 0
	m.view = m.view[:0]
	m.byTie = m.byTie[:0]
	clear(m.ids)
	m.marks = nil
	m.cursor, m.offset, m.stale, m.moved = 0, 0, false, false
}

// Filtering reports whether keys go to the filter field, where q is a letter.
func (m Model) Filtering() bool { return m.filtering }

// FilterText returns the filter.
func (m Model) FilterText() string { return m.filter.Value() }

// Sort returns the sort column and direction.
func (m Model) Sort() (Column, bool) { return m.sortCol, m.desc }

// ColumnName names a column for people.
func ColumnName(c Column) string { return columns[c].name }

// Selected returns the offering under the cursor.
func (m Model) Selected() (model.Offering, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return model.Offering{}, false
	}
	return m.rows[m.view[m.cursor]].o, true
}

// Select puts the cursor on the visible offering with this id; false when none is visible.
func (m *Model) Select(id string) bool {
	for i, ri := range m.view {
		if m.rows[ri].o.ID == id {
			m.cursor = i
			m.scroll()
			return true
		}
	}
	return false
}

// Cursor returns the cursor's index among the visible rows.
func (m Model) Cursor() int { return m.cursor }

// Add inserts offerings in sort order, skipping any already held. The cursor stays on the
// offering it was on.
func (m *Model) Add(offs []model.Offering) {
	terms := m.terms()
	for _, o := range offs {
		if _, dup := m.ids[o.ID]; dup && o.ID != "" {
			continue
		}
		m.ids[o.ID] = struct{}{}
		m.rows = append(m.rows, newRow(o, m.cat))
		if o.Source == model.SourceTrainingPlan {
			m.plans++
		}
		i := len(m.rows) - 1
		t, _ := slices.BinarySearchFunc(m.byTie, int32(i), func(a, b int32) int { return tieBreak(&m.rows[a], &m.rows[b]) })
		m.byTie = slices.Insert(m.byTie, t, int32(i))
		if !matches(&m.rows[i], terms) {
			continue
		}
		at, _ := slices.BinarySearchFunc(m.view, i, m.cmpIndex)
		m.view = slices.Insert(m.view, at, i)
		if m.moved && at <= m.cursor && len(m.view) > 1 {
			m.cursor++
		}
	}
	m.scroll()
}

func (m *Model) cmpIndex(a, b int) int {
	return cmpRows(&m.rows[a], &m.rows[b], m.sortCol, m.desc)
}

// SortBy sorts by a column; sorting again by the same column reverses the order. The cursor
// stays on the offering it was on.
func (m *Model) SortBy(c Column) {
	if c == m.sortCol {
		m.desc = !m.desc
	} else {
		m.sortCol, m.desc = c, false
	}
	m.resort()
}

func (m *Model) resort() { m.sortView(m.selectedRow()) }

// selectedRow is the index into rows of the row under the cursor, -1 when there is none.
func (m *Model) selectedRow() int {
	if m.cursor < len(m.view) {
		return m.view[m.cursor]
	}
	return -1
}

// sortView sorts the visible rows and puts the cursor back on the row sel, or on the first
// row when sel is no longer visible.
func (m *Model) sortView(sel int) {
	m.sortRows(m.view)
	m.cursor = 0
	if sel >= 0 {
		if i := slices.Index(m.view, sel); i >= 0 {
			m.cursor = i
		}
	}
	m.scroll()
}

func (m *Model) terms() []string { return table.Terms(m.filter.Value()) }

func matches(r *row, terms []string) bool { return table.Matches(r.text, terms) }

// SetFilter keeps only the rows that contain every word of s.
func (m *Model) SetFilter(s string) {
	m.filter.SetValue(s)
	m.refilter()
}

func (m *Model) refilter() {
	sel := m.selectedRow()
	terms := m.terms()
	m.view = m.view[:0]
	for i := range m.rows {
		if matches(&m.rows[i], terms) {
			m.view = append(m.view, i)
		}
	}
	m.sortView(sel)
}

// scroll keeps the cursor inside the visible window.
func (m *Model) scroll() {
	m.cursor, m.offset = table.Scroll(m.cursor, m.offset, m.height, len(m.view))
}

// Update handles a key meant for the table and reports whether it used it.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil, false
	}
	if m.filtering {
		switch {
		case key.Matches(k, m.keys.ClearFilter):
			m.filtering = false
			m.SetFilter("")
		case key.Matches(k, m.keys.ApplyFilter), k.String() == "tab":
			m.filtering = false
		default:
			var used bool
			m.filter, used = m.filter.Update(k)
			if !used {
				return m, nil, false
			}
			m.refilter()
		}
		return m, nil, true
	}
	var moved bool
	m.cursor, m.offset, moved = table.Move(k, m.keys.Nav(), m.cursor, m.offset, m.height, len(m.view))
	switch {
	case moved:
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
	case key.Matches(k, m.keys.Mark):
		m.ToggleMark()
		return m, nil, true
	case key.Matches(k, m.keys.ClearFilter):
		if m.filter.Value() == "" {
			return m, nil, false
		}
		m.SetFilter("")
	default:
		for c := Column(0); c < numColumns; c++ {
			if key.Matches(k, m.keys.Sort[c]) {
				m.SortBy(c)
				return m, nil, true
			}
		}
		return m, nil, false
	}
	m.moved = true
	m.scroll()
	return m, nil, true
}

// IDs yields the id of every offering held, filtered out or not, in the order of arrival.
func (m Model) IDs() iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := range m.rows {
			if !yield(m.rows[i].o.ID) {
				return
			}
		}
	}
}

// Row returns the offering at an index among the visible rows, in their order.
func (m Model) Row(i int) model.Offering {
	if i < 0 || i >= len(m.view) {
		return model.Offering{}
	}
	return m.rows[m.view[i]].o
}
