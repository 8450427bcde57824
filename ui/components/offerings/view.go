package offerings

import (
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/ui/components/table"
)

// visibleColumns picks the columns that fit width, dropping those of lowest keep first (the
// blocks table fits its columns the same way).
func visibleColumns(width int) []Column { return visibleColumnsFor(width, false, false) }

// mixedLengthKeep is the length column's keep when the rows differ in length (a swept
// duration such as 2d-7d): above break-even, since without it rows that differ only in
// length look like one block at several prices.
const mixedLengthKeep = 76

func visibleColumnsFor(width int, mixedLengths, plans bool) []Column {
	defs := make([]table.Column, 0, numColumns)
	var index []Column
	for c := range columns {
		if Column(c) == ColSource && !plans {
			continue // a table of Capacity Blocks alone: the form says the source
		}
		d := table.Column{Width: columns[c].width, Keep: columns[c].keep}
		if Column(c) == ColDuration && mixedLengths {
			d.Keep = mixedLengthKeep
		}
		defs = append(defs, d)
		index = append(index, Column(c))
	}
	var out []Column
	for _, i := range table.Fit(defs, width) {
		out = append(out, index[i])
	}
	return out
}

// HasPlans reports whether the table holds a training plan offering.
func (m Model) HasPlans() bool { return m.plans > 0 }

// View draws the filter line (when there is a filter), the header and the visible rows in
// width×height cells.
func (m Model) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	th := m.th
	// Marked rows start with a mark; the gutter is there only while something is marked.
	gutter := ""
	if len(m.marks) > 0 && width > len(markGlyph) {
		gutter = strings.Repeat(" ", len(markGlyph))
	}
	cols := visibleColumnsFor(width-len(gutter), m.mixedLengths(), m.plans > 0)
	var b strings.Builder
	lines := 0
	if m.filtering || m.filter.Value() != "" {
		b.WriteString(th.Accent.Render("/") + m.filter.View(width-1, m.filtering, th.Value, th.Cursor, th.Muted))
		b.WriteByte('\n')
		lines++
	}
	if lines >= height {
		return strings.TrimSuffix(b.String(), "\n")
	}
	// Header, with the sorted column marked.
	var hb strings.Builder
	hb.WriteString(gutter)
	for i, c := range cols {
		if i > 0 {
			hb.WriteByte(' ')
		}
		def := columns[c]
		title := def.title
		style := th.TableHeader
		if c == m.sortCol {
			style = th.SortedHead
			title += table.Arrow(m.desc)
		}
		hb.WriteString(style.Render(cell(title, def.width, def.right)))
	}
	b.WriteString(hb.String())
	lines++

	rows := height - lines
	if rows <= 0 {
		return b.String()
	}
	// The offset is state kept by Update for the table's own height; clamp it here for the
	// height given, so that a frame drawn at another size still shows the cursor.
	if len(m.view) == 0 && len(m.rows) > 0 {
		b.WriteString("\n" + th.Muted.Render(fmt.Sprintf("No row of %d matches the filter %q · esc clears it", len(m.rows), m.filter.Value())))
		return b.String()
	}
	off, end := table.Window(m.cursor, m.offset, rows, len(m.view))
	var rb strings.Builder
	for i := off; i < end; i++ {
		r := &m.rows[m.view[i]]
		rb.Reset()
		if gutter != "" {
			if m.IsMarked(r.o.ID) {
				rb.WriteString(markGlyph)
			} else {
				rb.WriteString(gutter)
			}
		}
		for j, c := range cols {
			if j > 0 {
				rb.WriteByte(' ')
			}
			def := columns[c]
			rb.WriteString(cell(r.cells[c], def.width, def.right))
		}
		line := rb.String()
		b.WriteByte('\n')
		switch {
		case i == m.cursor:
			b.WriteString(th.Selected.Render(line))
		case m.stale:
			b.WriteString(th.Stale.Render(line))
		default:
			b.WriteString(th.Value.Render(line))
		}
	}
	return b.String()
}

// Position describes where the cursor is and how the table is sorted, for a status line.
func (m Model) Position() string {
	return table.Position(m.cursor, len(m.view), len(m.rows), columns[m.sortCol].name, m.desc)
}

// cell pads or cuts s to exactly w cells.
func cell(s string, w int, right bool) string { return table.Cell(s, w, right) }

// mixedLengths reports whether the rows are not all of one length.
func (m Model) mixedLengths() bool {
	for i := 1; i < len(m.rows); i++ {
		if m.rows[i].o.Minutes() != m.rows[0].o.Minutes() {
			return true
		}
	}
	return false
}
