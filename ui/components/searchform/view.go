package searchform

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/components/textfield"
)

const labelWidth = 10

// View draws the form in width×height cells. Focused is whether the form pane has the
// focus; the focused field is marked only then. A form taller than height scrolls to keep
// the focused line in view.
func (m Model) View(width, height int, focused bool) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var lines []string
	focusLine := 0
	th := m.th
	mark := func(f Field) bool { return focused && m.focus == f }
	label := func(f Field, s string) string {
		if mark(f) {
			return th.Focused.Render(pad("›"+s, labelWidth))
		}
		return th.Label.Render(pad(" "+s, labelWidth))
	}
	add := func(s string) { lines = append(lines, text.Truncate(s, width, "…")) }
	errLines := func(f Field) {
		if msg, ok := m.errs[f]; ok {
			for _, l := range text.WrapParagraphs("✗ "+msg, width-2) {
				add("  " + th.Error.Render(l))
			}
		}
	}
	hint := func(f Field, s string) {
		if mark(f) {
			for _, l := range text.WrapParagraphs(s, width-2) {
				add("  " + th.Muted.Render(l))
			}
		}
	}
	chosenRegions := m.ChosenRegions()
	now := m.at.UTC()
	noteLines := func(f Field) {
		if msg, ok := m.notes[f]; ok {
			for _, l := range text.WrapParagraphs("! "+msg, width-2) {
				add("  " + th.Warning.Render(l))
			}
		}
	}

	// Each field draws its own lines; they are drawn in the fields' order, which is also
	// the order tab moves the focus through them.
	var draw [numFields]func()

	// Source: which systems are searched, and with plans what they are for.
	draw[Source] = func() {
		if mark(Source) {
			focusLine = len(lines)
		}
		add(label(Source, "Source") + th.Value.Render("‹ "+m.sources.label()+" ›"))
		if m.sources.plans() {
			add(strings.Repeat(" ", labelWidth) + th.Muted.Render("for ") + th.Value.Render(model.TargetLabel(m.sources.targets()[0])))
		}
		hint(Source, "←/→ or space: Capacity Blocks, Training Plans or both · t: what the plan is for (training job, HyperPod cluster, endpoint, Studio apps)")
	}

	// Instance types.
	chosen := m.ChosenTypes()
	draw[Types] = func() {
		summary := th.Value.Render(fmt.Sprintf("%d chosen", len(chosen)))
		if len(chosen) > 0 && len(chosen) <= 2 {
			summary = th.Value.Render(strings.Join(chosen, ", "))
		}
		if mark(Types) {
			focusLine = len(lines)
		}
		add(label(Types, "Types") + summary)
		if !m.filtering && m.typeFilter.Value() == "" {
			add(" " + th.Muted.Render(typesHint(width)))
		} else {
			add(" / " + m.typeFilter.View(max(1, width-3), mark(Types) && m.filtering, th.Value, th.Cursor, th.Muted))
		}
		if len(m.typeMatches) == 0 {
			add("  " + th.Muted.Render("no type matches the filter"))
		}
		for i, idx := range m.typeMatches {
			t := m.catalog[idx]
			cursor := " "
			if mark(Types) && i == m.typeCursor {
				cursor = "›"
				focusLine = len(lines)
			}
			box := "[ ]"
			if m.chosenTypes[t.Name] {
				box = "[x]"
			}
			sells := 0
			for _, r := range chosenRegions {
				if t.Sells(r) {
					sells++
				}
			}
			where := fmt.Sprintf("%d/%d", sells, len(chosenRegions))
			row := fmt.Sprintf("%s%s %s", cursor, box, typeCell(t))
			style := th.Value
			if sells == 0 {
				style = th.Muted
			}
			if mark(Types) && i == m.typeCursor {
				style = th.Selected
			}
			line := style.Render(row)
			if text.Width(row)+1+len(where) <= width { // chosen regions selling it, when there is room
				line += " " + th.Muted.Render(where)
			}
			add(line)
		}
		if len(m.typeMatches) > 0 {
			t := m.catalog[m.typeMatches[min(m.typeCursor, len(m.typeMatches)-1)]]
			var selling []string
			for _, r := range chosenRegions {
				if t.Sells(r) {
					selling = append(selling, r)
				}
			}
			info := fmt.Sprintf("%s: %d× %s %s, %d GiB each (%d GiB)", t.Name, t.Accelerators, t.AcceleratorMaker, t.AcceleratorModel, t.AcceleratorGiB, t.AcceleratorMemoryGiB())
			if t.UltraServer {
				info += fmt.Sprintf(", UltraServer of %d %s", t.Instances, t.MemberType)
			}
			if len(selling) > 0 {
				info += "; sold in " + strings.Join(selling, ", ")
			} else {
				info += "; sold in none of the chosen regions (" + strings.Join(t.Regions, ", ") + ")"
			}
			for _, l := range text.WrapParagraphs(info, width-2) {
				add("  " + th.Muted.Render(l))
			}
		}
		errLines(Types)
		noteLines(Types)
		if m.filtering {
			hint(Types, "type to filter · enter keeps it · esc clears · space choose · ↑↓ move")
		} else {
			hint(Types, "/ filter · space choose · ↑↓ or j/k move")
		}
	}

	// Count, dates, duration.
	field := func(f Field, name, value, beside string) {
		if mark(f) {
			focusLine = len(lines)
		}
		l := label(f, name) + value
		if short, ok := strings.CutSuffix(beside, " UTC"); ok && text.Width(l)+1+text.Width(beside) > width {
			beside = short // the hint under a date says it is UTC
		}
		// A note's aside in parentheses that does not fit goes on a line of its own, whole.
		var under string
		if i := strings.Index(beside, " ("); i > 0 && strings.HasSuffix(beside, ")") && text.Width(l)+1+text.Width(beside) > width {
			beside, under = beside[:i], beside[i+2:len(beside)-1]
		}
		add(l + " " + th.Muted.Render(beside))
		if under != "" {
			add("  " + th.Muted.Render(under))
		}
		errLines(f)
	}
	fw := 10
	countNote := "of 1–64"
	if m.sources.plans() {
		countNote = "of " + model.SourceCapacityBlock.CountRule() + " (plans: " + model.SourceTrainingPlan.CountRule() + ")"
		if !slices.Contains(m.query.Sources, model.SourceCapacityBlock) {
			countNote = "of " + model.SourceTrainingPlan.CountRule()
		}
	}
	draw[Count] = func() {
		field(Count, "Count", m.fieldView(m.count, mark(Count), fw), countNote)
		noteLines(Count)
		hint(Count, "+/- or ←/→ change · digits type")
	}
	draw[Start] = func() {
		field(Start, "Start", m.fieldView(m.start, mark(Start), fw), resolved(m.query.Start, m.errs[Start] == ""))
		hint(Start, "2026-12-03, 2026-12-03T11:30:00Z, now, +2w, +10d · times in UTC")
	}
	draw[End] = func() {
		limit := now.Add(model.MaxLeadTime)
		field(End, "End", m.fieldView(m.end, mark(End), fw), resolved(m.query.End, m.errs[End] == ""))
		// AWS's 8 weeks bound the start, not the end (a window may end a block's length later):
		// said as the start's limit, though it sits under the end as it did when both were bound.
		latest := "latest start: " + limit.Format(model.LayoutShort) + " UTC"
		if long := latest + " (8 weeks ahead)"; 2+text.Width(long) <= width {
			latest = long
		}
		add("  " + th.Muted.Render(latest))
	}
	draw[Duration] = func() {
		field(Duration, "Duration", "‹ "+m.fieldView(m.duration, mark(Duration), fw-4)+" ›", durationNote(m.query.Durations, m.errs[Duration] == ""))
		if m.plansOnly() {
			hint(Duration, fmt.Sprintf("←/→ step through the lengths plans last (1–%d whole days) · type a range 2d-7d to sweep (at most %d lengths)",
				model.MaxReservationDays, model.SourceTrainingPlan.SweepLengths()))
		} else {
			hint(Duration, "←/→ step through the durations AWS sells (1–14d, 3–26w) · type a range 2d-7d to sweep")
		}
	}
	noteLines(Duration)

	// Regions.
	draw[Regions] = func() {
		if mark(Regions) && m.regionCursor == 0 {
			focusLine = len(lines)
		}
		add(label(Regions, "Regions") + th.Value.Render(fmt.Sprintf("%d chosen", len(chosenRegions))))
		for i := 0; i <= len(m.regions); i++ {
			cursor := " "
			if mark(Regions) && i == m.regionCursor {
				cursor = "›"
				focusLine = len(lines)
			}
			var row, note string
			style := th.Value
			if i == 0 {
				box := "[ ]"
				if m.allSelling {
					box = "[x]"
				}
				row = fmt.Sprintf("%s%s all regions selling the types", cursor, box)
			} else {
				r := m.regions[i-1]
				box := "[ ]"
				if m.allSelling && contains(chosenRegions, r) || !m.allSelling && m.chosenRegions[r] {
					box = "[x]"
				}
				sells := 0
				for _, t := range chosen {
					if lt, ok := model.LookupType(t); ok && lt.Sells(r) {
						sells++
					}
				}
				row = fmt.Sprintf("%s%s %-15s", cursor, box, r)
				note = fmt.Sprintf("sells %d/%d", sells, len(chosen))
				if sells == 0 {
					style = th.Muted
				}
			}
			if mark(Regions) && i == m.regionCursor {
				style = th.Selected
			}
			add(style.Render(row) + " " + th.Muted.Render(note))
		}
		errLines(Regions)
		hint(Regions, "space choose · a: all regions that sell the chosen types")
	}

	var focusEnd int // the line after the focused field's last
	for f, d := range draw {
		d()
		if mark(Field(f)) {
			focusEnd = len(lines)
		}
	}

	if height < len(lines) {
		lines = m.scrolled(lines, height, focusLine, max(0, min(focusEnd-focusLine-1, height/3)))
	}
	return strings.Join(lines, "\n")
}

