package blocks

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/theme"
)

// IsPlan reports whether the reservation is a training plan.
func IsPlan(b model.Block) bool { return b.Source == model.SourceTrainingPlan }

// planEnding is what the end of a plan means, said where a block's termination is.
const planEnding = "when the plan (or one of its reserved capacities) ends, SageMaker stops the jobs, cluster instances and endpoints running on it"

// planDetailLines is a training plan in the reservations screen: its status in SageMaker's
// words, the warnings and countdowns of a block, each reserved capacity, its ARN and how to
// pass it to each resource it was bought for, as AWS CLI lines to copy.
func planDetailLines(th theme.Theme, rules model.WarnRules, b model.Block, now time.Time, loc *time.Location, width int) []string {
	var lines []string
	add := func(s string) { lines = append(lines, ansi.Truncate(s, width, "…")) }
	const lw = 14
	field := func(label, value string) {
		for i, l := range text.Wrap(value, max(10, width-lw)) {
			if i == 0 {
				add(th.Label.Render(fmt.Sprintf("%-*s", lw, label)) + th.Value.Render(l))
			} else {
				add(strings.Repeat(" ", lw) + th.Value.Render(l))
			}
		}
	}
	both := func(t time.Time) string { return model.WeekdayTimes(t, loc) }
	add(th.Focused.Render(b.ReservationID) + th.Value.Render(fmt.Sprintf(" · %s × %d · %s · %s", b.InstanceType, b.TotalCount, b.Region, model.PlanStatus(b.State))))
	for _, l := range warningLines(th, rules, b, now, width) {
		add(l)
	}
	switch {
	case b.WillNotRun():
		field("Start", both(b.Start))
		field("End", both(b.End))
	case now.Before(b.Start):
		field("Start", both(b.Start)+" · "+b.Countdown(now))
		field("End", both(b.End))
	default:
		field("Start", both(b.Start))
		field("End", both(b.End)+" · "+b.Countdown(now))
	}
	if b.StatusMessage != "" {
		field("Status", b.StatusMessage)
	}
	field("Ends", planEnding)
	field("For", model.TargetsWords(b.Targets))
	field("Instances", fmt.Sprintf("%d in use of %d (%d available)", b.RunningCount, b.TotalCount, b.AvailableCount))
	field("Fee", b.Fee.Dollars()+" (SageMaker's upfront fee for the plan)")
	add(th.Label.Render(fmt.Sprintf("Reserved capacities (%d)", len(b.Parts))))
	for _, p := range b.Parts {
		add(th.Value.Render("  " + p.Summary()))
	}
	// An ARN has no spaces to wrap at; it is cut into the pane's width, whole when copied.
	add(th.Label.Render("ARN · y copies it"))
	for arn := b.ARN; arn != ""; {
		n := min(len(arn), max(10, width-2))
		add("  " + th.Value.Render(arn[:n]))
		arn = arn[n:]
	}
	uses := model.PlanUses(b)
	if len(uses) > 0 {
		add(th.Label.Render("How to use it · Y copies the first command"))
	}
	for _, u := range uses {
		add(th.Muted.Render("  " + model.TargetsWords([]string{u.Target}) + ": pass the ARN as " + u.Field))
		for _, l := range text.Wrap(u.Command, max(10, width-4)) {
			add("    " + th.Code.Render(l))
		}
	}
	return lines
}

// PlanUseCommand is the first AWS CLI line that uses the plan, for Y; "" when none.
func PlanUseCommand(b model.Block) string {
	if uses := model.PlanUses(b); len(uses) > 0 {
		return uses[0].Command
	}
	return ""
}
