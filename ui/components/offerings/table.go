// Package offerings is the table of Capacity Block offerings: its columns and rows on the
// generic table (ui/components/table), which inserts rows page by page in sort order, so
// that neither a page nor a key press re-sorts more than it must, and draws only the
// visible rows.
package offerings

import (
	"iter"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// Model is the table.
type Model struct {
	// The table's theme is the only copy: a Theme is 15 KB, and Bubble Tea copies the
	// screen holding this model with every message.
	t   table.Model[row]
	cat *pricing.Catalog // the on-demand prices rows are compared with

	plans int // rows of training plans: the source column is shown while there is one
	// mixed is set once the rows are not all of one length (a swept duration), the length
	// of the first row held being firstMinutes.
	mixed        bool
	firstMinutes int64
	// first is the first row held, and varies the columns whose cells are not all the same
	// as its: a narrow table drops the columns that tell no row apart first.
	first  row
	varies [numColumns]bool
	// approx is set while a row's length is rounded ("~1d3h": a near-term block that ends
	// at AWS's 11:30 UTC), which a line under the table explains.
	approx bool
}

// New returns an empty table sorted by start.
func New(th theme.Theme) Model {
	return Model{t: table.New[row](table.Options{Theme: th, Columns: specs(), Sort: int(ColStart), Marks: true}, schema{}),
		cat: pricing.Embedded()}
}

// KeyMap is the table's keys (the generic table's, with the mark key).
type KeyMap = table.KeyMap

// DefaultKeyMap returns the table's keys.
func DefaultKeyMap() KeyMap { return table.DefaultKeyMap(specs(), true) }

// KeyMap returns the table's keys, for help.
func (m Model) KeyMap() KeyMap { return m.t.KeyMap() }

// SetHeight sets the number of rows a frame shows, which paging moves by.
func (m *Model) SetHeight(h int) { m.t.SetHeight(h) }

// Len is the number of offerings held; Visible the number passing the filter.
func (m Model) Len() int     { return m.t.Len() }
func (m Model) Visible() int { return m.t.Visible() }

// Stale reports whether the rows are from a previous search.
func (m Model) Stale() bool { return m.t.Stale() }

// SetStale marks the rows as from a previous search: they stay visible, drawn faint, until
// Reset replaces them.
func (m *Model) SetStale(v bool) { m.t.SetStale(v) }

// Reset removes every row (the filter and the sort stay).
func (m *Model) Reset() {
	m.t.Reset()
	m.plans, m.mixed, m.firstMinutes = 0, false, 0
	m.first, m.varies, m.approx = row{}, [numColumns]bool{}, false
	m.columnsFollowRows()
}

// Filtering reports whether keys go to the filter field, where q is a letter.
func (m Model) Filtering() bool { return m.t.Filtering() }

// FilterText returns the filter.
func (m Model) FilterText() string { return m.t.FilterText() }

// Sort returns the sort column and direction.
func (m Model) Sort() (Column, bool) {
	c, desc := m.t.Sort()
	return Column(c), desc
}

// ColumnName names a column for people.
func ColumnName(c Column) string { return columns[c].name }

// Selected returns the offering under the cursor.
func (m Model) Selected() (model.Offering, bool) {
	r, ok := m.t.Selected()
	if !ok {
		return model.Offering{}, false
	}
	return r.o, true
}

// Select puts the cursor on the visible offering with this id; false when none is visible.
func (m *Model) Select(id string) bool { return m.t.Select(id) }

// Cursor returns the cursor's index among the visible rows.
func (m Model) Cursor() int { return m.t.Cursor() }

// Add inserts offerings in sort order, skipping any already held. The cursor stays on the
// offering it was on.
func (m *Model) Add(offs []model.Offering) {
	for _, o := range offs {
		if o.ID != "" && m.t.Holds(o.ID) {
			continue
		}
		if m.t.Len() == 0 {
			m.firstMinutes = o.Minutes()
		} else if o.Minutes() != m.firstMinutes {
			m.mixed = true
		}
		r := newRow(o, m.cat)
		m.noteCells(&r)
		m.t.Add(r)
		if o.Source == model.SourceTrainingPlan {
			m.plans++
		}
	}
	m.columnsFollowRows()
}

// SortBy sorts by a column; sorting again by the same column reverses the order. The cursor
// stays on the offering it was on.
func (m *Model) SortBy(c Column) { m.t.SortBy(int(c)) }

// SetFilter keeps only the rows that contain every word of s.
func (m *Model) SetFilter(s string) { m.t.SetFilter(s) }

// Update handles a key meant for the table and reports whether it used it.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd, bool) {
	var used bool
	m.t, used = m.t.Update(msg)
	return m, nil, used
}

// Mouse handles a wheel or a click at x, y in the table drawn by View(width, height): the
// wheel moves the cursor, a click on a row selects it, a click on a column's title sorts
// by it (again: the other way). It reports whether the message did anything.
func (m Model) Mouse(msg tea.MouseMsg, x, y, width, height int) (Model, bool) {
	var used bool
	m.t, used = m.t.Mouse(msg, x, y, width, height)
	return m, used
}

// View draws the filter line (when there is a filter), the header and the visible rows in
// width×height cells.
func (m Model) View(width, height int) string {
	if !m.approx || height < 4 {
		return m.t.View(width, height)
	}
	return m.t.View(width, height-1) + "\n" + m.t.Theme().Muted.Render(text.Truncate(ApproxNote, width, "…"))
}

// ApproxNote says why a length is marked "~".
const ApproxNote = "~ rounded to the hour: first-day blocks end at 11:30 UTC"

// noteCells keeps what the columns' fitting and the note under the table read of a new row.
func (m *Model) noteCells(r *row) {
	if m.t.Len() == 0 {
		m.first = *r
	} else {
		for c := range numColumns {
			m.varies[c] = m.varies[c] || r.cell(c) != m.first.cell(c)
		}
	}
	m.approx = m.approx || strings.HasPrefix(r.cell(ColDuration), "~")
}

// Position describes where the cursor is and how the table is sorted, for a status line.
func (m Model) Position() string { return m.t.Position() }

// IDs yields the id of every offering held, filtered out or not, in the order of arrival.
func (m Model) IDs() iter.Seq[string] {
	return func(yield func(string) bool) {
		for r := range m.t.All() {
			if !yield(r.o.ID) {
				return
			}
		}
	}
}

// Row returns the offering at an index among the visible rows, in their order.
func (m Model) Row(i int) model.Offering {
	r, ok := m.t.Row(i)
	if !ok {
		return model.Offering{}
	}
	return r.o
}

// HasPlans reports whether the table holds a training plan offering.
func (m Model) HasPlans() bool { return m.plans > 0 }
