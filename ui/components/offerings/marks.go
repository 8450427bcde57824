package offerings

import (
	"slices"

	"github.com/gpublock/gpublock/pricing"
)

// markGlyph starts the row of a marked offering; it is plain text so that it reads without
// colour.
const markGlyph = "* "

// SetCatalog sets the prices rows are compared with (nil: the embedded catalog) and
// compares the rows held again.
func (m *Model) SetCatalog(cat *pricing.Catalog) {
	if cat == nil {
		cat = pricing.Embedded()
	}
	m.cat = cat
	for i := range m.rows {
		m.rows[i] = newRow(m.rows[i].o, cat)
	}
	if len(m.rows) > 0 {
		m.resort()
	}
}

// SelectedComparison returns the offering under the cursor against on-demand, with the
// catalog its row was made with.
func (m Model) SelectedComparison() (pricing.Comparison, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return pricing.Comparison{}, false
	}
	return m.comparison(m.view[m.cursor]), true
}

// RowComparison is Row's offering against on-demand.
func (m Model) RowComparison(i int) pricing.Comparison {
	if i < 0 || i >= len(m.view) {
		return pricing.Comparison{}
	}
	return m.comparison(m.view[i])
}

// comparison is the row at index ri of rows against the catalog its cells were made with.
func (m Model) comparison(ri int) pricing.Comparison { return pricing.Compare(m.cat, m.rows[ri].o) }

// ToggleMark marks the selected offering for comparison, or unmarks it; it reports whether
// it is now marked, and false with nothing selected.
func (m *Model) ToggleMark() (marked, ok bool) {
	o, ok := m.Selected()
	if !ok {
		return false, false
	}
	// Copies of the model share the slice; a new one keeps earlier copies as they were.
	if i := slices.Index(m.marks, o.ID); i >= 0 {
		m.marks = slices.Delete(slices.Clone(m.marks), i, i+1)
		return false, true
	}
	m.marks = append(slices.Clip(m.marks), o.ID)
	return true, true
}

// KeepMarks marks again, in the same order, those of ids that the table holds: the marks of
// a search's rows carried over to the rows of the same search run again.
func (m *Model) KeepMarks(ids []string) {
	m.marks = nil
	for _, id := range ids {
		if _, held := m.ids[id]; held && !slices.Contains(m.marks, id) {
			m.marks = append(m.marks, id)
		}
	}
}

// IsMarked reports whether an offering is marked.
func (m Model) IsMarked(id string) bool { return slices.Contains(m.marks, id) }

// ClearMarks unmarks every offering.
func (m *Model) ClearMarks() { m.marks = nil }

// Marked returns the marked offerings against on-demand, in the order they were marked.
func (m Model) Marked() []pricing.Comparison {
	if len(m.marks) == 0 {
		return nil
	}
	want := make(map[string]int, len(m.marks))
	for i, id := range m.marks {
		want[id] = i
	}
	out := make([]pricing.Comparison, len(m.marks))
	found := make([]bool, len(m.marks))
	for i := range m.rows {
		if j, ok := want[m.rows[i].o.ID]; ok && !found[j] {
			out[j], found[j] = m.comparison(i), true
		}
	}
	kept := out[:0]
	for j, c := range out {
		if found[j] {
			kept = append(kept, c)
		}
	}
	return kept
}
