package report

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/screen"
)

// column is one column of a view's list.
type column struct {
	title string
	right bool
	keep  int // narrow lists drop the columns of lowest keep first
	max   int // its widest, in cells; 0: as wide as its cells
}

// cell is one cell's text and its style; styled, when set, is the text drawn already in
// more than one style (a use bar's used and idle parts).
type cell struct {
	text   string
	style  lipgloss.Style
	styled string
}

// row is one line of a view's list and what the line under the list says of it.
type row struct {
	cells   []cell
	heading bool // a tag key over its values: no cells but the first
	note    string
}

// useBarWidth is the width of a reservation's bar of used against reserved hours.
const useBarWidth = 12

// rows are the current view's columns and rows.
func (m Model) rows(r report.Report) ([]column, []row) {
	switch m.view {
	case viewAccounts:
		return m.groupRows("ACCOUNT", r.ByAccount, "(account not known)")
	case viewSources:
		gs := make([]report.Group, len(r.BySource))
		for i, g := range r.BySource {
			gs[i] = g
			if s, err := model.ParseSource(g.Key); err == nil {
				gs[i].Key = s.Plural()
			}
		}
		return m.groupRows("SOURCE", gs, "—")
	case viewTags:
		return m.tagRows(r)
	}
	return m.reservationRows(r)
}

// rowCount is the rows of the current view, for the moving keys.
func (m Model) rowCount() int {
	if m.rep == nil {
		return 0
	}
	_, rs := m.rows(*m.rep)
	return len(rs)
}

func (m Model) reservationRows(r report.Report) ([]column, []row) {
	th := m.pc.Theme
	cols := []column{
		{title: "ACCOUNT", keep: 3, max: 14},
		{title: "RESERVATION", keep: 10, max: 28},
		{title: "CAPACITY", keep: 6, max: 26},
		{title: "RESERVED H", right: true, keep: 7},
		{title: "USED H", right: true, keep: 8},
		{title: "USED", right: true, keep: 9},
		{title: "USE", keep: 5},
		{title: "$/ACCEL-H", right: true, keep: 4},
		{title: "IDLE COST", right: true, keep: 2},
		{title: "COST", right: true, keep: 1},
	}
	grouped := false
	for _, x := range r.Reservations {
		grouped = grouped || x.GroupMark() != ""
	}
	if grouped {
		// One purchase's reservations (one per segment) say their place among them, as the
		// command's table does.
		cols = slices.Insert(cols, 2, column{title: "PURCHASE", keep: 2, max: 10})
	}
	figure := func(s string) cell {
		if s == "—" {
			return cell{text: s, style: th.Muted}
		}
		return cell{text: s, style: th.Value}
	}
	var rows []row
	for _, x := range r.Reservations {
		used, bar := cell{text: "—", style: th.Muted}, cell{text: strings.Repeat(" ", useBarWidth), style: th.Muted}
		if share, ok := x.UsedShare(); ok {
			used = cell{text: percent(share), style: th.Value}
			u, idle := useBar(share, useBarWidth)
			bar = cell{text: u + idle, styled: th.OK.Render(u) + th.Muted.Render(idle)}
		} else if !x.UsedHours.Known {
			used = cell{text: "unknown", style: th.Warning}
			bar = cell{text: strings.Repeat(unknownGlyph, useBarWidth), style: th.Warning}
		}
		account := x.Account
		if account == "" {
			account = "—"
		}
		cells := []cell{
			{text: clean(account), style: th.Value},
			{text: clean(x.Label()), style: th.Value},
			{text: clean(x.Capacity()), style: th.Value},
			{text: hours(x.ReservedHours), style: th.Value},
			figure(x.UsedHours.String()),
			used,
			bar,
			figure(x.CostPerAcceleratorHour.Rate()),
			figure(x.IdleCost.String()),
			figure(x.Cost.String()),
		}
		if grouped {
			mark := cell{text: "—", style: th.Muted}
			if m := x.GroupMark(); m != "" {
				mark = cell{text: m, style: th.Value}
			}
			cells = slices.Insert(cells, 2, mark)
		}
		rows = append(rows, row{cells: cells, note: reservationNote(x)})
	}
	return cols, rows
}

// reservationNote is what the line under the list says of a reservation: where and when it
// is, what was paid for it, and why any of its figures is unknown.
func reservationNote(x report.Row) string {
	s := fmt.Sprintf("%s · %s in %s", x.Label(), x.Source.Title(), x.Region)
	if x.Account != "" {
		s += ", account " + x.Account
	}
	if x.State != "" {
		s += " · " + string(x.State)
	}
	s += fmt.Sprintf(" · %s to %s UTC", x.Start.Format(model.LayoutMinute), x.End.Format(model.LayoutMinute))
	if len(x.Group) > 1 {
		s += fmt.Sprintf(" · one purchase made %d reservations (%s); its fee is counted once", len(x.Group), strings.Join(x.Group, ", "))
	}
	if x.Paid.Payments > 0 {
		s += " · paid in the window " + x.Paid.String()
	}
	switch {
	case !x.Saving.Known || x.UsedHours.Value == 0: // nothing used: nothing to compare
	case x.Saving.Value.Micros() < 0:
		s += " · cost " + model.MoneyFromMicros(-x.Saving.Value.Micros()).Dollars() + " more than its used hours on-demand"
	default:
		s += " · saved " + x.Saving.String() + " against its used hours on-demand"
	}
	why := x.Unknowns()
	if len(why) > 0 {
		s += " · " + strings.Join(why, "; ")
	}
	return clean(s)
}

