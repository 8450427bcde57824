package table

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// Styler is a Schema that draws rows in styles of their own (a warning's colour).
type Styler[R any] interface {
	// RowStyle is the style of a row away from the cursor.
	RowStyle(r *R, th *theme.Theme) lipgloss.Style
	// CursorCell is the style of column c in the cursor's row, which is then drawn cell by
	// cell; ok false for the cursor's own style.
	CursorCell(r *R, c int, th *theme.Theme) (style lipgloss.Style, ok bool)
}

// layout is where a frame of a width draws the columns: the gutter of the marks, then the
// columns cols, of widths, one cell between them, total cells in all.
type layout struct {
	gutter int
	cols   []int
	widths []int
	total  int
}

// layout fits the columns to width after the gutter of the marks.
func (m Model[R]) layout(width int) layout {
	var l layout
	if (len(m.marks) > 0 || m.styles().Accessible) && width > len(MarkGlyph) {
		l.gutter = len(MarkGlyph)
	}
	l.cols, l.widths = FitSpecs(sortedShown(m.specs, m.sortCol), width-l.gutter, m.contentWidth)
	l.total = l.gutter - 1
	for _, w := range l.widths {
		l.total += w + 1
	}
	return l
}

// sortedShown is specs with the sorted column wanted above every other and kept at any
// width, so that a sort is never by a column that no one sees.
func sortedShown(specs []Spec, sortCol int) []Spec {
	if sortCol < 0 || sortCol >= len(specs) || specs[sortCol].Hidden {
		return specs
	}
	out := slices.Clone(specs)
	top := 0
	for _, s := range specs {
		top = max(top, s.Keep)
	}
	out[sortCol].Keep, out[sortCol].Core = top+1, true
	out[sortCol].Width = max(out[sortCol].Width, text.Width(out[sortCol].Title)+text.Width(Arrow(false)))
	return out
}

// headWidth is the fewest cells a column is drawn in: its title whole (and the sorted one's
// arrow after it, sortedShown), so that a header never loses its name or its arrow to a cut.
func headWidth(s Spec) int { return text.Width(s.Title) }

// FitSpecs picks the columns of specs drawn in width cells and their widths: the hidden
// ones never, those of lowest Keep dropped first, and the core ones narrowed to need(c),
// the cells column c needs now, before any of them is dropped (FitWidths); a nil need
// leaves them at their Width. No column is narrower than its header (headWidth).
func FitSpecs(specs []Spec, width int, need func(c int) int) (cols, widths []int) {
	if need == nil {
		need = func(c int) int { return specs[c].Width }
	}
	fit := make([]Column, 0, len(specs))
	index := make([]int, 0, len(specs))
	core := false
	for c, s := range specs {
		if s.Hidden {
			continue
		}
		fit = append(fit, Column{Width: max(s.Width, headWidth(s)), Keep: s.Keep})
		index = append(index, c)
		core = core || s.Core
	}
	shown := Fit(fit, width)
	if core {
		mins := make([]int, len(fit))
		for i, c := range index {
			if specs[c].Core {
				mins[i] = 1 // core; what it needs is taken only when Fit drops one
			}
		}
		if !keepsCore(mins, shown) {
			for i, c := range index {
				if mins[i] > 0 {
					mins[i] = max(headWidth(specs[c]), need(c))
				}
			}
			shown, widths = FitWidths(fit, mins, width)
		}
	}
	if widths == nil {
		widths = make([]int, len(shown))
		for i, f := range shown {
			widths[i] = fit[f].Width
		}
	}
	cols = make([]int, len(shown))
	for i, f := range shown {
		cols[i] = index[f]
	}
	return cols, widths
}

// contentWidth is the cells column c needs now: its title (with the arrow when it is the
// sorted one), and its widest value among the rows that pass the filter (so that scrolling
// moves no column).
func (m Model[R]) contentWidth(c int) int {
	w := text.Width(m.specs[c].Title)
	if c == m.sortCol {
		w += text.Width(Arrow(m.desc))
	}
	return max(w, m.cellWidth(c))
}

