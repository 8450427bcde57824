package offerings

import (
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/table"
)

// markGlyph starts the row of a marked offering; it is plain text so that it reads without
// colour.
const markGlyph = table.MarkGlyph

// SetCatalog sets the prices rows are compared with (nil: the embedded catalog) and
// compares the rows held again.
func (m *Model) SetCatalog(cat *pricing.Catalog) {
	if cat == nil {
		cat = pricing.Embedded()
	}
	m.cat = cat
	m.t.Replace(func(r row) row { return newRow(r.o, cat) })
}

// SelectedComparison returns the offering under the cursor against on-demand, with the
// catalog its row was made with.
func (m Model) SelectedComparison() (pricing.Comparison, bool) {
	r, ok := m.t.Selected()
	if !ok {
		return pricing.Comparison{}, false
	}
	return m.comparison(r), true
}

// RowComparison is Row's offering against on-demand.
func (m Model) RowComparison(i int) pricing.Comparison {
	r, ok := m.t.Row(i)
	if !ok {
		return pricing.Comparison{}
	}
	return m.comparison(r)
}

// comparison is a row against the catalog its cells were made with.
func (m Model) comparison(r *row) pricing.Comparison { return pricing.Compare(m.cat, r.o) }

// ToggleMark marks the selected offering for comparison, or unmarks it; it reports whether
// it is now marked, and false with nothing selected.
func (m *Model) ToggleMark() (marked, ok bool) { return m.t.ToggleMark() }

// KeepMarks marks again, in the same order, those of ids that the table holds: the marks of
// a search's rows carried over to the rows of the same search run again.
func (m *Model) KeepMarks(ids []string) { m.t.KeepMarks(ids) }

// IsMarked reports whether an offering is marked.
func (m Model) IsMarked(id string) bool { return m.t.IsMarked(id) }

// ClearMarks unmarks every offering.
func (m *Model) ClearMarks() { m.t.ClearMarks() }

// Marked returns the marked offerings against on-demand, in the order they were marked.
func (m Model) Marked() []pricing.Comparison {
	marks := m.t.Marks()
	if len(marks) == 0 {
		return nil
	}
	want := make(map[string]int, len(marks))
	for i, id := range marks {
		want[id] = i
	}
	out := make([]pricing.Comparison, len(marks))
	found := make([]bool, len(marks))
	for r := range m.t.All() {
		if j, ok := want[r.o.ID]; ok && !found[j] {
			out[j], found[j] = m.comparison(r), true
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
