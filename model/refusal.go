package model

import (
	"fmt"
	"strings"
	"time"
)

// LaunchProblem is the kind of reason a launch into a block cannot happen now.
type LaunchProblem int

const (
	LaunchNotYet    LaunchProblem = iota + 1 // the block has not started: a launch can wait for its start
	LaunchNotActive                          // the block is over, failed or cancelled
	LaunchTooFew                             // fewer than one instance asked
	LaunchTooMany                            // more instances than the block has free
)

// Refusal is why an action on a block cannot happen now, of a kind P that the front ends
// may tell apart (to add their own advice).
type Refusal[P ~int] struct {
	Problem P
	Reason  string // a clause, lower case and without a final period, to follow a "gpublock launch: " or a field
	Hint    string // what to do, a sentence; "" when nothing helps
}

// LaunchRefusal is why a launch into a block cannot happen now.
type LaunchRefusal = Refusal[LaunchProblem]

// String is the reason and the hint, to follow a prefix such as "gpublock launch: "; ""
// for none.
func (r *Refusal[P]) String() string {
	if r == nil {
		return ""
	}
	s := r.Reason + "."
	if r.Hint != "" {
		s += " " + r.Hint
	}
	return s
}

// Summary is the reason as a sentence of its own, without the hint.
func (r *Refusal[P]) Summary() string {
	if r == nil || r.Reason == "" {
		return ""
	}
	return strings.ToUpper(r.Reason[:1]) + r.Reason[1:] + "."
}

// Sentence is the summary and the hint, to stand on its own.
func (r *Refusal[P]) Sentence() string {
	if r == nil || r.Hint == "" {
		return r.Summary()
	}
	return r.Summary() + " " + r.Hint
}

// LaunchBlocker says why count instances cannot be launched into b now, or nil when they
// can: the one launch precondition that the commands, the adapter and the launch dialog
// share. A block not yet started is refused as LaunchNotYet only when it could hold count
// once it starts; one that never could is LaunchTooMany whatever its state.
func LaunchBlocker(b Block, count int) *LaunchRefusal {
	notYet := b.State == StateScheduled || b.State == StatePaymentPending
	switch {
	case !notYet && b.State != StateActive:
		return &LaunchRefusal{Problem: LaunchNotActive, Reason: fmt.Sprintf("the block is %s; only an active block takes instances", b.State)}
	case count < 1:
		return &LaunchRefusal{Problem: LaunchTooFew, Reason: fmt.Sprintf("count %d: launch at least one instance", count)}
	case notYet && count > b.TotalCount:
		return &LaunchRefusal{Problem: LaunchTooMany, Reason: fmt.Sprintf("the block holds %d instances; %d asked", b.TotalCount, count),
			Hint: fmt.Sprintf("Launch %d or fewer once it starts.", b.TotalCount)}
	case notYet:
		return &LaunchRefusal{Problem: LaunchNotYet, Reason: fmt.Sprintf("the block is not active yet (%s); it starts %s", b.State, BothTimes(b.Start, nil)),
			Hint: "Instances can be launched from the start time."}
	case count > b.AvailableCount:
		r := &LaunchRefusal{Problem: LaunchTooMany, Reason: fmt.Sprintf("the block has %d free of %d instances; %d asked", b.AvailableCount, b.TotalCount, count)}
		// "launch fewer" is no advice when nothing is free, nor waiting when the block
		// could never hold that many.
		switch {
		case b.AvailableCount == 0:
			r.Hint = "Every slot holds an instance (running, or terminating until it frees its slot): wait for one to end, or terminate one."
		case count > b.TotalCount:
			r.Hint = fmt.Sprintf("The block holds %d at most: launch %d or fewer.", b.TotalCount, b.AvailableCount)
		default:
			r.Hint = fmt.Sprintf("Launch %d or fewer, or wait for instances to end and free their slots.", b.AvailableCount)
		}
		return r
	}
	return nil
}