// View draws the filter line (when there is a filter), the header and the visible rows in
// width×height cells.
func (m Model[R]) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	th := m.styles()
	l := m.layout(width)
	cut := func(s string) string {
		if l.total > width {
			return ansi.Truncate(s, width, "")
		}
		return s
	}
	gutter := strings.Repeat(" ", l.gutter)
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
	if th.Accessible && len(m.view) > 0 && height-lines > 2 {
		// The focused row first, said whole: every column, not only those that fit, on as
		// many lines as it takes while a row of the table still shows.
		said := text.Wrap(m.FocusSentence(), width)
		said = said[:min(len(said), height-lines-2)]
		for _, l := range said {
			b.WriteString(th.Focused.Render(ansi.Truncate(l, width, "…")))
			b.WriteByte('\n')
			lines++
		}
	}
	// Header, with the sorted column marked.
	var hb strings.Builder
	hb.WriteString(gutter)
	for i, c := range l.cols {
		if i > 0 {
			hb.WriteByte(' ')
		}
		s := m.specs[c]
		title, style := s.Title, th.TableHeader
		if c == m.sortCol {
			style = th.SortedHead
			title = sortedTitle(title, Arrow(m.desc), l.widths[i])
		}
		hb.WriteString(style.Render(Cell(title, l.widths[i], s.Right)))
	}
	b.WriteString(cut(hb.String()))
	lines++

	rows := height - lines
	if rows <= 0 {
		return b.String()
	}
	if len(m.view) == 0 && len(m.rows) > 0 {
		msg := fmt.Sprintf("No %s of %d matches the filter %q · esc clears it", m.noun, len(m.rows), m.filter.Value())
		b.WriteString("\n" + ansi.Truncate(th.Muted.Render(msg), width, "…"))
		return b.String()
	}
	styler, styled := m.schema.(Styler[R])
	// The offset is state kept by Update for the table's own height; Window clamps it for
	// the height given, so that a frame drawn at another size still shows the cursor.
	off, end := Window(m.cursor, m.offset, rows, len(m.view))
	var rb strings.Builder
	for i := off; i < end; i++ {
		r := &m.rows[m.view[i]]
		prefix := gutter
		if gutter != "" && m.IsMarked(m.schema.ID(r)) {
			prefix = MarkGlyph
		}
		if th.Accessible && i == m.cursor && prefix == gutter {
			// The cursor's row is not told by its colour alone.
			prefix = CursorGlyph
		}
		b.WriteByte('\n')
		if i == m.cursor && styled {
			b.WriteString(cut(m.cursorRow(r, prefix, l, styler)))
			continue
		}
		rb.Reset()
		rb.WriteString(prefix)
		for j, c := range l.cols {
			if j > 0 {
				rb.WriteByte(' ')
			}
			rb.WriteString(Cell(m.cell(r, c), l.widths[j], m.specs[c].Right))
		}
		line := cut(rb.String())
		switch {
		case i == m.cursor:
			b.WriteString(th.Selected.Render(line))
		case m.stale:
			b.WriteString(th.Stale.Render(line))
		case styled:
			b.WriteString(styler.RowStyle(r, th).Render(line))
		default:
			b.WriteString(th.Value.Render(line))
		}
	}
	return b.String()
}

// cursorRow draws the cursor's row cell by cell, for a Styler whose cells may keep a
// colour of their own on the cursor's background.
func (m Model[R]) cursorRow(r *R, prefix string, l layout, s Styler[R]) string {
	th := m.styles()
	var rb strings.Builder
	if prefix != "" {
		rb.WriteString(th.Selected.Render(prefix))
	}
	for j, c := range l.cols {
		if j > 0 {
			rb.WriteString(th.Selected.Render(" "))
		}
		cell := Cell(m.cell(r, c), l.widths[j], m.specs[c].Right)
		if st, ok := s.CursorCell(r, c, th); ok {
			rb.WriteString(st.Render(cell))
			continue
		}
		rb.WriteString(th.Selected.Render(cell))
	}
	return rb.String()
}

// sortedTitle is a sorted column's title with its arrow in w cells: a title too long for
// both is cut, never the arrow, which is what says how the rows are ordered.
func sortedTitle(title, arrow string, w int) string {
	if text.Width(title)+text.Width(arrow) <= w || w <= text.Width(arrow) {
		return title + arrow
	}
	return ansi.Truncate(title, w-text.Width(arrow), "…") + arrow
}

// cell is column c of a row as drawn: in the accessible mode without its bar (the figure
// beside it says it).
func (m Model[R]) cell(r *R, c int) string {
	if m.styles().Accessible {
		return a11y.Plain(m.schema.Cell(r, c))
	}
	return m.schema.Cell(r, c)
}

// FocusSentence says the cursor's row with every shown column named: "offering 3 of 9:
// instance type p5.48xlarge, …, upfront fee $2,036.20, break-even utilization 78%".
func (m Model[R]) FocusSentence() string {
	r, ok := m.Selected()
	if !ok {
		return fmt.Sprintf("no %s", m.noun)
	}
	var fields []a11y.Field
	for c, s := range m.specs {
		if s.Hidden {
			continue
		}
		name := s.Name
		if name == "" {
			name = s.Title
		}
		v := m.schema.Cell(r, c)
		if strings.HasSuffix(s.Title, " UTC") && v != "" {
			v += " UTC" // the header's time zone, which the name leaves out
		}
		fields = append(fields, a11y.Field{Name: name, Value: v})
	}
	out := a11y.RowSentence(m.noun, m.cursor+1, len(m.view), fields)
	if m.IsMarked(m.schema.ID(r)) {
		out += " (marked)"
	}
	return out
}
