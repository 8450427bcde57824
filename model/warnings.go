package model

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	// ExtendCutoff: AWS accepts an extension until this long before a block's end.
	ExtendCutoff = time.Hour
	// PaymentPendingTooLong: AWS usually takes a block's payment within minutes; still
	// pending after this long, someone should look at the account's payment method.
	PaymentPendingTooLong = time.Hour
	// OfferingsPerAnswer is the most offerings AWS gives for one search ("up to 6 available
	// blocks", documented for a search of one type).
	OfferingsPerAnswer = 6
)

// WarningKind is what needs an on-call person's attention about a block. The order is the
// urgency: a later kind is the more urgent.
type WarningKind int

const (
	NoWarning WarningKind = iota
	// WarnIdle: active and paid for, with no instance running in it.
	WarnIdle
	// WarnPaymentPending: AWS has not taken the block's payment yet (usually minutes).
	WarnPaymentPending
	// WarnExtendBy: a lead before the end has been reached while AWS still takes an
	// extension (until ExtendCutoff before the end).
	WarnExtendBy
	// WarnPaymentSlow: the payment has been pending for longer than an hour.
	WarnPaymentSlow
	WarnPaymentFailed
	// WarnInterconnectImpaired and WarnCapacityUnavailable are what
	// DescribeCapacityBlockStatus reports of a running block.
	WarnInterconnectImpaired
	WarnCapacityUnavailable
	// WarnCantExtend: past the extension cutoff; the block ends when it says.
	WarnCantExtend
	// WarnExpiring: within 40 minutes of its end, when AWS sends its expiration warning.
	WarnExpiring
	// WarnExtensionFailed: the payment of an extension failed, so the block still ends when
	// it did; someone counting on the added time must know before the end comes.
	WarnExtensionFailed
	// WarnTerminating: within 30 minutes of its end AWS terminates its instances.
	WarnTerminating
)

var kindNames = map[WarningKind]string{
	WarnIdle: "idle", WarnPaymentPending: "payment-pending", WarnExtendBy: "extend-by", WarnPaymentSlow: "payment-pending-long", WarnPaymentFailed: "payment-failed",
	WarnInterconnectImpaired: "interconnect-impaired", WarnCapacityUnavailable: "capacity-unavailable",
	WarnCantExtend: "cant-extend", WarnExpiring: "expiring", WarnExtensionFailed: "extension-failed", WarnTerminating: "terminating",
}

// Name is the kind for machines: JSON, the notify command's variables.
func (k WarningKind) Name() string { return kindNames[k] }

// Word is the warning's label in a table cell: it says it without colour, a symbol first.
func (k WarningKind) Word() string {
	switch k {
	case WarnIdle:
		return "◌ IDLE, PAID"
	case WarnPaymentPending:
		return "$ PAY PENDING"
	case WarnExtendBy:
		return "▲ EXTEND BY"
	case WarnPaymentSlow:
		return "$ PAY PENDING 1h+"
	case WarnPaymentFailed:
		return "✖ PAY FAILED"
	case WarnInterconnectImpaired:
		return "✖ INTERCONNECT"
	case WarnCapacityUnavailable:
		return "✖ CAPACITY LOST"
	case WarnCantExtend:
		return "▲ CAN'T EXTEND"
	case WarnExpiring:
		return "▲ EXPIRING"
	case WarnTerminating:
		return "✖ TERMINATING"
	case WarnExtensionFailed:
		return "✖ EXT FAILED"
	}
	return ""
}

// Red reports whether the warning is drawn red; the others are amber.
func (k WarningKind) Red() bool {
	switch k {
	case WarnTerminating, WarnPaymentFailed, WarnExtensionFailed, WarnInterconnectImpaired, WarnCapacityUnavailable:
		return true
	}
	return false
}

// Severer reports whether k is more severe than o: a red warning outranks an amber one,
// then the more urgent kind (the later) the less.
func (k WarningKind) Severer(o WarningKind) bool {
	if k.Red() != o.Red() {
		return k.Red()
	}
	return k > o
}

