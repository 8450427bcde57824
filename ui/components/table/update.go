package table

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Update handles a key meant for the table and reports whether it used it.
func (m Model[R]) Update(msg tea.Msg) (Model[R], bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, false
	}
	if m.filtering {
		switch {
		case key.Matches(k, m.keys.ClearFilter):
			m.filtering = false
			m.SetFilter("")
		case key.Matches(k, m.keys.ApplyFilter):
			m.filtering = false
		default:
			var used bool
			if m.filter, used = m.filter.Update(k); !used {
				return m, false
			}
			m.filterChanged()
		}
		return m, true
	}
	var moved bool
	m.cursor, m.offset, moved = Move(k, m.keys.Nav(), m.cursor, m.offset, m.height, len(m.view))
	switch {
	case moved:
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
	case key.Matches(k, m.keys.Mark):
		m.ToggleMark()
		return m, true
	case key.Matches(k, m.keys.ClearFilter):
		if m.filter.Value() == "" {
			return m, false
		}
		m.SetFilter("")
	default:
		for c := range m.keys.Sort {
			if key.Matches(k, m.keys.Sort[c]) {
				m.SortBy(c)
				return m, true
			}
		}
		return m, false
	}
	m.moved = true
	m.scroll()
	return m, true
}

// Mouse handles a wheel or a click at x, y in the table drawn by View(width, height): the
// wheel moves the cursor, a click on a row selects it, a click on a column's title sorts
// by it (again: the other way). It reports whether the message did anything.
func (m Model[R]) Mouse(msg tea.MouseMsg, x, y, width, height int) (Model[R], bool) {
	header := 0
	if m.filter.Value() != "" {
		header = 1
	}
	h := MouseHit(msg, x, y, header, height, m.cursor, m.offset, len(m.view), m.filtering)
	switch h.Kind {
	case HitWheel:
		m.cursor += h.Delta
	case HitRow:
		m.cursor = h.Row
	case HitHeader:
		l := m.layout(width)
		i := ColumnAt(h.X-l.gutter, l.widths)
		if i < 0 {
			return m, false
		}
		m.SortBy(l.cols[i])
		return m, true
	default:
		return m, false
	}
	m.moved = true
	m.scroll()
	return m, true
}

// MarkGlyph starts the row of a marked row; it is plain text so that it reads without
// colour.
const MarkGlyph = "* "

// CursorGlyph marks the cursor's row in the accessible mode, where its colour is not enough.
const CursorGlyph = "> "

// ToggleMark marks the selected row, or unmarks it; it reports whether it is now marked,
// and false with nothing selected.
func (m *Model[R]) ToggleMark() (marked, ok bool) {
	r, ok := m.Selected()
	if !ok {
		return false, false
	}
	id := m.schema.ID(r)
	// Copies of the model share the slice; a new one keeps earlier copies as they were.
	if i := slices.Index(m.marks, id); i >= 0 {
		m.marks = slices.Delete(slices.Clone(m.marks), i, i+1)
		return false, true
	}
	m.marks = append(slices.Clip(m.marks), id)
	return true, true
}

// KeepMarks marks again, in the same order, those of ids that the table holds: the marks of
// a search's rows carried over to the rows of the same search run again.
func (m *Model[R]) KeepMarks(ids []string) {
	var marks []string
	for _, id := range ids {
		if _, held := m.ids[id]; held && !slices.Contains(marks, id) {
			marks = append(marks, id)
		}
	}
	m.marks = marks
}

// IsMarked reports whether the row of this id is marked.
func (m Model[R]) IsMarked(id string) bool { return slices.Contains(m.marks, id) }

// ClearMarks unmarks every row.
func (m *Model[R]) ClearMarks() { m.marks = nil }

// Marks returns the ids of the marked rows, in the order they were marked.
func (m Model[R]) Marks() []string { return m.marks }
