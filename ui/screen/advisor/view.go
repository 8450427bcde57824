package advisor

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	adv "github.com/gpublock/gpublock/pricing/advisor"
)

// render draws the screen in its area.
func (m Model) render() string {
	width, height := m.area.Width, m.area.Height
	if width <= 0 || height <= 0 {
		return ""
	}
	var lines []string
	if m.mode == modeForm {
		lines = m.formLines(width)
	} else {
		lines = m.resultLines(width, height)
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "…")
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func (m Model) formLines(width int) []string {
	th := m.pc.Theme
	out := []string{th.Focused.Render("Advisor") + th.Muted.Render(" · what should we buy for this job? Nothing is bought here."), ""}
	lw := 15
	for i, f := range m.fields {
		focused := i == m.focus
		label := th.Label.Render(fmt.Sprintf("%-*s", lw, f.label))
		mark := "  "
		if focused {
			label = th.Focused.Render(fmt.Sprintf("%-*s", lw, f.label))
			mark = th.Focused.Render("▸ ")
		}
		var val string
		if f.boolean {
			v := "[ ] no"
			if f.on {
				v = "[x] yes"
			}
			val = th.Value.Render(v)
			if focused {
				val = th.Cursor.Render(v)
			}
			val += strings.Repeat(" ", max(0, 22-len([]rune(v))))
		} else {
			val = f.input.View(22, focused, th.Value, th.Cursor, th.Muted)
			val += strings.Repeat(" ", max(0, 22-ansi.StringWidth(val)))
		}
		line := mark + label + " " + val
		if width >= 60 {
			line += "  " + th.Muted.Render(f.hint)
		}
		out = append(out, line)
	}
	out = append(out, "")
	if m.err != "" {
		for _, l := range wrap(m.err, width-2) {
			out = append(out, th.Error.Render("✗ "+l))
		}
	} else {
		out = append(out, th.Muted.Render("enter searches the window in the regions and sets every option against the job"))
	}
	return out
}

// statusMark is the one-cell mark of an option's status, readable without colour.
func statusMark(c adv.Cells) string {
	switch c.Status {
	case "recommended":
		return "★"
	case "ruled out":
		return "✗"
	case "unknown":
		return "?"
	}
	return " "
}

func (m Model) resultLines(width, height int) []string {
	th := m.pc.Theme
	var out []string
	out = append(out, th.Header.Render(adv.JobLine(m.job)))
	out = append(out, m.statusText())
	if m.err != "" {
		out = append(out, th.Error.Render("✗ "+m.err))
	}
	if m.advice == nil {
		return out
	}
	a := *m.advice
	wide := width >= 100
	head := fmt.Sprintf("  %-2s %-16s %-19s %-16s %-18s", "#", "OPTION", "TOTAL", adv.PerHourHeading, "WHERE")
	if wide {
		head += " STATUS"
	}
	if th.Accessible {
		head = "  " + head
	}
	out = append(out, th.TableHeader.Render(head))
	for i, o := range a.Options {
		c := adv.Describe(o, a.Recommended)
		row := fmt.Sprintf("%s %-2d %-16s %-19s %-16s %-18s", statusMark(c), i+1, o.Kind.Title(), c.Total, c.PerHour, c.Where)
		if wide {
			row += " " + c.Status
		}
		if th.Accessible {
			// The chosen row is not told by its colour alone.
			mark := "  "
			if i == m.cursor && m.tab != tabCalendar {
				mark = "> "
			}
			row = mark + row
		}
		switch {
		case i == m.cursor && m.tab != tabCalendar:
			row = th.Selected.Render(ansi.Truncate(row, width, "…"))
		case c.Status == "ruled out":
			row = th.Muted.Render(row)
		case c.Status == "recommended":
			row = th.OK.Render(row)
		}
		out = append(out, row)
	}
	detailN := 3
	if height >= 40 {
		detailN = 7
	}
	if o, ok := m.Selected(); ok && m.tab != tabCalendar {
		var d []string
		for _, l := range adv.Details(o, m.pc.Now()) {
			d = append(d, wrap(l, width-2)...)
		}
		if o.Offering != nil && !m.pc.ReadOnly {
			d = append([]string{"enter opens the purchase dialog on this offering"}, d...)
		}
		if len(d) > detailN {
			d = append(d[:detailN-1], "…")
		}
		for _, l := range d {
			out = append(out, th.Muted.Render("  "+l))
		}
	}
	out = append(out, m.tabLine(width))
	rest := height - len(out)
	if rest <= 0 {
		return out
	}
	switch m.tab {
	case tabSteps:
		var steps []string
		for _, s := range a.Steps {
			steps = append(steps, wrap(s, width)...)
		}
		if len(steps) > rest {
			steps = append(steps[:rest-1], th.Muted.Render("… (v: the chart)"))
		}
		out = append(out, steps...)
	case tabChart:
		if th.Accessible {
			out = append(out, chartSentences(a, width)...)
			break
		}
		out = append(out, strings.Split(a.Chart(width, rest), "\n")...)
	case tabCalendar:
		out = append(out, m.calendarLines(width, rest)...)
	}
	return out
}

func (m Model) statusText() string {
	th := m.pc.Theme
	n := len(m.offers)
	offerings := fmt.Sprintf("%d offering%s", n, map[bool]string{true: "s"}[n != 1])
	var s string
	switch {
	case m.pending > 0:
		s = fmt.Sprintf("searching… %d of %d searches done · %s so far", m.searches-m.pending, m.searches, offerings)
		if note := m.paceNote(); note != "" {
			s += " · " + note
		}
	case len(m.searched) > 0:
		s = "searched: " + offerings
	default:
		s = "nothing to search for this job"
	}
	for _, src := range model.Sources() {
		if !m.searched[src] {
			s += " · " + src.Plural() + ": not searched"
		}
	}
	if len(m.failed) > 0 {
		return th.Warning.Render(s + " · failed: " + strings.Join(m.failed, "; "))
	}
	return th.Muted.Render(s)
}

func (m Model) tabLine(width int) string {
	names := []string{"Steps", "Chart: cost vs utilization", "Calendar: next 8 weeks"}
	var parts []string
	for i, n := range names {
		if tab(i) == m.tab {
			parts = append(parts, m.pc.Theme.Focused.Render("["+n+"]"))
		} else {
			parts = append(parts, m.pc.Theme.Muted.Render(" "+n+" "))
		}
	}
	return strings.Join(parts, " ") + m.pc.Theme.Muted.Render("  v switches")
}

// chartSentences say the chart of the accessible mode: each leading option's cost for the
// job, then where two of them cost the same.
func chartSentences(a adv.Advice, width int) []string {
	var out []string
	for _, o := range a.Leading(4) {
		cost := o.Total.Dollars()
		if o.HasRange {
			cost = o.Low.Dollars() + " to " + o.High.Dollars()
		}
		out = append(out, wrap(fmt.Sprintf("%s costs %s for this job.", o.Kind.Title(), cost), width)...)
	}
	for _, c := range a.Crossings {
		out = append(out, wrap(fmt.Sprintf("%s and %s cost the same at %s utilization (%s).", c.A.Title(), c.B.Title(), c.Utilization.Percent(), c.Cost.Dollars()), width)...)
	}
	if len(out) == 0 {
		out = append(out, "No option has a known cost to chart.")
	}
	return out
}

func wrap(s string, width int) []string {
	if width < 10 {
		width = 10
	}
	return strings.Split(ansi.Wordwrap(s, width, ""), "\n")
}
