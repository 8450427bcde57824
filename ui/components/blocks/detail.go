package blocks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// Detail draws everything known about one block in width×height cells, from its top; see
// DetailPage.
func Detail(th theme.Theme, b model.Block, fee model.Money, hasFee bool, now time.Time, loc *time.Location, width, height int) string {
	return DetailPage(th, b, fee, hasFee, now, loc, width, height).View(pager.Scroll{}, false)
}

// DetailPage lays out everything known about one block for a pane of width×height cells:
// its warning, times (UTC and local), ids, console URL, instances, extension history and
// tags; a pane too short for it scrolls (pager). fee is the fee paid when known (hasFee).
func DetailPage(th theme.Theme, b model.Block, fee model.Money, hasFee bool, now time.Time, loc *time.Location, width, height int) pager.Page {
	return DetailPageRules(th, model.DefaultWarnRules(), b, fee, hasFee, now, loc, width, height)
}

// DetailPageRules is DetailPage with the warnings of the given lead times.
func DetailPageRules(th theme.Theme, rules model.WarnRules, b model.Block, fee model.Money, hasFee bool, now time.Time, loc *time.Location, width, height int) pager.Page {
	return DetailPageMore(th, rules, b, fee, hasFee, now, loc, nil, width, height)
}

// DetailPageMore is DetailPageRules with more facts the screen knows beside the block (its
// attached launch), laid out as its own fields, over the instances they concern.
func DetailPageMore(th theme.Theme, rules model.WarnRules, b model.Block, fee model.Money, hasFee bool, now time.Time, loc *time.Location, more []model.Fact, width, height int) pager.Page {
	if width <= 0 || height <= 0 {
		return pager.New(th, b.ReservationID, nil, width, height)
	}
	return pager.New(th, b.ReservationID, detailLines(th, rules, b, fee, hasFee, now, loc, more, width), width, height)
}

