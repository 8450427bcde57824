// Package detail draws everything known about one offering: every field, start and end in
// UTC and local time, the 11:30 UTC and termination rules, and the AWS CLI commands. A pane
// too short for all of it scrolls (scroll.go).
package detail

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// spacer marks a blank line that is dropped when the pane is too short for every line.
const spacer = pager.Spacer

// View draws the offering in width×height cells, from its top; q is the search that found it
// (for the CLI command), now gives "starts in", loc the local time. readOnly leaves out the
// purchase command, as read-only mode removes every path that spends money.
func View(th theme.Theme, o model.Offering, q model.Query, now time.Time, loc *time.Location, readOnly bool, width, height int) string {
	return NewPage(th, o, nil, q, now, loc, readOnly, width, height).View(Scroll{}, false)
}

// ViewCompared is View with the offering's comparison with on-demand: the on-demand rate
// and its source, or plainly why there is none, and the break-even reading.
func ViewCompared(th theme.Theme, c pricing.Comparison, q model.Query, now time.Time, loc *time.Location, readOnly bool, width, height int) string {
	return NewPage(th, c.Offering, &c, q, now, loc, readOnly, width, height).View(Scroll{}, false)
}

// content is the offering's detail in lines width cells wide, blank lines marked spacer.
func content(th theme.Theme, o model.Offering, c *pricing.Comparison, q model.Query, now time.Time, loc *time.Location, readOnly bool, width int) []string {
	if loc == nil {
		loc = time.Local
	}
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	field := func(label, value string) {
		const lw = 12
		for i, l := range text.Wrap(value, width-lw) {
			if i == 0 {
				add(th.Label.Render(fmt.Sprintf("%-*s", lw, label)) + th.Value.Render(l))
			} else {
				add(strings.Repeat(" ", lw) + th.Value.Render(l))
			}
		}
	}
	para := func(style func(...string) string, s string) {
		for _, l := range text.Wrap(s, width) {
			add(style(l))
		}
	}
	both := func(t time.Time) string { return model.WeekdayTimes(t, loc) }
	inLocal := func(t time.Time) string {
		if !model.LocalDiffers(t, loc) {
			return ""
		}
		return " (" + t.In(loc).Format(model.LayoutClockZone) + ")"
	}

	if o.Source == model.SourceTrainingPlan {
		planContent(&drawer{th: th, width: width, add: add, field: field, para: para, both: both}, o, c, q, now, readOnly)
		return truncated(lines, width)
	}
	add(th.Focused.Render(o.ID) + th.Value.Render(" · "+o.Region+" · "+o.Zones()))
	// One line for what is bought: count, type, and the accelerators of the whole block.
	what := fmt.Sprintf("%d × %s", o.Count, o.InstanceType)
	if t, known := model.LookupType(o.InstanceType); known {
		what += fmt.Sprintf(" · %d× %s %s, %d GiB each", o.Accelerators(), t.AcceleratorMaker, t.AcceleratorModel, t.AcceleratorGiB)
	}
	if o.UltraServerType != "" {
		what += fmt.Sprintf(" · UltraServer %s × %d", o.UltraServerType, max(1, o.UltraServerCount))
	}
	if o.Tenancy != "" {
		what += " · " + o.Tenancy + " tenancy"
	}
	field("Instances", what)
	field("Start", both(o.Start))
	field("End", both(o.End))
	length := fmt.Sprintf("%s (%d hours", lengthWords(o), o.DurationHours)
	if o.DurationMinutes > 0 {
		length += fmt.Sprintf(" %d minutes", o.DurationMinutes)
	}
	field("Length", length+")")
	if o.Segmented() {
		field("Segments", fmt.Sprintf("%d, bought together: the purchase makes %d capacity reservations, one per segment", len(o.Parts), len(o.Parts)))
		for i, p := range o.Parts {
			field(fmt.Sprintf("Segment %d", i+1), model.SegmentLine(p, o.Currency, loc))
		}
		if problem := o.SegmentsProblem(); problem != "" {
			para(th.Error.Render, "Not for sale here: "+problem+".")
		}
	}
	cur := o.Currency
	if cur == "" {
		cur = "USD"
	}
	field("Upfront fee", o.Fee.Dollars()+" "+cur+" ("+o.Fee.String()+"), charged at purchase; cannot be cancelled")
	field("Rates", o.HourlyRate().Rate()+" per instance-hour · "+o.AcceleratorHourlyRate().Rate()+" per accelerator-hour")
	if c != nil {
		on, be := pricingFields(*c)
		field("On-demand", on)
		if be != "" {
			field("Break-even", be)
		}
	}
	when := "in " + model.ShortSpan(o.Start.Sub(now))
	if o.Started(now) {
		when = StartedWords
	}
	field("Starts", when)

	add(spacer)
	end := o.End.UTC()
	para(th.Muted.Render, fmt.Sprintf("Why %s%s? Every Capacity Block ends then: blocks run whole days from 11:30, a little shorter or longer if they start at another time.", end.Format(model.LayoutClockUTC), inLocal(o.End)))
	term := o.End.Add(-model.TerminationLead)
	para(th.Warning.Render, fmt.Sprintf("Instances are terminated from %s UTC%s, 30 minutes before the end; AWS warns 10 minutes before that.", term.UTC().Format(model.LayoutClock), inLocal(term)))

	add(spacer)
	if readOnly {
		add(th.Label.Render("AWS CLI · y copies the search"))
	} else {
		add(th.Label.Render("AWS CLI · y copies the search · Y copies the purchase"))
	}
	for _, l := range shellWrap(SearchCommand(o, q), width) {
		add(th.Code.Render(l))
	}
	if !readOnly {
		for _, l := range shellWrap(PurchaseCommand(o), width) {
			add(th.Code.Render(l))
		}
	}
	return truncated(lines, width)
}

// drawer is what content draws with, handed to the drawing of a training plan.
type drawer struct {
	th    theme.Theme
	width int
	add   func(string)
	field func(label, value string)
	para  func(style func(...string) string, s string)
	both  func(time.Time) string
}

func truncated(lines []string, width int) []string {
	for i, l := range lines {
		if l != spacer {
			lines[i] = text.Truncate(l, width, "…")
		}
	}
	return lines
}

func lengthWords(o model.Offering) string {
	mins := o.Minutes()
	if mins%(24*60) == 0 {
		d := mins / (24 * 60)
		if d == 1 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", d)
	}
	return model.FormatLength(mins)
}

// shellWrap breaks a command at its arguments, ending each broken line with " \" so that
// what is on the screen can still be pasted into a shell.
func shellWrap(cmd string, width int) []string {
	width = max(width, 12)
	words := strings.Fields(cmd)
	var out []string
	line := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		// Keep a flag with its value.
		if strings.HasPrefix(w, "--") && i+1 < len(words) && !strings.HasPrefix(words[i+1], "--") {
			w += " " + words[i+1]
			i++
		}
		switch {
		case line == "":
			line = w
		case text.Width(line)+1+text.Width(w)+2 <= width:
			line += " " + w
		default:
			out = append(out, line+" \\")
			line = "  " + w
		}
	}
	return append(out, line)
}

// StartedWords is the detail's start of an offering that has started: it is not for sale
// any more (model.Offering.Started), whatever the row says until the clock's tick takes it off.
const StartedWords = "already started: AWS no longer sells it"
