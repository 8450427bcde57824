// Package blocks is the table of the account's Capacity Blocks, with their warnings and
// countdowns, and the detail of one block. The table is the generic one
// (ui/components/table) that the offerings use, with the same keys; the cursor stays on
// its block, by reservation id, when the list is refreshed. Cells that depend on the time
// are drawn from the table's clock (SetNow), so that View stays pure and the countdowns
// follow the model's clock.
package blocks

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/theme"
)

// Model is the table.
type Model struct {
	t table.Model[row]
}

// New returns an empty table in the order an on-call person reads it: the active blocks by
// their termination, then the scheduled ones by their start, then the rest.
func New(th theme.Theme) Model {
	return Model{t: table.New[row](table.Options{Theme: th, Columns: specs(), Sort: int(ColTermination), Noun: "block"},
		schema{rules: model.DefaultWarnRules()})}
}

// schema reads the rows at a time under rules: the cells, order and filter text of the
// warnings and countdowns follow them.
func (m Model) schema() schema { return m.t.Schema().(schema) }

// SetRules sets the lead times the warnings follow.
func (m *Model) SetRules(r model.WarnRules) {
	s := m.schema()
	s.rules = r
	m.t.SetSchema(s)
	m.t.Refresh()
}

// Rules returns the lead times the warnings follow.
func (m Model) Rules() model.WarnRules { return m.schema().rules }

// KeyMap is the table's keys: the generic table's, so that the offerings and the blocks
// answer the same keys, with sort keys of its own columns.
type KeyMap = table.KeyMap

// DefaultKeyMap returns the table's keys.
func DefaultKeyMap() KeyMap { return table.DefaultKeyMap(specs(), false) }

// KeyMap returns the table's keys, for help.
func (m Model) KeyMap() KeyMap { return m.t.KeyMap() }

// SetHeight sets the rows a frame shows, which paging moves by.
func (m *Model) SetHeight(h int) { m.t.SetHeight(h) }

// Set replaces the blocks; fees holds the fee paid of those whose fee is known. The cursor
// stays on the block it was on while that block is listed.
func (m *Model) Set(blocks []model.Block, fees map[string]model.Money, now time.Time) {
	rows := make([]row, 0, len(blocks))
	for _, b := range blocks {
		fee, ok := fees[source.FeeKey(b)]
		rows = append(rows, newRow(b, fee, ok))
	}
	s := m.schema()
	s.now = now
	m.t.SetSchema(s)
	m.t.Set(rows)
}

// SetNow moves the table's clock; the order changes only when sorted by a column that
// depends on the time.
func (m *Model) SetNow(now time.Time) {
	s := m.schema()
	s.now = now
	m.t.SetSchema(s)
	c, _ := m.t.Sort()
	// The warnings, and so what the filter finds, change with the time too.
	if Column(c) == ColWarning || Column(c) == ColCountdown || Column(c) == ColTermination || m.t.FilterText() != "" {
		m.t.Refresh()
	}
}

// ShowAccounts shows the ACCOUNT column, while the blocks of several accounts are listed;
// with one account it says nothing a row needs.
func (m *Model) ShowAccounts(on bool) { m.t.SetHidden(int(ColAccount), !on) }

// Len is the number of blocks held; Visible the number passing the filter.
func (m Model) Len() int     { return m.t.Len() }
func (m Model) Visible() int { return m.t.Visible() }

// Filtering reports whether keys go to the filter field.
func (m Model) Filtering() bool { return m.t.Filtering() }

// FilterText returns the filter.
func (m Model) FilterText() string { return m.t.FilterText() }

// Sort returns the sort column and direction.
func (m Model) Sort() (Column, bool) {
	c, desc := m.t.Sort()
	return Column(c), desc
}

// Selected returns the block under the cursor.
func (m Model) Selected() (model.Block, bool) {
	r, ok := m.t.Selected()
	if !ok {
		return model.Block{}, false
	}
	return r.b, true
}

// Fee returns the fee paid for the block under the cursor, when known.
func (m Model) Fee() (model.Money, bool) {
	r, ok := m.t.Selected()
	if !ok {
		return model.Money{}, false
	}
	return r.fee, r.hasFee
}

// Regions returns the regions of every block listed, those the filter hides too.
func (m Model) Regions() []string {
	var out []string
	for r := range m.t.All() {
		if !slices.Contains(out, r.b.Region) {
			out = append(out, r.b.Region)
		}
	}
	return out
}

// Row returns the block at an index among the visible rows.
func (m Model) Row(i int) model.Block {
	r, ok := m.t.Row(i)
	if !ok {
		return model.Block{}
	}
	return r.b
}

// Cursor returns the cursor's index among the visible rows.
func (m Model) Cursor() int { return m.t.Cursor() }

// Select moves the cursor to the block with this reservation id, when it is visible.
func (m *Model) Select(reservationID string) bool { return m.t.Select(reservationID) }

// SortBy sorts by a column; the same column again reverses the order.
func (m *Model) SortBy(c Column) { m.t.SortBy(int(c)) }

// SetFilter keeps the rows that contain every word of s.
func (m *Model) SetFilter(s string) { m.t.SetFilter(s) }

// Update handles a key meant for the table and reports whether it used it.
func (m Model) Update(msg tea.Msg) (Model, bool) {
	var used bool
	m.t, used = m.t.Update(msg)
	return m, used
}

// Mouse handles a wheel or a click at x, y in the table drawn by View(width, height), as
// the offerings table does: the wheel moves the cursor, a click selects a row, a click on a
// column's title sorts by it. It reports whether the message did anything.
func (m Model) Mouse(msg tea.MouseMsg, x, y, width, height int) (Model, bool) {
	var used bool
	m.t, used = m.t.Mouse(msg, x, y, width, height)
	return m, used
}

// View draws the filter line (when there is one), the header and the visible rows in
// width×height cells, with the times of the table's clock (SetNow).
func (m Model) View(width, height int) string { return m.t.View(width, height) }

// Position says where the cursor is and how the table is sorted.
func (m Model) Position() string { return m.t.Position() }
