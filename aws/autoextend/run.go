package autoextend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// errNoOffering is the look-up's answer when AWS offers no extension of the length.
var errNoOffering = errors.New("no extension offering")

// Watcher is the auto-extension step of a watcher that decides by itself (blocks --watch,
// gpublock watch), called once per refresh with Round. It is made once and kept: what it
// said it may not act on is said once.
type Watcher struct {
	Client *awsapi.Client
	// Spend is the one spend path over Client: its refusals (the cap, read-only, an
	// extension already bought) are the declines.
	Spend *spend.Service
	// Sources are the sources listed; a block of another source is not extended.
	Sources  []source.Source
	Notifier *notify.Notifier
	Policy   model.AutoExtendPolicy
	// ApproveCmd, when set, is asked about each extension before it is decided.
	ApproveCmd string
	// Say is told each line for the person watching (a command's stderr).
	Say func(string)

	recorder *Recorder
	// saidCannot are the decisions this watcher may not act on and has said so (cannotAct).
	saidCannot map[string]bool
}

// Round is one refresh's auto-extension over the blocks listed, now being the backend's
// time: each block the policy would extend now is extended through the spend path, after
// the approval command when there is one. Every decision is recorded before anything is
// bought, so that no restart, and no TUI on this machine, decides it again, and declines
// and outcomes are notified. The error is the decisions that could not be read or kept (a
// damaged record, a store that cannot be reached): said here, and the run fails.
func (w *Watcher) Round(ctx context.Context, blocks []model.Block, now time.Time) error {
	pol := w.Policy
	if pol.Days == 0 {
		return nil
	}
	if w.recorder == nil {
		w.recorder = New(w.Client, w.Notifier, w.Say)
	}
	// The approval command is asked outside every lock: a slow one must not hold up the
	// other watchers. Only the decision it leads to is taken in the turn, and only if the
	// ask is still open and the extension the one approved.
	approvals := w.approve(ctx, blocks, now)
	// Two watchers at once decide one at a time, each reading the other's decisions first,
	// and this one holds its turn while it buys: otherwise both could extend the same block
	// for the same lead.
	err := w.recorder.Turn(func(t *Turn) {
		w.closeTaken(ctx, t, blocks, now)
		for _, b := range blocks {
			d := pol.Decide(b, now, t.Decided())
			ask := source.AutoExtendAsk{AutoExtendDecision: d, Block: b, Days: pol.Days}
			switch d.Verdict {
			case model.AutoExtendDecline:
				w.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: d.Reason}, now)
			case model.AutoExtendNow:
				w.extendByPolicy(ctx, t, ask, approvals, now)
			}
		}
		// What a gpublock stopped before delivering is delivered; the rest was, once.
		t.Renotify(blocks, now)
	})
	if err != nil {
		// What was decided cannot be read: deciding again could extend twice.
		w.sayf("auto-extend: nothing is extended: %s", source.RedactError(err))
	}
	return err
}

func (w *Watcher) sayf(format string, args ...any) {
	if w.Say != nil {
		w.Say(fmt.Sprintf(format, args...))
	}
}

