// Package blocks is the table of the account's Capacity Blocks, with their warnings and
// countdowns, and the detail of one block. The table sorts and filters as the offerings
// table does (same keys); the cursor stays on its block, by reservation id, when the list
// is refreshed. Cells that depend on the time are drawn from the clock given to View, so
// that View stays pure and the countdowns follow the model's clock.
package blocks

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/theme"
)

// Model is the table.
type Model struct {
	th   theme.Theme
	keys KeyMap

	rows  []row
	view  []int // indexes into rows that pass the filter, in sort order
	now   time.Time
	rules model.WarnRules

	sortCol Column
	desc    bool

	filter    textfield.Model
	filtering bool

	cursor, offset, height int
}

// New returns an empty table in the order an on-call person reads it: the active blocks by
// their termination, then the scheduled ones by their start, then the rest.
func New(th theme.Theme) Model {
	return Model{th: th, keys: DefaultKeyMap(), sortCol: ColTermination, rules: model.DefaultWarnRules(), height: 10}
}

// SetRules sets the lead times the warnings follow.
func (m *Model) SetRules(r model.WarnRules) {
	m.rules = r
	sel, _ := m.Selected()
	m.refilter(sel.ReservationID)
}

// Rules returns the lead times the warnings follow.
func (m Model) Rules() model.WarnRules { return m.rules }

// KeyMap returns the table's keys, for help.
func (m Model) KeyMap() KeyMap { return m.keys }

// SetHeight sets the rows a frame shows, which paging moves by.
func (m *Model) SetHeight(h int) {
	m.height = max(1, h)
	m.scroll()
}

// Set replaces the blocks; fees holds the fee paid of those whose fee is known. The cursor
// stays on the block it was on while that block is listed.
func (m *Model) Set(blocks []model.Block, fees map[string]model.Money, now time.Time) {
	sel, _ := m.Selected()
	m.rows = m.rows[:0]
	for _, b := range blocks {
		fee, ok := fees[b.ReservationID]
		m.rows = append(m.rows, newRow(b, fee, ok))
	}
	m.now = now
	m.refilter(sel.ReservationID)
}

// SetNow moves the table's clock; the order changes only when sorted by a column that
// depends on the time.
func (m *Model) SetNow(now time.Time) {
	m.now = now
	// The warnings, and so what the filter finds, change with the time too.
	if m.sortCol == ColWarning || m.sortCol == ColCountdown || m.sortCol == ColTermination || m.filter.Value() != "" {
		sel, _ := m.Selected()
		m.refilter(sel.ReservationID)
	}
}

// Len is the number of blocks held; Visible the number passing the filter.
func (m Model) Len() int     { return len(m.rows) }
func (m Model) Visible() int { return len(m.view) }

// Filtering reports whether keys go to the filter field.
func (m Model) Filtering() bool { return m.filtering }

// FilterText returns the filter.
func (m Model) FilterText() string { return m.filter.Value() }

// Sort returns the sort column and direction.
func (m Model) Sort() (Column, bool) { return m.sortCol, m.desc }

// Selected returns the block under the cursor.
func (m Model) Selected() (model.Block, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return model.Block{}, false
	}
	return m.rows[m.view[m.cursor]].b, true
}

// Fee returns the fee paid for the block under the cursor, when known.
func (m Model) Fee() (model.Money, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return model.Money{}, false
	}
	r := &m.rows[m.view[m.cursor]]
	return r.fee, r.hasFee
}

// Regions returns the regions of every block listed, those the filter hides too.
func (m Model) Regions() []string {
	var out []string
	for _, r := range m.rows {
		if !slices.Contains(out, r.b.Region) {
			out = append(out, r.b.Region)
		}
	}
	return out
}

// Row returns the block at an index among the visible rows.
func (m Model) Row(i int) model.Block {
	if i < 0 || i >= len(m.view) {
		return model.Block{}
	}
	return m.rows[m.view[i]].b
}

// Cursor returns the cursor's index among the visible rows.
func (m Model) Cursor() int { return m.cursor }

// Select moves the cursor to the block with this reservation id, when it is visible.
func (m *Model) Select(reservationID string) bool {
	for i, ri := range m.view {
		if m.rows[ri].b.ReservationID == reservationID {
			m.cursor = i
			m.scroll()
			return true
		}
	}
	return false
}

func (m *Model) cmpIndex(a, b int) int {
	ra, rb := &m.rows[a], &m.rows[b]
	if m.sortCol == ColTermination {
		// Blocks with no termination go last in either direction.
		if r := cmp.Compare(terminationGroup(ra.b, m.now), terminationGroup(rb.b, m.now)); r != 0 {
			return r
		}
	}
	r := compare(ra, rb, m.sortCol, m.now, m.rules)
	if m.desc {
		r = -r
	}
	if r == 0 {
		r = tieBreak(ra, rb)
	}
	return r
}

// SortBy sorts by a column; the same column again reverses the order.
func (m *Model) SortBy(c Column) {
	if c == m.sortCol {
		m.desc = !m.desc
	} else {
		m.sortCol, m.desc = c, false
	}
	sel, _ := m.Selected()
	m.refilter(sel.ReservationID)
}

// SetFilter keeps the rows that contain every word of s.
func (m *Model) SetFilter(s string) {
	m.filter.SetValue(s)
	sel, _ := m.Selected()
	m.refilter(sel.ReservationID)
}

// refilter rebuilds the visible rows in order and puts the cursor back on the block sel.
func (m *Model) refilter(sel string) {
	terms := table.Terms(m.filter.Value())
	m.view = m.view[:0]
	for i := range m.rows {
		if table.Matches(m.rows[i].text+" "+m.warningText(&m.rows[i]), terms) {
			m.view = append(m.view, i)
		}
	}
	slices.SortFunc(m.view, m.cmpIndex)
	if sel == "" || !m.Select(sel) {
		m.scroll()
	}
}

// warningText is every warning of the row in force now, lower-case, for the filter: /idle
// finds "◌ IDLE, PAID", /failed "✖ EXT FAILED" as well as "payment-failed".
func (m *Model) warningText(r *row) string {
	var parts []string
	for _, w := range m.rules.Warnings(r.b, m.now) {
		parts = append(parts, strings.ToLower(w.Cell(r.b, m.now)), w.Kind.Name())
	}
	return strings.Join(parts, " ")
}

func (m *Model) scroll() {
	m.cursor, m.offset = table.Scroll(m.cursor, m.offset, m.height, len(m.view))
}

// Update handles a key meant for the table and reports whether it used it.
func (m Model) Update(msg tea.Msg) (Model, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, false
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
			if m.filter, used = m.filter.Update(k); !used {
				return m, false
			}
			sel, _ := m.Selected()
			m.refilter(sel.ReservationID)
		}
		return m, true
	}
	var moved bool
	m.cursor, m.offset, moved = table.Move(k, m.keys.Nav(), m.cursor, m.offset, m.height, len(m.view))
	switch {
	case moved:
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
	case key.Matches(k, m.keys.ClearFilter):
		if m.filter.Value() == "" {
			return m, false
		}
		m.SetFilter("")
	default:
		for c := Column(0); c < numColumns; c++ {
			if key.Matches(k, m.keys.Sort[c]) {
				m.SortBy(c)
				return m, true
			}
		}
		return m, false
	}
	m.scroll()
	return m, true
}
