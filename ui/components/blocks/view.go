package blocks

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/table"
)

// View draws the filter line (when there is one), the header and the visible rows in
// width×height cells, with the times of the table's clock (SetNow).
func (m Model) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	th := m.th
	cols := fitColumns(width)
	var b strings.Builder
	lines := 0
	if m.filtering || m.filter.Value() != "" {
		b.WriteString(th.Accent.Render("/") + m.filter.View(width-1, m.filtering, th.Value, th.Cursor, th.Muted) + "\n")
		lines++
		if lines >= height {
			return strings.TrimSuffix(b.String(), "\n")
		}
	}
	var hb strings.Builder
	for i, c := range cols {
		if i > 0 {
			hb.WriteByte(' ')
		}
		d := columns[c]
		title, style := d.title, th.TableHeader
		if c == m.sortCol {
			style = th.SortedHead
			title += table.Arrow(m.desc)
		}
		hb.WriteString(style.Render(table.Cell(title, d.width, d.right)))
	}
	b.WriteString(ansi.Truncate(hb.String(), width, ""))
	lines++
	rows := height - lines
	if rows <= 0 {
		return b.String()
	}
	if len(m.view) == 0 && len(m.rows) > 0 {
		b.WriteString("\n" + ansi.Truncate(th.Muted.Render(fmt.Sprintf("No block of %d matches the filter %q · esc clears it", len(m.rows), m.filter.Value())), width, "…"))
		return b.String()
	}
	off, end := table.Window(m.cursor, m.offset, rows, len(m.view))
	for i := off; i < end; i++ {
		r := &m.rows[m.view[i]]
		w := m.rules.Top(r.b, m.now).Kind
		style := th.Value
		switch {
		case w != NoWarning && w.Red():
			style = th.Error
		case w != NoWarning:
			style = th.Warning
		case r.b.State == model.StateExpired || WillNotRun(r.b):
			style = th.Muted
		}
		b.WriteByte('\n')
		if i != m.cursor {
			b.WriteString(style.Render(ansi.Truncate(m.rowText(r, cols), width, "")))
			continue
		}
		// The cursor's row keeps its warning visible: the warning cell is drawn in the
		// warning's colour on the cursor's background.
		var rb strings.Builder
		for j, c := range cols {
			if j > 0 {
				rb.WriteString(th.Selected.Render(" "))
			}
			d := columns[c]
			cell := table.Cell(r.cell(c, m.now, m.rules), d.width, d.right)
			if c == ColWarning && w != NoWarning {
				rb.WriteString(th.Selected.Foreground(style.GetForeground()).Render(cell))
				continue
			}
			rb.WriteString(th.Selected.Render(cell))
		}
		b.WriteString(ansi.Truncate(rb.String(), width, ""))
	}
	return b.String()
}

// rowText is a row's cells in the columns shown, unstyled.
func (m Model) rowText(r *row, cols []Column) string {
	var rb strings.Builder
	for j, c := range cols {
		if j > 0 {
			rb.WriteByte(' ')
		}
		d := columns[c]
		rb.WriteString(table.Cell(r.cell(c, m.now, m.rules), d.width, d.right))
	}
	return rb.String()
}

// Position says where the cursor is and how the table is sorted.
func (m Model) Position() string {
	return table.Position(m.cursor, len(m.view), len(m.rows), columns[m.sortCol].name, m.desc)
}