// extendByPolicy prepares the extension of ask's block, asks for approval, records the
// decision and commits. A failure that is no decision (AWS could not be asked) is said and
// left for the next refresh.
func (w *Watcher) extendByPolicy(ctx context.Context, t *Turn, ask source.AutoExtendAsk, approvals map[string]approval, now time.Time) {
	b, days := ask.Block, ask.Days
	src := w.sourceOf(b)
	if src == nil {
		return
	}
	in := source.Intent{Kind: source.SpendExtend, Block: b, Extension: model.ExtensionOffering{DurationHours: days * 24},
		// As `gpublock extend` does: after settling, since an interrupted extension moves the end.
		Lookup: func(ctx context.Context, in *source.Intent) error {
			offs, err := src.ExtensionOfferings(ctx, b, days)
			switch {
			case err != nil:
				return err
			case len(offs) == 0:
				return errNoOffering
			}
			in.Extension = model.CheapestExtension(offs)
			return nil
		}}
	p, err := w.Spend.Prepare(ctx, src, in)
	for _, s := range p.Settled {
		w.sayf("settled an interrupted run: %s", s.Sentence())
	}
	off := p.Intent.Extension
	declined := func(reason string) {
		w.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: reason, Extension: off}, now)
	}
	switch {
	case errors.Is(err, errNoOffering):
		declined(fmt.Sprintf("AWS offers no %s extension of %s now", model.FormatDays(days), b.ReservationID))
		return
	case errors.Is(err, source.ErrReadOnly), errors.Is(err, source.ErrOverSpendCap):
		// This watcher may not spend it; another may (a server's, or this one with its cap
		// raised): the decision stays open for it, and this one says so, once.
		w.cannotAct(ask, off, w.Client.ExplainError(err).String(), now)
		return
	case errors.Is(err, spend.ErrNotAllowed), errors.Is(err, source.ErrAlreadyBought):
		declined(w.Client.ExplainError(err).String())
		return
	case err == nil && p.PayerErr != nil:
		err = p.PayerErr
	}
	if err != nil && ctx.Err() == nil {
		w.sayf("auto-extend %s: not decided, tried again on the next refresh: %s", b.ReservationID, w.Client.ExplainError(err))
	}
	if err != nil {
		return
	}
	if w.ApproveCmd != "" {
		ap, asked := approvals[ask.Key]
		switch {
		case !asked:
			return // due since the command was asked (or interrupted): asked next round
		case !ap.ok:
			declined("the approval command refused (" + ap.why + ")")
			return
		case ap.off.DurationHours != off.DurationHours || ap.off.Fee != off.Fee || ap.off.Currency != off.Currency:
			w.sayf("auto-extend %s: the extension on offer changed since it was approved; asked again next round", b.ReservationID)
			return
		}
	}
	// Recorded before the purchase: a crash after it leaves the decision taken, and the
	// spend path's own intent line settles what the call did.
	if !w.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendTaken, Extension: off}, now) {
		return
	}
	res, err := w.Spend.Commit(ctx, p)
	if err != nil {
		w.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendFailed, Reason: w.Client.ExplainError(err).String(), Extension: off}, now)
		return
	}
	if res.JournalErr != nil {
		w.sayf("auto-extend %s: the journal's outcome line could not be written: %v", b.ReservationID, res.JournalErr)
	}
	w.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: res.RequestID}, now)
}

// approval is the approval command's answer on an extension offering.
type approval struct {
	off model.ExtensionOffering
	ok  bool
	why string
}

// approve asks the approval command about each extension due, outside every lock; an
// ask it cannot look up (AWS offers none, AWS could not be asked) is left to the turn,
// which says why. Interrupted, it returns what it has.
func (w *Watcher) approve(ctx context.Context, blocks []model.Block, now time.Time) map[string]approval {
	cmd := w.ApproveCmd
	if cmd == "" {
		return nil
	}
	due, err := w.recorder.Due(w.Policy, blocks, now)
	if err != nil {
		return nil
	}
	out := map[string]approval{}
	for _, ask := range due {
		if ask.Verdict != model.AutoExtendNow || ctx.Err() != nil {
			continue
		}
		src := w.sourceOf(ask.Block)
		if src == nil {
			continue
		}
		offs, err := src.ExtensionOfferings(ctx, ask.Block, ask.Days)
		if err != nil || len(offs) == 0 {
			continue
		}
		off := model.CheapestExtension(offs)
		e := Event(ask, off, now, KindApproval, "gpublock: extend "+ask.Block.ReservationID+"? "+ExtensionWords(ask.Block, off))
		ok, why := notify.Approve(ctx, cmd, e, notify.ApproveTimeout)
		if ctx.Err() != nil {
			break // interrupted: nothing was decided
		}
		out[ask.Key] = approval{off: off, ok: ok, why: why}
	}
	return out
}

// sourceOf is the source of b's kind, nil when this watcher has none.
func (w *Watcher) sourceOf(b model.Block) source.Source {
	for _, s := range w.Sources {
		if s.Caps().Source == b.Source {
			return s
		}
	}
	return nil
}