// scrolled cuts a form taller than height to the fewest lines scrolled from its top that
// show the focused line and after lines below it (the field's hint and errors), so that the
// form opens at its top; what is cut is counted in a line at the top or the bottom.
func (m Model) scrolled(lines []string, height, focus, after int) []string {
	n := len(lines)
	if height < 3 { // no room for a count: the focused line alone
		top := max(0, min(focus, n-height))
		return lines[top : top+height]
	}
	rows, top := height, 0
	for range 3 { // each count shown takes a row, which may scroll one line further
		top = max(0, min(focus+after-rows+1, n-rows))
		r := height
		if top > 0 {
			r--
		}
		if top+r < n {
			r--
		}
		if r == rows {
			break
		}
		rows = r
	}
	top = max(0, min(top, focus))
	out := make([]string, 0, height)
	if top > 0 {
		out = append(out, "  "+m.th.Muted.Render(fmt.Sprintf("↑ %d more above", top)))
	}
	out = append(out, lines[top:min(n, top+rows)]...)
	if below := n - top - rows; below > 0 {
		out = append(out, "  "+m.th.Muted.Render(fmt.Sprintf("↓ %d more below", below)))
	}
	return out
}

func (m Model) fieldView(f textfield.Model, on bool, w int) string {
	s := f.View(w, on, m.th.Value, m.th.Cursor, m.th.Muted)
	return s + strings.Repeat(" ", max(0, w-text.Width(s)))
}

