package model

import (
	"fmt"
	"time"
)

// The facts a confirmation states before anything is spent or started, written once so that
// the commands and the dialogs say the same things in the same words. Each front end lays
// the lines out its own way (a dialog's columns, a command's "Label:" rows); neither adds,
// drops or rewords a fact.

// Fact is one line of a confirmation: a label and its value.
type Fact struct{ Label, Value string }

// Facts is a confirmation's lines, in order, and what cannot be undone, said after them
// ("" when nothing is spent, as for a launch).
type Facts struct {
	Lines []Fact
	Final string
}

// Value is the value of the fact labelled label, or "".
func (f Facts) Value(label string) string {
	for _, l := range f.Lines {
		if l.Label == label {
			return l.Value
		}
	}
	return ""
}

// BreakEven is what a confirmation needs of a comparison with on-demand
// (pricing.Comparison.BreakEven gives it; model cannot import pricing).
type BreakEven struct {
	NoOnDemand bool
	Reason     string // why there is no on-demand price
	Percent    int64  // the break-even utilization, rounded up
	CanWin     bool   // the break-even falls within the usable hours
	// Reading is the comparison in a sentence (pricing.Comparison.Reading); an extension's
	// confirmation says it, with the on-demand rate and where it comes from.
	Reading        string
	OnDemandHourly Money
	Source, AsOf   string
}

// Irrevocable is said by every confirmation of a Capacity Block's purchase or extension.
const Irrevocable = "This cannot be cancelled or changed. The fee is charged up front; payment is collected within 12 hours."

// PlanIrrevocable is the training plans' form: SageMaker's words are "cannot be cancelled
// or modified".
const PlanIrrevocable = "This training plan cannot be cancelled or modified. The fee is charged up front."

// ExtensionIrrevocable and PlanExtensionIrrevocable are said by every confirmation of an
// extension, a block's or a plan's: it cannot be undone, and the end moves only once paid.
const (
	ExtensionIrrevocable     = "An extension cannot be cancelled or changed; its fee is charged up front. The end moves once the payment succeeds (usually within minutes)."
	PlanExtensionIrrevocable = "A plan's extension cannot be cancelled or modified; its fee is charged up front. The end moves once the payment succeeds (usually within minutes)."
)

// NoSageMakerPrice is a plan's break-even when SageMaker publishes no on-demand rate for
// its type (EC2's rate is not SageMaker's and is never used in its place).
func NoSageMakerPrice(instanceType string) string {
	return "no SageMaker on-demand price for " + SageMakerType(instanceType)
}

// lengthWords is a block's length: "2d (48 hours)" for whole days, "1 h 30 min" otherwise.
func lengthWords(minutes int64) string {
	if minutes > 0 && minutes%(24*60) == 0 {
		return FormatDays(int(minutes/(24*60))) + " (" + HoursMinutes(minutes) + ")"
	}
	return HoursMinutes(minutes)
}

// knownAccount is the account, or "unknown" before the identity call answered.
func knownAccount(account string) string {
	if account == "" {
		return "unknown"
	}
	return account
}

// OfferingFacts is the confirmation of buying o, a Capacity Block or a training plan.
func OfferingFacts(o Offering, account string, be BreakEven, loc *time.Location) Facts {
	if o.Source == SourceTrainingPlan {
		return PlanFacts(o, account, be, loc)
	}
	return PurchaseFacts(o, account, be, loc)
}