// cannotAct says, once per block and lead, that this watcher may not act on ask, and
// records nothing: a decline here would bind every other watcher.
func (w *Watcher) cannotAct(ask source.AutoExtendAsk, off model.ExtensionOffering, why string, now time.Time) {
	if w.saidCannot == nil {
		w.saidCannot = map[string]bool{}
	}
	if w.saidCannot[ask.Key] {
		return
	}
	w.saidCannot[ask.Key] = true
	text := "gpublock: AUTO-EXTEND NOT DECIDED " + ask.Block.ReservationID + ": " + strings.TrimSuffix(why, ".") +
		". Left open for a watcher that may spend it (or this one, once allowed)."
	w.sayf("%s", strings.TrimPrefix(text, "gpublock: "))
	w.Notifier.Send(Event(ask, off, now, KindCannotAct, text))
}

// record records a step of ask in the watcher's turn, and says what could not be
// recorded. It reports whether it was: a decision taken is not acted on otherwise.
func (w *Watcher) record(t *Turn, ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) bool {
	err := t.Record(ask, o, now)
	if err == nil {
		return true
	}
	so := ""
	if o.Step == source.AutoExtendTaken {
		so = ", so it is not extended"
	}
	w.sayf("auto-extend %s: not recorded%s: %s", ask.Block.ReservationID, so, source.RedactError(err))
	return false
}

// takenGrace is how long a decision taken outside a watcher's turn (a TUI's, which buys
// after it lets the lock go) may stay without its outcome before a watcher settles it
// from AWS: longer than a purchase call and its confirmation take.
const takenGrace = 10 * time.Minute

// closeTaken records the outcome of the extensions decided but never closed, because the
// gpublock buying them was stopped (kill -9, a crash) between the decision and its
// outcome: found from the journal, else from AWS (the block's extension history), it
// closes the journal's intent and the record, and is notified once ("auto-extended"). A
// decision whose gpublock stopped before anything was bought is reopened, and decided
// again.
func (w *Watcher) closeTaken(ctx context.Context, t *Turn, blocks []model.Block, now time.Time) {
	for _, x := range t.Taken() {
		i := slices.IndexFunc(blocks, func(b model.Block) bool { return b.ReservationID == x.ReservationID && b.Region == x.Region })
		if i < 0 || ctx.Err() != nil {
			continue // not listed this round (a region that failed): next round
		}
		b := blocks[i]
		intent, outcome, found, err := w.Spend.ExtensionSince(b, x.DecidedAt)
		switch {
		case err != nil:
			w.sayf("auto-extend %s: what became of the extension decided cannot be read: %s", b.ReservationID, source.RedactError(err))
			continue
		case !found && (x.InTurn || time.Since(x.DecidedAt) >= takenGrace):
			// Its gpublock stopped between the decision and the intent line, which the
			// spend path writes before it sends: nothing was bought.
			w.reopen(t, x, "was never sent")
			continue
		case !found:
			continue // a TUI may be about to send it
		case !x.InTurn && time.Since(intent.Time) < takenGrace:
			continue // a TUI may be buying it now, or about to record what it bought
		}
		bought := outcome != nil && outcome.Outcome == string(source.Bought)
		if outcome == nil {
			s, err := w.Spend.SettleIntent(ctx, intent)
			if err != nil {
				w.sayf("auto-extend %s: %s", b.ReservationID, w.Client.ExplainError(err))
				continue
			}
			w.sayf("settled an interrupted run: %s", s.Sentence())
			bought = s.Outcome == source.Bought
		}
		off := model.ExtensionOffering{ID: intent.Offering, ReservationID: b.ReservationID, Currency: intent.Currency, DurationHours: intent.Hours}
		off.Fee, _ = model.ParseMoney(intent.Fee)
		if intent.End != nil {
			off.End = *intent.End
		}
		if !bought {
			// Stopped before the call went out (AWS lists no such extension), or refused.
			w.reopen(t, x, "was not bought")
			continue
		}
		w.record(t, x.Ask(b), source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: intent.RequestID}, now)
	}
}

// reopen opens again a decision to extend that nothing was bought for (what says why:
// "was never sent"), so that this turn decides it again, now, and says so.
func (w *Watcher) reopen(t *Turn, x Record, what string) {
	why := "the extension decided at " + x.DecidedAt.UTC().Format(model.LayoutMinuteUTC) + " " + what + " (the gpublock that decided it stopped); nothing was bought"
	if err := t.Reopen(x, why); err != nil {
		w.sayf("auto-extend %s: %s", x.ReservationID, source.RedactError(err))
		return
	}
	w.sayf("auto-extend %s: %s; it is decided again", x.ReservationID, why)
}