// WarningSummary is the headline of the warnings in force (one kind per block, NoWarning
// for a block without): the most severe one's mark and word, and how many there are,
// "✖ TERMINATING (1 warning)", so that a count never hides what one of them is. Empty, and
// NoWarning, when none is in force.
func WarningSummary(kinds []WarningKind) (string, WarningKind) {
	n, worst := 0, NoWarning
	for _, k := range kinds {
		if k == NoWarning {
			continue
		}
		n++
		if worst == NoWarning || k.Severer(worst) {
			worst = k
		}
	}
	if n == 0 {
		return "", NoWarning
	}
	word := "warnings"
	if n == 1 {
		word = "warning"
	}
	return fmt.Sprintf("%s (%d %s)", worst.Word(), n, word), worst
}

// Sentence is the warning as a notification says it.
func (k WarningKind) Sentence(b Block, now time.Time) string {
	if b.Source == SourceTrainingPlan {
		if s, ok := k.planSentence(b, now); ok {
			return s
		}
	}
	what := fmt.Sprintf("%s (%s × %d, %s)", b.ReservationID, b.InstanceType, b.TotalCount, b.AvailabilityZone)
	if b.Source == SourceTrainingPlan {
		what = planWhat(b) // a plan has a region, not one zone
	}
	end := b.End.UTC().Format(LayoutShort)
	switch k {
	case WarnIdle:
		return what + " is active and paid for, but no instance is running in it"
	case WarnPaymentPending:
		return what + ": payment pending"
	case WarnPaymentSlow:
		return fmt.Sprintf("%s: payment pending for over %s; AWS usually takes it within minutes. Check the account's payment method (AWS Billing console)",
			what, Span(PaymentPendingTooLong))
	case WarnExtendBy:
		return fmt.Sprintf("%s ends in %s (%s UTC); extend it by %s UTC (%s left), AWS takes no extension after that",
			what, Span(b.End.Sub(now)), end, b.ExtendBy().UTC().Format(LayoutShort), Span(b.ExtendBy().Sub(now)))
	case WarnPaymentFailed:
		return what + ": payment failed, the block will not start and nothing can run in it; its capacity went back on sale"
	case WarnInterconnectImpaired:
		return what + ": AWS reports its interconnect impaired (DescribeCapacityBlockStatus); distributed jobs may slow down or fail"
	case WarnCapacityUnavailable:
		return fmt.Sprintf("%s: AWS reports %d of its %d instances' capacity unavailable (DescribeCapacityBlockStatus)", what, b.UnavailableCount, b.TotalCount)
	case WarnCantExtend:
		return fmt.Sprintf("%s can no longer be extended: it ends in %s (%s UTC); instances terminate from %s UTC",
			what, Span(b.End.Sub(now)), end, b.TerminationAt().UTC().Format(LayoutClock))
	case WarnExpiring:
		return fmt.Sprintf("%s ends in %s (%s UTC); instances terminate from %s UTC", what, Span(b.End.Sub(now)),
			b.End.UTC().Format(LayoutClock), b.TerminationAt().UTC().Format(LayoutClock))
	case WarnTerminating:
		return fmt.Sprintf("%s: instances terminating; the block ends in %s (%s UTC)", what, Span(b.End.Sub(now)), b.End.UTC().Format(LayoutClock))
	case WarnExtensionFailed:
		return fmt.Sprintf("%s: the extension's payment failed, so the block still ends in %s (%s UTC); instances terminate from %s UTC. Check the account's payment method, then extend again",
			what, Span(b.End.Sub(now)), end, b.TerminationAt().UTC().Format(LayoutShort))
	}
	return what
}