// PurchaseFacts is the confirmation of buying a Capacity Block: who pays, where, what, when
// (UTC and local), the exact total fee, the rates, the break-even and the offering.
func PurchaseFacts(o Offering, account string, be BreakEven, loc *time.Location) Facts {
	what, unit := fmt.Sprintf("%s × %d", o.InstanceType, o.Count), "instance"
	// An UltraServer's count is of UltraServers; its members and the unit of the hourly
	// rate come from the catalog.
	ultra := o.UltraServerType
	if ultra == "" {
		ultra = o.InstanceType
	}
	if t, ok := LookupType(ultra); ok && t.UltraServer {
		n := max(1, o.UltraServerCount)
		what = fmt.Sprintf("%s × %s (%d × %s)", t.Name, Plural(n, "UltraServer", "UltraServers"), n*t.Instances, t.MemberType)
		unit = "UltraServer"
	}
	rate := "unknown for this type"
	if r := o.HourlyRate(); !r.IsZero() {
		rate = r.Rate() + " per " + unit + "-hour"
		if ar := o.AcceleratorHourlyRate(); !ar.IsZero() {
			rate += ", " + ar.Rate() + " per accelerator-hour"
		}
	}
	breakEven := "none: " + be.Reason
	switch {
	case be.NoOnDemand:
	case be.CanWin:
		breakEven = fmt.Sprintf("%d%% utilization: use at least that much of the usable hours to beat on-demand at %s/h", be.Percent, be.OnDemandHourly.Rate())
	default:
		breakEven = fmt.Sprintf("%d%% utilization: never cheaper than on-demand at %s/h", be.Percent, be.OnDemandHourly.Rate())
	}
	total := ", total for the whole block"
	if o.Segmented() {
		total = fmt.Sprintf(", total for all %d segments", len(o.Parts))
	}
	lines := []Fact{
		{"Account", knownAccount(account)},
		{"Region · zone", o.Region + " · " + o.Zones()},
		{"Capacity", what + " for " + lengthWords(o.Minutes())},
		{"Start", BothTimes(o.Start, loc)},
		{"End", BothTimes(o.End, loc)},
	}
	lines = append(lines, segmentFacts(o, loc)...)
	lines = append(lines,
		Fact{"Upfront fee", ExactFee(o.Fee, o.Currency) + total},
		Fact{"Rate", rate},
		Fact{"Break-even", breakEven},
		Fact{"Offering", o.ID},
	)
	return Facts{Lines: lines, Final: Irrevocable}
}

// PlanFacts is the confirmation of buying a training plan: the same facts as a block's,
// each reserved capacity with its zone and window, and no platform.
func PlanFacts(o Offering, account string, be BreakEven, loc *time.Location) Facts {
	breakEven := NoSageMakerPrice(o.InstanceType)
	switch {
	case be.NoOnDemand:
	case be.CanWin:
		breakEven = fmt.Sprintf("%d%% utilization against SageMaker's on-demand rate", be.Percent)
	default:
		breakEven = fmt.Sprintf("%d%% utilization: never cheaper than SageMaker on-demand", be.Percent)
	}
	hours := PartsHours(o.Parts)
	if hours == 0 {
		hours = int64(o.DurationHours)
	}
	lines := []Fact{
		{"Account", knownAccount(account)},
		{"Region", o.Region},
		{"For", TargetsWords(o.Targets)},
		{"Capacity", fmt.Sprintf("%s × %d, %d hours reserved", o.InstanceType, o.Count, hours)},
	}
	lines = append(lines, partFacts(o.Parts, o.InstanceType)...)
	lines = append(lines,
		Fact{"Start", BothTimes(o.Start, loc)},
		Fact{"End", BothTimes(o.End, loc)},
		Fact{"Upfront fee", ExactFee(o.Fee, o.Currency) + ", total for every part"},
		Fact{"Break-even", breakEven},
		Fact{"Offering", o.ID},
	)
	return Facts{Lines: lines, Final: PlanIrrevocable}
}

// partFacts are a plan's parts, one line each.
func partFacts(parts []Part, planType string) []Fact {
	var out []Fact
	for i, p := range parts {
		out = append(out, Fact{fmt.Sprintf("Part %d", i+1), PartShort(p, planType)})
	}
	return out
}