// ExtendProblem is the kind of reason a block cannot be extended now.
type ExtendProblem int

const (
	ExtendNotPaid ExtendProblem = iota + 1 // payment-pending: it can be extended once AWS takes its payment
	ExtendOver                             // over, failed or cancelled: a new block is the way
	ExtendClosed                           // past the extension cutoff, an extension being paid for, or no length left
)

// ExtendRefusal is why a block cannot be extended now.
type ExtendRefusal = Refusal[ExtendProblem]

// ExtendBlocker says why the block (or training plan) cannot be extended now, or nil: the
// one extension precondition of the commands, the adapter and the extend dialog. Only an
// active or a scheduled block can be extended.
func ExtendBlocker(b Block) *ExtendRefusal {
	noun, state, again := "block", string(b.State), "scheduled or active"
	if b.Source == SourceTrainingPlan {
		noun, state, again = "training plan", PlanStatus(b.State), "Scheduled or Active"
	}
	switch {
	case b.State == StatePaymentPending:
		// Buying a new block, the advice for a block that is over, is wrong here: this one
		// becomes scheduled as soon as AWS takes its payment.
		return &ExtendRefusal{Problem: ExtendNotPaid,
			Reason: fmt.Sprintf("%s %s is %s: AWS has not taken its payment yet (minutes, at most 12 hours)", noun, b.ReservationID, state),
			Hint:   "It can be extended once it is " + again + "."}
	case b.State != StateActive && b.State != StateScheduled:
		short := strings.TrimPrefix(noun, "training ")
		return &ExtendRefusal{Problem: ExtendOver,
			Reason: fmt.Sprintf("%s %s is %s; only active or scheduled %ss can be extended", noun, b.ReservationID, state, short),
			Hint:   "Buy a new " + short + " instead."}
	}
	return nil
}

// ExtendBlockerAt is ExtendBlocker at the moment now, with the rules that mark a block
// "CAN'T EXTEND": past the cutoff (ExtendCutoff before the end), an extension still being
// paid for (AWS takes one at a time), or no length left under MaxReservationDays. Each is known
// without asking AWS, so a front end says it at once and makes no call. Training plans are
// held to the blocks' cutoff, as their warnings are (SageMaker documents none).
func ExtendBlockerAt(b Block, now time.Time) *ExtendRefusal {
	if r := ExtendBlocker(b); r != nil {
		return r
	}
	noun, short := "block", "block"
	if b.Source == SourceTrainingPlan {
		noun, short = "training plan", "plan"
	}
	for _, e := range b.Extensions {
		if e.Status == ExtensionPaymentPending {
			return &ExtendRefusal{Problem: ExtendClosed,
				Reason: fmt.Sprintf("%s %s has an extension whose payment AWS has not taken yet; it takes one extension at a time", noun, b.ReservationID),
				Hint:   "Extend again once that payment has gone through."}
		}
	}
	switch {
	case !now.Before(b.ExtendBy()):
		return &ExtendRefusal{Problem: ExtendClosed,
			Reason: fmt.Sprintf("%s %s can no longer be extended: AWS takes extensions until %s before the end, %s, and it ends %s",
				noun, b.ReservationID, fmt.Sprintf("%d minutes", int(ExtendCutoff/time.Minute)), BothTimes(b.ExtendBy(), nil), BothTimes(b.End, nil)),
			Hint: "Buy a new " + short + " to go on after it."}
	case len(ExtensionLengths(b)) == 0:
		return &ExtendRefusal{Problem: ExtendClosed,
			Reason: fmt.Sprintf("%s %s already lasts %s, and no extension may take it past %d days", noun, b.ReservationID, FormatLength(int64(b.End.Sub(b.Start)/time.Minute)), MaxReservationDays),
			Hint:   "Buy a new " + short + " to go on after it."}
	}
	return nil
}
