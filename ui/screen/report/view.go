package report

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/screen"
)

// render draws the screen in its area.
func (m Model) render() string {
	w, h := m.area.Width, m.area.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := m.lines(w, h)
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// layout is how the screen's height is shared at a size: the lines above the chart, the
// months' chart in cols columns of monthRows rows (0: not drawn), and the view's rows.
type layout struct {
	top       []string
	gap       bool // a blank line between the parts
	monthCols int
	monthRows int
	listRows  int
	noteRows  int
}

// Fewest lines the view under the chart is drawn in: its tabs, its header, three rows and
// a line about the selected one.
const viewMin = 6

func (m Model) layout(w, h, rowCount int) layout {
	l := layout{top: m.topLines(w, h)}
	r := m.rep
	if r == nil || empty(*r) {
		return l
	}
	l.gap = h >= 30
	gaps := 0
	if l.gap {
		gaps = 2
	}
	avail := h - len(l.top) - gaps
	n := len(r.Months)
	cellMin := len("2026-01") + 1 + 6 + 1 + amountWidth(r.Months)
	maxCols := max(1, min(3, (w+3)/(cellMin+3)))
	// The list wants its rows, up to a dozen lines, before the months go into columns; it
	// keeps at least viewMin lines (fewer for fewer rows) while any column count leaves them.
	need := rowCount + 3 // the tabs, the header and the note
	l.monthCols = maxCols
	for _, least := range []int{min(need, 12), min(need, viewMin)} {
		if cols, ok := monthColumns(avail, n, maxCols, least); ok {
			l.monthCols = cols
			break
		}
	}
	l.monthRows = min(ceilDiv(n, l.monthCols), avail-min(need, viewMin)-1)
	if l.monthRows < 1 {
		l.monthRows = 0
	}
	rest := avail
	if l.monthRows > 0 {
		rest -= 1 + l.monthRows
	}
	switch {
	case rest >= 14:
		l.noteRows = 2
	case rest >= 5:
		l.noteRows = 1
	}
	l.listRows = max(0, rest-2-l.noteRows)
	return l
}

// monthColumns is the fewest columns, up to most, that leave least lines under the chart.
func monthColumns(avail, n, most, least int) (int, bool) {
	for cols := 1; cols <= most; cols++ {
		if avail-1-ceilDiv(n, cols) >= least {
			return cols, true
		}
	}
	return 0, false
}

// listHeight is the view's rows at the screen's size, for the paging keys.
func (m Model) listHeight() int {
	return m.layout(m.area.Width, m.area.Height, m.rowCount()).listRows
}

func ceilDiv(a, b int) int { return (a + b - 1) / max(1, b) }

func empty(r report.Report) bool { return len(r.Reservations) == 0 && r.Paid.Payments == 0 }

func (m Model) lines(w, h int) []string {
	th := m.pc.Theme
	var cols []column
	var rs []row
	if m.rep != nil {
		cols, rs = m.rows(*m.rep)
	}
	l := m.layout(w, h, len(rs))
	out := append([]string(nil), l.top...)
	switch {
	case m.rep == nil && m.loading:
		return append(out, m.spin+th.Muted.Render(" reading fees and use… (every account and region the backend reads)"))
	case m.rep == nil && m.waiting:
		return append(out, th.Warning.Render("Not connected: nothing can be read yet."),
			th.Muted.Render("r reads the report once the backend is connected."))
	case m.rep == nil:
		return out
	}
	r := *m.rep
	if empty(r) {
		said := "Nothing was paid and no reservation was held in this window."
		if len(r.Problems) > 0 {
			said = "Nothing was paid and no reservation was held in this window, in what could be read."
		}
		out = append(out, "")
		for _, l := range text.Wrap(said, w) {
			out = append(out, th.Value.Render(l))
		}
		for _, l := range text.Wrap("< moves the window a month earlier · m shows the last 12 or 3 months", w) {
			out = append(out, th.Muted.Render(l))
		}
		return out
	}
	if l.gap {
		out = append(out, "")
	}
	if l.monthRows > 0 {
		out = append(out, th.Label.Render("Paid by month (UTC)"))
		out = append(out, m.monthLines(r, w, l.monthCols, l.monthRows)...)
		if l.gap {
			out = append(out, "")
		}
	}
	out = append(out, m.tabLine(len(rs), l.listRows))
	out = append(out, m.listLines(r, cols, rs, w, l.listRows, l.noteRows)...)
	return out
}

// topLines are the window, the totals, what could not be read and the payments of unknown
// amount, and a failed read.
func (m Model) topLines(w, h int) []string {
	th := m.pc.Theme
	from, to := m.askedFrom, m.askedTo
	if m.rep != nil {
		from, to = m.rep.From, m.rep.To
	}
	title := th.Focused.Render("Report") + th.Muted.Render(" · ")
	if !from.IsZero() {
		title += th.Header.Render(m.windowWords(from, to)) + th.Muted.Render(fmt.Sprintf(" · %d months", m.win.span))
	}
	if m.loading && m.rep != nil {
		title += th.Muted.Render(" · ") + m.spin + th.Muted.Render(" reading again…")
	}
	out := []string{title}
	if m.err != nil {
		what := "✗ The report could not be read: "
		if m.rep != nil {
			what = "✗ It could not be read again (the figures below are from the read before): "
		}
		out = append(out, th.Error.Render(what+clean(source.RedactError(m.err))), th.Muted.Render("r tries again"))
	}
	if m.rep == nil {
		return out
	}
	r := *m.rep
	paid := fmt.Sprintf("Paid %s in %s", r.Paid.Known.Dollars(), screen.Plural(r.Paid.Payments, "payment"))
	if r.Paid.Unknown > 0 {
		paid += th.Warning.Render(fmt.Sprintf(" · %s of unknown amount, not counted", screen.Plural(r.Paid.Unknown, "payment")))
	}
	out = append(out, th.Value.Render(paid), m.useLine(r))
	out = append(out, m.problemLines(r.Problems, h)...)
	if s := r.UnknownWords(); s != "" {
		out = append(out, th.Warning.Render("? "+clean(s)))
	}
	return out
}

// windowWords is the window in UTC, its last day included: "2026-01-01 to 2026-12-01 09:00
// UTC (now)" for a window that ends now, "2025-09-01 to 2025-11-30" for one that ends with
// its last month.
func (m Model) windowWords(from, to time.Time) string {
	end := to.Add(-time.Nanosecond).Format(time.DateOnly)
	if m.win.back == 0 {
		end = to.Format(model.LayoutMinuteUTC) + " (now)"
	}
	return from.Format(time.DateOnly) + " to " + end
}

// useLine is the reservations' hours in the window, used and reserved, and those whose use
// is unknown, never counted as idle.
func (m Model) useLine(r report.Report) string {
	th := m.pc.Theme
	u := r.Use
	var s string
	switch {
	case u.ReservedHours > 0:
		s = fmt.Sprintf("Used %s of %s reserved hours (%s)", hours(u.UsedHours), hours(u.ReservedHours), percent(u.UsedHours/u.ReservedHours))
	case len(r.Reservations) == 0:
		s = "Used: no reservations in this window"
	default:
		s = "Used: no reservation of known use"
	}
	s = th.Value.Render(s)
	if u.UnknownReservations > 0 {
		s += th.Warning.Render(fmt.Sprintf(" · use unknown for %s (%s reserved hours)", screen.Plural(u.UnknownReservations, "reservation"), hours(u.UnknownReservedHours)))
	}
	return s
}

// problemLines are what could not be read, one a line up to a few (one on a short
// terminal), the rest together on the last.
func (m Model) problemLines(ps []string, h int) []string {
	limit := 1
	if h >= 20 {
		limit = 3
	}
	var out []string
	if len(ps) <= limit {
		for _, p := range ps {
			out = append(out, "▲ not read: "+clean(p))
		}
	} else {
		for _, p := range ps[:limit-1] {
			out = append(out, "▲ not read: "+clean(p))
		}
		lead := "▲ %d more not read: "
		if limit == 1 {
			lead = "▲ %d not read: "
		}
		var rest []string
		for _, p := range ps[limit-1:] {
			rest = append(rest, clean(p))
		}
		out = append(out, fmt.Sprintf(lead, len(rest))+strings.Join(rest, "; "))
	}
	for i := range out {
		out[i] = m.pc.Theme.Warning.Render(out[i])
	}
	return out
}

// monthLines are the months' bars, oldest first, down each of cols columns, cut to rows.
func (m Model) monthLines(r report.Report, w, cols, rows int) []string {
	th := m.pc.Theme
	n := len(r.Months)
	per := ceilDiv(n, cols)
	aw := amountWidth(r.Months)
	cellW := (w - 3*(cols-1)) / cols
	bw := min(40, cellW-len("2026-01")-2-aw)
	var top int64
	for _, mo := range r.Months {
		top = max(top, mo.Known.Micros())
	}
	out := make([]string, 0, rows)
	for row := 0; row < min(rows, per); row++ {
		var cells []string
		for c := 0; c < cols; c++ {
			i := c*per + row
			if i >= n {
				break
			}
			mo := r.Months[i]
			b := ""
			if top > 0 && bw > 0 {
				b = bar(float64(mo.Known.Micros())/float64(top), bw)
			}
			amount := table.Cell(mo.Amount.String(), aw, true)
			style := th.Value
			switch {
			case mo.Unknown > 0:
				style = th.Warning
			case mo.Payments == 0:
				style = th.Muted
			}
			cell := th.Label.Render(mo.Label) + " "
			if bw > 0 {
				if b != "" {
					cell += th.Accent.Render(b)
				}
				cell += strings.Repeat(" ", bw-ansi.StringWidth(b)) + " "
			}
			cell += style.Render(amount)
			cells = append(cells, cell)
		}
		out = append(out, strings.Join(cells, "   "))
	}
	return out
}

// amountWidth is the widest amount among the months.
func amountWidth(ms []report.Month) int {
	w := 0
	for _, mo := range ms {
		w = max(w, ansi.StringWidth(mo.Amount.String()))
	}
	return w
}

// tabLine names the views, the one shown first, which of its rows are shown when not all
// are, and the use bars' glyphs.
func (m Model) tabLine(n, rows int) string {
	th := m.pc.Theme
	names := []string{"Reservations", "By account", "By source", "By tag"}
	var parts []string
	for i, n := range names {
		if view(i) == m.view {
			parts = append(parts, th.Focused.Render("["+n+"]"))
		} else {
			parts = append(parts, th.Muted.Render(" "+n+" "))
		}
	}
	s := strings.Join(parts, " ") + th.Muted.Render("  tab switches")
	if n > rows && rows > 0 {
		first, end := table.Window(m.cursor, m.offset, rows, n)
		s += th.Muted.Render(fmt.Sprintf(" · rows %d–%d of %d", first+1, end, n))
	}
	if m.view == viewReservations {
		s += th.Muted.Render(" · ") + th.OK.Render(usedGlyph) + th.Muted.Render(" used ") + th.Muted.Render(idleGlyph+" idle ") +
			th.Warning.Render(unknownGlyph) + th.Muted.Render(" use unknown")
	}
	return s
}

// hours is a number of hours as the report prints them: "1,234.5".
func hours(h float64) string { return report.Hours{Value: h, Known: true}.String() }

// percent is a share in whole percent.
func percent(share float64) string { return fmt.Sprintf("%.0f%%", share*100) }

// clean is text read from outside (ids, tags, messages) made safe for one line: no control
// character may move the cursor or end a line early.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