// PartShort is a part in a line: its zone, count, window in UTC and hours, and its type
// only where it is not the plan's.
func PartShort(p Part, planType string) string {
	what := fmt.Sprintf("×%d", p.Count)
	if p.InstanceType != planType {
		what = fmt.Sprintf("%d × %s", p.Count, p.InstanceType)
	}
	hours := p.Hours
	if hours == 0 {
		hours = int64(p.End.Sub(p.Start).Hours())
	}
	return fmt.Sprintf("%s · %s · %s – %s UTC · %dh", p.AvailabilityZone, what, p.Start.UTC().Format(LayoutShort), p.End.UTC().Format(LayoutShort), hours)
}

// ExtensionTarget is what an extension's confirmation says of the block or plan it
// lengthens, before any length is chosen.
func ExtensionTarget(b Block, account string, loc *time.Location) []Fact {
	what := "Block"
	if b.Source == SourceTrainingPlan {
		what = "Plan"
	}
	return []Fact{
		{"Account", knownAccount(account)},
		// The zone names its region (us-east-2a, us-east-1-bos-1a).
		{what, fmt.Sprintf("%s (%s) · %s × %d · %s", b.ReservationID, b.State, b.InstanceType, b.TotalCount, b.AvailabilityZone)},
		{"Ends now", BothTimes(b.End, loc)},
	}
}

// ExtensionFacts is the confirmation of lengthening b by off: the block, the added length,
// the new end and when instances stop, the exact fee, the break-even of the added hours.
func ExtensionFacts(b Block, off ExtensionOffering, account string, be BreakEven, loc *time.Location) Facts {
	lines := ExtensionTarget(b, account, loc)
	newEnd := BothTimes(off.End, loc) + " · instances terminate from " + BothTimes(off.End.Add(-TerminationLead), loc)
	final := ExtensionIrrevocable
	if b.Source == SourceTrainingPlan {
		newEnd = BothTimes(off.End, loc) + " · SageMaker stops the plan's jobs then"
		final = PlanExtensionIrrevocable
	}
	lines = append(lines,
		Fact{"Add", extensionLength(off.DurationHours)},
		Fact{"New end", newEnd},
		Fact{"Upfront fee", ExactFee(off.Fee, off.Currency) + ", for the added time"},
		Fact{"Break-even", ExtensionBreakEven(b, be)},
		Fact{"Offering", off.ID},
	)
	return Facts{Lines: lines, Final: final}
}

// extensionLength is the added length: whole days as people say them, else hours.
func extensionLength(hours int) string {
	if hours > 0 && hours%24 == 0 {
		return FormatDays(hours / 24)
	}
	return HoursMinutes(int64(hours) * 60)
}

// ExtensionBreakEven is the comparison of the added hours with on-demand, in one sentence.
func ExtensionBreakEven(b Block, be BreakEven) string {
	if be.NoOnDemand {
		if b.Source == SourceTrainingPlan {
			return NoSageMakerPrice(b.InstanceType)
		}
		return "none: " + be.Reason
	}
	// Every added hour is usable: the comparison is of the added hours only.
	s := "the added hours are " + be.Reading
	if !be.OnDemandHourly.IsZero() {
		s += fmt.Sprintf(" · on-demand %s/h (%s %s)", be.OnDemandHourly.Rate(), be.Source, be.AsOf)
	}
	return s
}

// LaunchFacts is what a launch's confirmation says of the block it launches into: where it
// is, how many instances it has free, its state, and when it ends and its instances stop.
// stateNote follows the state (the dialog's countdown to a scheduled block's start).
func LaunchFacts(b Block, account, stateNote string, loc *time.Location) Facts {
	state := string(b.State)
	if stateNote != "" {
		state += " · " + stateNote
	}
	return Facts{Lines: []Fact{
		{"Account", knownAccount(account)},
		{"Block", b.ReservationID + " · " + b.Region + " · " + b.AvailabilityZone},
		{"Capacity", fmt.Sprintf("%s × %d, %d free", b.InstanceType, b.TotalCount, b.FreeCount())},
		{"State", state},
		{"Start", BothTimes(b.Start, loc)},
		{"End", BothTimes(b.End, loc) + " · instances terminate from " + BothTimes(b.TerminationAt(), loc)},
	}}
}