// groupRows are what was paid by account or source, each with a bar against the largest.
func (m Model) groupRows(title string, gs []report.Group, blank string) ([]column, []row) {
	cols := []column{
		{title: title, keep: 10, max: 32},
		{title: "PAID", right: true, keep: 9},
		{title: "PAYMENTS", right: true, keep: 5},
		{title: "", keep: 3, max: 30},
	}
	return cols, m.groupLines(gs, blank, "")
}

func (m Model) groupLines(gs []report.Group, blank, indent string) []row {
	th := m.pc.Theme
	var top int64
	for _, g := range gs {
		top = max(top, g.Known.Micros())
	}
	var rows []row
	for _, g := range gs {
		key := g.Key
		if key == "" {
			key = blank
		}
		style := th.Value
		if g.Unknown > 0 {
			style = th.Warning
		}
		b := ""
		if top > 0 {
			b = bar(float64(g.Known.Micros())/float64(top), 30)
		}
		note := fmt.Sprintf("%s: %s in %s", key, g.Amount.String(), screen.Plural(g.Payments, "payment"))
		if g.Unknown > 0 {
			note += fmt.Sprintf(", %d of unknown amount, not counted", g.Unknown)
		}
		rows = append(rows, row{cells: []cell{
			{text: indent + clean(key), style: th.Value},
			{text: g.Amount.String(), style: style},
			{text: fmt.Sprint(g.Payments), style: th.Value},
			{text: b, style: th.Accent},
		}, note: clean(note)})
	}
	return rows
}

// tagRows are what was paid by each tag key's values, the key over them.
func (m Model) tagRows(r report.Report) ([]column, []row) {
	th := m.pc.Theme
	cols := []column{
		{title: "TAG", keep: 10, max: 32},
		{title: "PAID", right: true, keep: 9},
		{title: "PAYMENTS", right: true, keep: 5},
		{title: "", keep: 3, max: 30},
	}
	var rows []row
	for _, t := range r.ByTag {
		rows = append(rows, row{cells: []cell{{text: clean(t.Key), style: th.Label}}, heading: true,
			note: fmt.Sprintf("the fees paid in the window by the value of the tag %s", clean(t.Key))})
		rows = append(rows, m.groupLines(t.Values, `""`, "  ")...)
	}
	return cols, rows
}

// listLines draws the current view's list (rows made its columns and rows) in rows rows, the cursor's row among them, and
// under it noteRows lines about that row.
func (m Model) listLines(r report.Report, cols []column, rs []row, w, rows, noteRows int) []string {
	th := m.pc.Theme
	if len(rs) == 0 {
		if len(r.TagKeys) == 0 && m.view == viewTags {
			return []string{th.Muted.Render("No tag keys to group by.")}
		}
		return []string{th.Muted.Render("Nothing in this window.")}
	}
	// Each column as wide as its title and its cells, within its max.
	fit := make([]table.Column, len(cols))
	widths := make([]int, len(cols))
	for c, col := range cols {
		wd := ansi.StringWidth(col.title)
		for _, x := range rs {
			if c < len(x.cells) && !x.heading {
				wd = max(wd, ansi.StringWidth(x.cells[c].text))
			}
		}
		if col.max > 0 {
			wd = min(wd, col.max)
		}
		widths[c] = wd
		fit[c] = table.Column{Width: wd, Keep: col.keep}
	}
	const prefix = 2 // the cursor's mark
	shown := table.Fit(fit, w-prefix)
	if len(shown) == 0 {
		shown = []int{0} // the first column, cut: never an empty list
	}
	plainRow := func(x row) string {
		if x.heading {
			return x.cells[0].text
		}
		parts := make([]string, 0, len(shown))
		for _, c := range shown {
			parts = append(parts, table.Cell(x.cells[c].text, widths[c], cols[c].right))
		}
		return strings.Join(parts, " ")
	}
	styledRow := func(x row) string {
		if x.heading {
			return x.cells[0].style.Render(x.cells[0].text)
		}
		parts := make([]string, 0, len(shown))
		for _, c := range shown {
			cl := x.cells[c]
			if cl.styled != "" && ansi.StringWidth(cl.text) <= widths[c] {
				parts = append(parts, cl.styled+strings.Repeat(" ", widths[c]-ansi.StringWidth(cl.text)))
				continue
			}
			parts = append(parts, cl.style.Render(table.Cell(cl.text, widths[c], cols[c].right)))
		}
		return strings.Join(parts, " ")
	}
	var head []string
	for _, c := range shown {
		head = append(head, table.Cell(cols[c].title, widths[c], cols[c].right))
	}
	out := []string{th.TableHeader.Render("  " + strings.Join(head, " "))}
	first, end := table.Window(m.cursor, m.offset, rows, len(rs))
	for i := first; i < end; i++ {
		if i == m.cursor {
			out = append(out, th.Selected.Render("▸ "+ansi.Truncate(plainRow(rs[i]), w-prefix, "…")))
			continue
		}
		out = append(out, "  "+styledRow(rs[i]))
	}
	if noteRows > 0 && m.cursor < len(rs) {
		note := text.Wrap(rs[m.cursor].note, w)
		if len(note) > noteRows {
			note = note[:noteRows]
			note[noteRows-1] = ansi.Truncate(note[noteRows-1]+" …", w, "…")
		}
		for _, l := range note {
			out = append(out, th.Muted.Render(l))
		}
	}
	return out
}