// planSentence says the warnings whose meaning differs for a training plan: its end stops
// the jobs, cluster instances and endpoints running on it. SageMaker does not document
// whether it stops them before the end, as EC2 terminates a block's instances from 30
// minutes before; the plan is warned of from that earlier time, the safer reading.
func (k WarningKind) planSentence(b Block, now time.Time) (string, bool) {
	what := planWhat(b)
	left := fmt.Sprintf("ends in %s (%s UTC)", Span(b.End.Sub(now)), b.End.UTC().Format(LayoutShort))
	const stop = "SageMaker stops its jobs, cluster instances and endpoints when it ends, possibly earlier; checkpoint before %s UTC"
	early := fmt.Sprintf(stop, b.TerminationAt().UTC().Format(LayoutClock))
	switch k {
	case WarnIdle:
		return what + " is active and paid for, but nothing is using its instances", true
	case WarnPaymentFailed:
		return what + ": payment failed, the plan will not start and nothing can run on it", true
	case WarnCantExtend:
		return fmt.Sprintf("%s can no longer be extended: it %s; %s", what, left, early), true
	case WarnExpiring:
		return fmt.Sprintf("%s %s; %s", what, left, early), true
	case WarnTerminating:
		return fmt.Sprintf("%s %s; its jobs may be stopping now: SageMaker stops its jobs, cluster instances and endpoints when it ends, possibly earlier", what, left), true
	case WarnExtensionFailed:
		return fmt.Sprintf("%s: the extension's payment failed, so the plan still %s; %s. Check the account's payment method, then extend again", what, left, early), true
	case WarnExtendBy:
		return fmt.Sprintf("%s %s, and its jobs stop then; extend it by %s UTC (%s left), no extension is taken after that",
			what, left, b.ExtendBy().UTC().Format(LayoutShort), Span(b.ExtendBy().Sub(now))), true
	}
	return "", false
}

// planWhat names a plan in a warning's sentence.
func planWhat(b Block) string {
	return fmt.Sprintf("training plan %s (%s × %d, %s)", b.ReservationID, b.InstanceType, b.TotalCount, b.Region)
}

// Warning is one warning in force: its kind, and for the warnings that come at a lead the
// user set, that lead.
type Warning struct {
	Kind WarningKind
	Lead time.Duration
}

// Cell is the warning in a table cell; EXTEND BY carries its deadline and the time left.
func (w Warning) Cell(b Block, now time.Time) string {
	if w.Kind != WarnExtendBy {
		return w.Kind.Word()
	}
	by := b.ExtendBy().UTC()
	layout := "15:04"
	if by.Sub(now) >= 20*time.Hour {
		layout = "Jan 02 15:04"
	}
	return fmt.Sprintf("%s %s · %s", w.Kind.Word(), by.Format(layout), Span(by.Sub(now)))
}

// Sentence is the warning as a notification says it.
func (w Warning) Sentence(b Block, now time.Time) string { return w.Kind.Sentence(b, now) }

// Key names the warning once per block and lead: a notification is sent once per key. The
// warnings counted from the end carry it, so that an extended block that nears its new end
// is warned again.
func (w Warning) Key(b Block) string {
	k := b.ReservationID + "/" + w.Kind.Name()
	if b.Source == SourceTrainingPlan {
		// A plan's name is unique only within its account and region.
		k = "training-plan/" + b.Region + "/" + k
	}
	if w.Lead > 0 {
		k += "/" + w.Lead.String()
	}
	switch w.Kind {
	case WarnExtendBy, WarnCantExtend, WarnExpiring, WarnTerminating, WarnExtensionFailed:
		k += "/" + b.End.UTC().Format(time.RFC3339)
	}
	return k
}

// ExtendBy is the last moment AWS takes an extension of the block.
func (b Block) ExtendBy() time.Time { return b.End.Add(-ExtendCutoff) }

// DefaultWarnLeads: the first EXTEND BY comes a day before the end.
var DefaultWarnLeads = []time.Duration{24 * time.Hour}

// WarnRules are the leads before a block's end at which it is warned of, besides AWS's own
// events; a lead longer than the extension cutoff says EXTEND BY, a shorter one CAN'T EXTEND.
type WarnRules struct{ Leads []time.Duration }

// DefaultWarnRules warn a day ahead.
func DefaultWarnRules() WarnRules { return WarnRules{Leads: DefaultWarnLeads} }

// NewWarnRules keeps the positive leads, longest first, each once; none gives the default.
func NewWarnRules(leads []time.Duration) WarnRules {
	var out []time.Duration
	for _, l := range leads {
		if l > 0 && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return DefaultWarnRules()
	}
	slices.SortFunc(out, func(a, b time.Duration) int { return cmp.Compare(b, a) })
	return WarnRules{Leads: out}
}

// MaxWarnLead is the longest lead accepted: a block can be extended from 56 days before its end.
const MaxWarnLead = 56 * 24 * time.Hour