func resolved(t time.Time, ok bool) string {
	if !ok || t.IsZero() {
		return ""
	}
	return "→ " + t.UTC().Format(model.LayoutShort) + " UTC"
}

func durationNote(d model.DurationRange, ok bool) string {
	if !ok {
		return ""
	}
	if d.IsRange() {
		days := d.Days()
		parts := make([]string, len(days))
		for i, n := range days {
			parts[i] = model.FormatDays(n)
		}
		return "sweeps " + strings.Join(parts, " ")
	}
	return fmt.Sprintf("= %d hours", d.MinDays*24)
}

func shortModel(s string) string {
	switch s {
	case "Trainium":
		return "Trn1"
	case "Trainium2":
		return "Trn2"
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func pad(s string, w int) string {
	if n := text.Width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// typeCell is a type's name and accelerators (count, model, memory each) in 29 cells: the
// accelerators from the 18th, or as far left as a long entry needs (an UltraServer's
// "72×GB200 185G" under its shorter name), so that the regions column after it stays in
// line and fits the 40-cell form.
// typesHint is the line under the types' label: how to filter them and, when the rows have
// room for it, what the n/m after each type counts; the longest that fits width.
func typesHint(width int) string {
	counts := 1 + 3 + 1 + typeCellWidth + 1 + len("n/m") // cursor, box, cell, count
	if width < counts {
		return "/ filters the types"
	}
	for _, h := range []string{"/ filters the types · n/m: how many of the chosen regions sell it",
		"/ filters · n/m: chosen regions selling it", "/ filters · n/m: regions selling it"} {
		if 1+text.Width(h) <= width {
			return h
		}
	}
	return "/ filters the types"
}

// typeCellWidth is the width of a type's cell in the list (typeCell).
const typeCellWidth = 29

func typeCell(t model.InstanceType) string {
	const nameW, cellW = 16, typeCellWidth
	accel := fmt.Sprintf("%d×%s %dG", t.Accelerators, shortModel(t.AcceleratorModel), t.AcceleratorGiB)
	name := fmt.Sprintf("%-*s", nameW, t.Name)
	if w := text.Width(accel); len(t.Name) < nameW && nameW+1+w > cellW {
		name = fmt.Sprintf("%-*s", max(len(t.Name), cellW-1-w), t.Name)
	}
	return fmt.Sprintf("%-*s", cellW, name+" "+accel)
}