func detailLines(th theme.Theme, rules model.WarnRules, b model.Block, fee model.Money, hasFee bool, now time.Time, loc *time.Location, more []model.Fact, width int) []string {
	if loc == nil {
		loc = time.Local
	}
	if IsPlan(b) {
		return planDetailLines(th, rules, b, now, loc, width)
	}
	var lines []string
	add := func(s string) { lines = append(lines, ansi.Truncate(s, width, "…")) }
	const lw = 14
	// A value too long for the pane goes on under itself, as in the offering's detail: cut,
	// the fee's source and the termination's meaning were lost at 80 columns.
	field := func(label, value string) {
		if ansi.StringWidth(value) <= width-lw {
			add(th.Label.Render(fmt.Sprintf("%-*s", lw, label)) + th.Value.Render(value))
			return
		}
		for i, l := range text.Wrap(value, width-lw) {
			if i == 0 {
				add(th.Label.Render(fmt.Sprintf("%-*s", lw, label)) + th.Value.Render(l))
			} else {
				add(strings.Repeat(" ", lw) + th.Value.Render(l))
			}
		}
	}
	both := func(t time.Time) string { return model.WeekdayTimes(t, loc) }

	add(th.Focused.Render(b.ReservationID) + th.Value.Render(fmt.Sprintf(" · %s × %d · %s · %s", b.InstanceType, b.TotalCount, b.AvailabilityZone, b.State)))
	for _, l := range warningLines(th, rules, b, now, width) {
		add(l)
	}
	// The countdown sits beside the time it counts to: the start until then, the end after.
	// A block that will not run counts to nothing: its times are only what was bought.
	switch {
	case b.WillNotRun():
		field("Start", both(b.Start)+" · "+b.Countdown(now))
		field("End", both(b.End))
		field("Terminates at", "— (nothing runs in it: "+notRunning(b)+")")
	case now.Before(b.Start):
		field("Start", both(b.Start)+" · "+b.Countdown(now))
		field("End", both(b.End))
	default:
		field("Start", both(b.Start))
		field("End", both(b.End)+" · "+b.Countdown(now))
	}
	if !b.WillNotRun() {
		field("Terminates at", both(b.TerminationAt())+" · instances are terminated from 30 minutes before the end")
	}
	field("Running", fmt.Sprintf("%d of %d instances (%s)", b.RunningCount, b.TotalCount, FreeWords(b)))
	switch {
	case b.State == model.StatePaymentFailed:
		field("What to do", "check the account's payment method (AWS Billing console), then search again (1): the capacity went back on sale")
	case slices.ContainsFunc(rules.Warnings(b, now), func(w model.Warning) bool { return w.Kind == ExtensionFailed }):
		field("What to do", "the extension's payment failed and the end did not move: check the account's payment method (AWS Billing console), then extend again (e)")
	}
	ic := b.Interconnect
	if ic == "" {
		ic = "unknown"
	}
	field("Interconnect", ic)
	switch {
	case hasFee && b.State == model.StatePaymentFailed:
		field("Fee paid", fee.Dollars()+" (the payment failed: nothing was charged)")
	case hasFee:
		field("Fee paid", fee.Dollars()+" (this machine's purchase journal: the block and its extensions)")
	default:
		field("Fee paid", "— (not in this machine's purchase journal; AWS does not list it per reservation)")
	}
	field("Reservation", b.ReservationID+"  (y copies)")
	blockID := b.BlockID
	if blockID == "" {
		blockID = "—"
	}
	field("Block", blockID+"  (Y copies)")
	field("Console", ConsoleURL(b)+"  (o opens)")
	for _, f := range more {
		field(f.Label, f.Value)
	}

	add(th.Label.Render(fmt.Sprintf("Instances (%d)", len(b.Instances))))
	if len(b.Instances) == 0 {
		add(th.Muted.Render("  none in this block (AWS lists a terminated one for about an hour)"))
	}
	// The terminated ones stay, with when they stopped: what ran in a block that ended is
	// what is asked after it.
	for _, in := range b.Instances {
		style := th.Muted
		if in.Live() {
			style = th.Value
		}
		line := fmt.Sprintf("  %-19s  %-13s  launched %s", in.ID, in.State, in.LaunchTime.UTC().Format(model.LayoutShortUTC))
		if !in.StoppedAt.IsZero() {
			stopped := "stopped " + in.StoppedAt.UTC().Format(model.LayoutShortUTC)
			// Too wide for the pane (80 columns), the stop time goes under, not cut off.
			if ansi.StringWidth(line+", "+stopped) > width {
				add(style.Render(line))
				line = strings.Repeat(" ", 23) + stopped
			} else {
				line += ", " + stopped
			}
		}
		add(style.Render(line))
	}
	add(th.Label.Render(fmt.Sprintf("Extensions (%d)", len(b.Extensions))))
	if len(b.Extensions) == 0 {
		add(th.Muted.Render("  none"))
	}
	for _, e := range b.Extensions {
		add(th.Value.Render(fmt.Sprintf("  +%s  %s → %s  %s  %s", model.FormatDays(e.DurationHours/24), e.Start.UTC().Format(model.LayoutShort),
			e.End.UTC().Format(model.LayoutShort), e.Fee.Dollars(), extensionStatus(e.Status))))
	}
	if len(b.Tags) > 0 {
		keys := make([]string, 0, len(b.Tags))
		for k := range b.Tags {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		add(th.Label.Render(fmt.Sprintf("Tags (%d)", len(keys))))
		for _, k := range keys {
			add(th.Value.Render("  " + k + " = " + b.Tags[k]))
		}
	}
	return lines
}

// notRunning says why a block that will not run does not.
func notRunning(b model.Block) string {
	switch b.State {
	case model.StatePaymentFailed:
		return "its payment failed"
	case model.StateCancelled:
		return "it was cancelled"
	}
	return "it failed"
}

// extensionStatus says what the status means for the end: AWS moves it only once paid.
func extensionStatus(st model.ExtensionStatus) string {
	switch st {
	case model.ExtensionPaymentPending:
		return string(st) + " (the end moves once paid)"
	case model.ExtensionPaymentFailed:
		return string(st) + " (the end did not move)"
	}
	return string(st)
}

// warningLines are the most urgent warning in words, on one line with the others' names
// (each kind once), so that the times below them stay in view.
func warningLines(th theme.Theme, rules model.WarnRules, b model.Block, now time.Time, width int) []string {
	seen := map[Warning]bool{}
	var top model.Warning
	var others []string
	for _, w := range rules.Warnings(b, now) {
		switch {
		case seen[w.Kind]:
		case len(seen) == 0:
			top = w
		default:
			others = append(others, w.Cell(b, now))
		}
		seen[w.Kind] = true
	}
	if top.Kind == NoWarning {
		return nil
	}
	style := th.Warning
	if top.Kind.Red() {
		style = th.Error
	}
	head := top.Cell(b, now)
	if len(others) > 0 {
		head += " (+ " + strings.Join(others, ", ") + ")"
	}
	var out []string
	for _, l := range text.Wrap(head+": "+top.Sentence(b, now), width) {
		out = append(out, style.Render(l))
	}
	return out
}

// FreeWords is a block's free count as the CLI's table and the launch confirmations state
// it (model.Block.FreeCount), and AWS's available count beside it when they differ (none
// available before the start while the payment is pending).
func FreeWords(b model.Block) string {
	free := fmt.Sprintf("%d free", b.FreeCount())
	if b.FreeCount() != b.AvailableCount {
		free += fmt.Sprintf("; AWS counts %d available until it starts", b.AvailableCount)
	}
	return free
}