// ParseWarnLeads reads leads such as "24h,2h,40m" (Go durations, and whole days such as 2d).
func ParseWarnLeads(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		p := strings.TrimSpace(strings.ToLower(part))
		if p == "" {
			return nil, fmt.Errorf("lead times %q: empty lead in the list; want durations such as 24h,2h,40m", s)
		}
		var d time.Duration
		var err error
		if n, ok := strings.CutSuffix(p, "d"); ok {
			var days int
			days, err = strconv.Atoi(n)
			d = time.Duration(days) * 24 * time.Hour
		} else {
			d, err = time.ParseDuration(p)
		}
		if err != nil || d <= 0 || d > MaxWarnLead {
			return nil, fmt.Errorf("lead time %q: want a positive duration up to 56 days, such as 24h, 2h, 40m or 2d", part)
		}
		out = append(out, d)
	}
	return out, nil
}

// FormatWarnLeads writes leads as ParseWarnLeads reads them: 24h,2h30m,40m.
func FormatWarnLeads(leads []time.Duration) string {
	parts := make([]string, len(leads))
	for i, l := range leads {
		parts[i] = FormatInterval(l)
	}
	return strings.Join(parts, ",")
}

// Warnings is every warning in force for the block at now, the most urgent first. A
// training plan is warned of by the same rules, the terminal UI and the command line alike:
// SageMaker's timing of a plan's end (its expiration notice, when its jobs stop, its
// extension cutoff) is not documented, so the earlier times of a Capacity Block are kept.
func (r WarnRules) Warnings(b Block, now time.Time) []Warning {
	var out []Warning
	add := func(k WarningKind, lead time.Duration) { out = append(out, Warning{k, lead}) }
	switch b.State {
	case StatePaymentPending:
		add(WarnPaymentPending, 0)
		if !b.Created.IsZero() && now.Sub(b.Created) >= PaymentPendingTooLong {
			add(WarnPaymentSlow, 0)
		}
	case StatePaymentFailed:
		// Warned of until the end it would have had: while its capacity was counted on,
		// someone must know it is not there; afterwards it is history.
		if now.Before(b.End) {
			add(WarnPaymentFailed, 0)
		}
	case StateActive, StateScheduled:
		if !now.Before(b.End) {
			// Listed active at its end, before AWS says expired: still being terminated.
			if b.State == StateActive {
				add(WarnTerminating, 0)
			}
			break
		}
		active := b.State == StateActive
		if active && !now.Before(b.TerminationAt()) {
			add(WarnTerminating, 0)
		}
		if extensionFailed(b) {
			add(WarnExtensionFailed, 0)
		}
		if active && !now.Before(b.WarningAt()) {
			add(WarnExpiring, 0)
		}
		if !now.Before(b.ExtendBy()) {
			add(WarnCantExtend, 0)
		}
		for _, l := range r.Leads {
			if now.Before(b.End.Add(-l)) {
				continue
			}
			switch {
			case l <= ExtendCutoff:
				// Past the cutoff already, and CAN'T EXTEND was warned at it: one warning
				// per condition, not one more per lead.
			case now.Before(b.ExtendBy()) && extendable(b):
				add(WarnExtendBy, l)
			}
		}
		if active && b.UnavailableCount > 0 {
			add(WarnCapacityUnavailable, 0)
		}
		if active && b.Interconnect == "impaired" {
			add(WarnInterconnectImpaired, 0)
		}
		if active && b.RunningCount == 0 && now.Before(b.WarningAt()) {
			add(WarnIdle, 0)
		}
	}
	slices.SortStableFunc(out, func(a, b Warning) int {
		if c := cmp.Compare(b.Kind, a.Kind); c != 0 {
			return c
		}
		return cmp.Compare(a.Lead, b.Lead)
	})
	return out
}

// Top is the block's most urgent warning at now (Kind NoWarning when none).
func (r WarnRules) Top(b Block, now time.Time) Warning {
	if ws := r.Warnings(b, now); len(ws) > 0 {
		return ws[0]
	}
	return Warning{}
}

// extendable reports a block that an extension could still lengthen: none is being paid
// for (AWS refuses a second while one is pending) and it is shorter than the longest block.
func extendable(b Block) bool {
	for _, e := range b.Extensions {
		if e.Status == ExtensionPaymentPending {
			return false
		}
	}
	return b.End.Sub(b.Start) < (MaxReservationDays-1)*24*time.Hour
}

