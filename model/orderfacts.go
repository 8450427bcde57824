package model

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// OrderFacts are what placing an order shows before the typed word, at the command line
// and in the terminal UI alike: what it buys, under which ceiling and rule, the worst case
// (the most it can cost), when it expires, and that what it buys cannot be undone.
func OrderFacts(o Order, account string, now time.Time, loc *time.Location) Facts {
	q := o.Query
	lines := []Fact{
		{Label: "Account", Value: account},
		{Label: "Capacity", Value: fmt.Sprintf("%s × %d", strings.Join(q.InstanceTypes, " or "), q.Count)},
		{Label: "Length", Value: q.Durations.String()},
		{Label: "Window", Value: q.Start.UTC().Format(LayoutMinuteZone) + " – " + q.End.UTC().Format(LayoutMinuteZone)},
		{Label: "Regions", Value: strings.Join(q.Regions, ", ")},
		{Label: "Ceiling", Value: o.Ceiling.String() + " of the usable hours"},
		{Label: "Rule", Value: OrderRule},
		{Label: "Worst case", Value: o.Ceiling.WorstCase(q, o.MaxSpend).Dollars() + ": the most this order can cost"},
		{Label: "Expires", Value: BothTimes(o.Expires, loc) + " (in " + ShortSpan(o.Expires.Sub(now)) + ")"},
	}
	if o.MaxSpend != nil {
		lines = append(lines, Fact{Label: "Max spend", Value: o.MaxSpend.Dollars()})
	}
	if o.ApproveCmd != "" {
		after := "stays open"
		if o.CloseOnRefusal {
			after = "closes"
		}
		lines = append(lines, Fact{Label: "Approval", Value: o.ApproveCmd + " (a refusal: the order " + after + ")"})
	}
	if len(o.Tags) > 0 {
		tags := make([]string, 0, len(o.Tags))
		for k, v := range o.Tags {
			tags = append(tags, k+"="+v)
		}
		sort.Strings(tags)
		lines = append(lines, Fact{Label: "Tags", Value: strings.Join(tags, ",")})
	}
	lines = append(lines, Fact{Label: "Then", Value: o.Then.Words()})
	return Facts{Lines: lines, Final: "What a watcher buys for this order: " + Irrevocable}
}

// OrderNote is what an order bought, what it is buying, or why it has not bought, in the
// words `order --list` and the TUI's orders list both say.
func OrderNote(o Order) string {
	switch {
	case o.State == OrderFilled && o.Filled != nil:
		f := o.Filled.Offering
		s := fmt.Sprintf("Bought %s × %d in %s, %s – %s, fee %s: %s.", f.InstanceType, f.Count, f.AvailabilityZone,
			f.Start.Format(LayoutMinuteZone), f.End.Format(LayoutMinuteZone), f.Fee.Dollars(), strings.Join(o.Filled.Reservations, ", "))
		if o.Filled.ThenErr != "" {
			s += " Then failed: " + o.Filled.ThenErr
		}
		return s
	case o.State == OrderFilling && o.Claim != nil:
		return fmt.Sprintf("Being bought: %s (request tag %s), by %s.", o.Claim.Offering.ID, o.Claim.RequestID, o.Claim.Owner)
	case o.Why != "":
		return o.Why
	}
	return "Waiting for a watcher's search."
}