// extensionFailed reports an extension of the block's present end whose payment failed,
// with no other attempt on that end paid or being paid for. AWS leaves the end where it
// was, so a failed extension starts at it; once another is paid the end moves past it.
func extensionFailed(b Block) bool {
	failed := false
	for _, e := range b.Extensions {
		if !e.Start.Equal(b.End) {
			continue
		}
		if e.Status != ExtensionPaymentFailed {
			return false
		}
		failed = true
	}
	return failed
}

// Span writes a duration as an on-call person reads a countdown: 2d 3h, 5h 20m, 39m 12s
// (seconds only under an hour, where they matter).
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	d = d.Round(time.Second) // the clock may be a few nanoseconds past a whole second
	days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	mins, secs := int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %02dm", hours, mins)
	}
	return fmt.Sprintf("%dm %02ds", mins, secs)
}

// WillNotRun reports a block that never starts whatever the clock says: its payment
// failed, or AWS failed or cancelled it. It has no countdown and no termination time.
func (b Block) WillNotRun() bool {
	switch b.State {
	case StatePaymentFailed, StateFailed, StateCancelled:
		return true
	}
	return false
}

// Countdown is the time to the start of a block not yet started, to the end of one running,
// or how long ago it ended; for a block that will not run, that it will not (or did not) start.
func (b Block) Countdown(now time.Time) string { return b.countdown(now, Span) }

func (b Block) countdown(now time.Time, span func(time.Duration) string) string {
	switch {
	case b.WillNotRun() && now.Before(b.Start):
		return "will not start"
	case b.WillNotRun():
		return "never started"
	case now.Before(b.Start):
		return "starts in " + span(b.Start.Sub(now))
	case now.Before(b.End):
		return "ends in " + span(b.End.Sub(now))
	}
	return "ended " + span(now.Sub(b.End)) + " ago"
}

// HasTermination reports whether the block's instances will still be terminated by AWS:
// not for one that will not run or has ended.
func (b Block) HasTermination(now time.Time) bool { return !b.WillNotRun() && now.Before(b.End) }

// WarnMoment is the moment of a block's end that an on-call check (blocks --warn-within)
// measures to: the extension cutoff (the last moment an extension is taken), the start of
// the instances' termination, or the end itself.
type WarnMoment int

const (
	// WarnOfExtensionCutoff is the earliest of the three, and the default: past it the
	// block can no longer be saved.
	WarnOfExtensionCutoff WarnMoment = iota
	WarnOfTermination
	WarnOfEnd
)

var warnMomentNames = []string{"extension-cutoff", "termination", "end"}

// WarnMomentNames lists the moments as --warn-of reads them, earliest first.
func WarnMomentNames() []string { return append([]string(nil), warnMomentNames...) }

func (m WarnMoment) String() string { return warnMomentNames[m] }

// ParseWarnMoment reads a moment's name; "" is the default, the extension cutoff.
func ParseWarnMoment(s string) (WarnMoment, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return WarnOfExtensionCutoff, nil
	}
	for i, n := range warnMomentNames {
		if s == n {
			return WarnMoment(i), nil
		}
	}
	return 0, fmt.Errorf("%q: want one of %s", s, strings.Join(warnMomentNames, ", "))
}

// At is the moment of the block: its extension cutoff, its termination's start or its end.
func (m WarnMoment) At(b Block) time.Time {
	switch m {
	case WarnOfTermination:
		return b.TerminationAt()
	case WarnOfEnd:
		return b.End
	}
	return b.ExtendBy()
}

// Phrase names the moment in a warning line: "extension cutoff", "instances stop", "end".
func (m WarnMoment) Phrase() string {
	switch m {
	case WarnOfTermination:
		return "instances stop"
	case WarnOfEnd:
		return "ends"
	}
	return "extension cutoff"
}

// Within is the active blocks (and plans) whose moment m comes at most d after now, or has
// passed while the block still runs: a check at 45 minutes to the extension cutoff also
// names a block past it. Scheduled blocks are left out however short they are: nothing
// runs in them yet.
func (m WarnMoment) Within(blocks []Block, now time.Time, d time.Duration) []Block {
	var out []Block
	for _, b := range blocks {
		if b.State == StateActive && b.End.After(now) && !m.At(b).After(now.Add(d)) {
			out = append(out, b)
		}
	}
	return out
}
