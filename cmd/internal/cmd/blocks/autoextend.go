package blocks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// errNoOffering is the look-up's answer when AWS offers no extension of the length.
var errNoOffering = errors.New("no extension offering")

// autoExtend is the watch's auto-extension step: each block the policy would extend now is
// extended through the spend path (the cap, read-only, settling: its refusals are the
// declines), after the approval command when there is one. Every decision is recorded
// (aws/autoextend) before anything is bought, so that no restart, and no TUI on this
// machine, decides it again, and declines and outcomes are notified. The error is the
// decisions that could not be read or kept (a damaged record, a store that cannot be
// reached): said here, and the run fails.
func (a *Options) autoExtend(ctx context.Context, client *awsapi.Client, blocks []model.Block, now time.Time, stderr io.Writer) error {
	pol := a.auto.Policy
	if pol.Days == 0 {
		return nil
	}
	if a.recorder == nil {
		a.recorder = autoextend.New(client, a.notifier, func(s string) { fmt.Fprintln(stderr, "gpublock blocks:", s) })
	}
	// The approval command is asked outside every lock: a slow one must not hold up the
	// other watchers. Only the decision it leads to is taken in the turn, and only if the
	// ask is still open and the extension the one approved.
	approvals := a.approve(ctx, blocks, now)
	// Two watchers at once decide one at a time, each reading the other's decisions first,
	// and this one holds its turn while it buys: otherwise both could extend the same block
	// for the same lead.
	err := a.recorder.Turn(func(t *autoextend.Turn) {
		a.closeTaken(ctx, client, t, blocks, now, stderr)
		for _, b := range blocks {
			d := pol.Decide(b, now, t.Decided())
			ask := source.AutoExtendAsk{AutoExtendDecision: d, Block: b, Days: pol.Days}
			switch d.Verdict {
			case model.AutoExtendDecline:
				a.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: d.Reason}, now, stderr)
			case model.AutoExtendNow:
				a.extendByPolicy(ctx, client, t, ask, approvals, now, stderr)
			}
		}
		// What a gpublock stopped before delivering is delivered; the rest was, once.
		t.Renotify(blocks, now)
	})
	if err != nil {
		// What was decided cannot be read: deciding again could extend twice.
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend: nothing is extended: %s\n", source.RedactError(err))
	}
	return err
}

// extendByPolicy prepares the extension of ask's block, asks for approval, records the
// decision and commits. A failure that is no decision (AWS could not be asked) is said and
// left for the next refresh.
func (a *Options) extendByPolicy(ctx context.Context, client *awsapi.Client, t *autoextend.Turn, ask source.AutoExtendAsk, approvals map[string]approval, now time.Time, stderr io.Writer) {
	b, days := ask.Block, ask.Days
	src := a.sourceOf(b)
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
	sv := cmdutil.SpendPath(client)
	p, err := sv.Prepare(ctx, src, in)
	for _, s := range p.Settled {
		fmt.Fprintf(stderr, "gpublock blocks: settled an interrupted run: %s\n", s.Sentence())
	}
	off := p.Intent.Extension
	declined := func(reason string) {
		a.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: reason, Extension: off}, now, stderr)
	}
	switch {
	case errors.Is(err, errNoOffering):
		declined(fmt.Sprintf("AWS offers no %s extension of %s now", model.FormatDays(days), b.ReservationID))
		return
	case errors.Is(err, source.ErrReadOnly), errors.Is(err, source.ErrOverSpendCap):
		// This watcher may not spend it; another may (a server's, or this one with its cap
		// raised): the decision stays open for it, and this one says so, once.
		a.cannotAct(ask, off, client.ExplainError(err).String(), now, stderr)
		return
	case errors.Is(err, spend.ErrNotAllowed), errors.Is(err, source.ErrAlreadyBought):
		declined(client.ExplainError(err).String())
		return
	case err == nil && p.PayerErr != nil:
		err = p.PayerErr
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: not decided, tried again on the next refresh: %s\n", b.ReservationID, client.ExplainError(err))
	}
	if err != nil {
		return
	}
	if a.auto.ApproveCmd != "" {
		ap, asked := approvals[ask.Key]
		switch {
		case !asked:
			return // due since the command was asked (or interrupted): asked next round
		case !ap.ok:
			declined("the approval command refused (" + ap.why + ")")
			return
		case ap.off.DurationHours != off.DurationHours || ap.off.Fee != off.Fee || ap.off.Currency != off.Currency:
			fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: the extension on offer changed since it was approved; asked again next round\n", b.ReservationID)
			return
		}
	}
	// Recorded before the purchase: a crash after it leaves the decision taken, and the
	// spend path's own intent line settles what the call did.
	if !a.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendTaken, Extension: off}, now, stderr) {
		return
	}
	res, err := sv.Commit(ctx, p)
	if err != nil {
		a.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendFailed, Reason: client.ExplainError(err).String(), Extension: off}, now, stderr)
		return
	}
	if res.JournalErr != nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: the journal's outcome line could not be written: %v\n", b.ReservationID, res.JournalErr)
	}
	a.record(t, ask, source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: res.RequestID}, now, stderr)
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
func (a *Options) approve(ctx context.Context, blocks []model.Block, now time.Time) map[string]approval {
	cmd := a.auto.ApproveCmd
	if cmd == "" {
		return nil
	}
	due, err := a.recorder.Due(a.auto.Policy, blocks, now)
	if err != nil {
		return nil
	}
	out := map[string]approval{}
	for _, ask := range due {
		if ask.Verdict != model.AutoExtendNow || ctx.Err() != nil {
			continue
		}
		src := a.sourceOf(ask.Block)
		if src == nil {
			continue
		}
		offs, err := src.ExtensionOfferings(ctx, ask.Block, ask.Days)
		if err != nil || len(offs) == 0 {
			continue
		}
		off := model.CheapestExtension(offs)
		e := autoextend.Event(ask, off, now, autoextend.KindApproval, "gpublock: extend "+ask.Block.ReservationID+"? "+autoextend.ExtensionWords(ask.Block, off))
		ok, why := notify.Approve(ctx, cmd, e, notify.ApproveTimeout)
		if ctx.Err() != nil {
			break // interrupted: nothing was decided
		}
		out[ask.Key] = approval{off: off, ok: ok, why: why}
	}
	return out
}

// sourceOf is the source of b's kind, nil when this run has none.
func (a *Options) sourceOf(b model.Block) source.Source {
	for _, s := range a.sources {
		if s.Caps().Source == b.Source {
			return s
		}
	}
	return nil
}

// KindCannotAct is the notification of a watcher that may not spend what the policy would
// extend: the decision is left open for one that may.
const KindCannotAct = "auto-extend-not-decided"

// cannotAct says, once per block and lead, that this watcher may not act on ask, and
// records nothing: a decline here would bind every other watcher.
func (a *Options) cannotAct(ask source.AutoExtendAsk, off model.ExtensionOffering, why string, now time.Time, stderr io.Writer) {
	if a.saidCannot == nil {
		a.saidCannot = map[string]bool{}
	}
	if a.saidCannot[ask.Key] {
		return
	}
	a.saidCannot[ask.Key] = true
	text := "gpublock: AUTO-EXTEND NOT DECIDED " + ask.Block.ReservationID + ": " + strings.TrimSuffix(why, ".") +
		". Left open for a watcher that may spend it (or this one, once allowed)."
	fmt.Fprintln(stderr, "gpublock blocks:", strings.TrimPrefix(text, "gpublock: "))
	a.notifier.Send(autoextend.Event(ask, off, now, KindCannotAct, text))
}

// record records a step of ask in the watcher's turn, and says what could not be
// recorded. It reports whether it was: a decision taken is not acted on otherwise.
func (a *Options) record(t *autoextend.Turn, ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time, stderr io.Writer) bool {
	err := t.Record(ask, o, now)
	if err == nil {
		return true
	}
	so := ""
	if o.Step == source.AutoExtendTaken {
		so = ", so it is not extended"
	}
	fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: not recorded%s: %s\n", ask.Block.ReservationID, so, source.RedactError(err))
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
func (a *Options) closeTaken(ctx context.Context, client *awsapi.Client, t *autoextend.Turn, blocks []model.Block, now time.Time, stderr io.Writer) {
	sv := cmdutil.SpendPath(client)
	for _, x := range t.Taken() {
		i := slices.IndexFunc(blocks, func(b model.Block) bool { return b.ReservationID == x.ReservationID && b.Region == x.Region })
		if i < 0 || ctx.Err() != nil {
			continue // not listed this round (a region that failed): next round
		}
		b := blocks[i]
		intent, outcome, found, err := sv.ExtensionSince(b, x.DecidedAt)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: what became of the extension decided cannot be read: %s\n", b.ReservationID, source.RedactError(err))
			continue
		case !found && (x.InTurn || time.Since(x.DecidedAt) >= takenGrace):
			// Its gpublock stopped between the decision and the intent line, which the
			// spend path writes before it sends: nothing was bought.
			reopen(t, x, "was never sent", stderr)
			continue
		case !found:
			continue // a TUI may be about to send it
		case !x.InTurn && time.Since(intent.Time) < takenGrace:
			continue // a TUI may be buying it now, or about to record what it bought
		}
		bought := outcome != nil && outcome.Outcome == string(source.Bought)
		if outcome == nil {
			s, err := sv.SettleIntent(ctx, intent)
			if err != nil {
				fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: %s\n", b.ReservationID, client.ExplainError(err))
				continue
			}
			fmt.Fprintf(stderr, "gpublock blocks: settled an interrupted run: %s\n", s.Sentence())
			bought = s.Outcome == source.Bought
		}
		off := model.ExtensionOffering{ID: intent.Offering, ReservationID: b.ReservationID, Currency: intent.Currency, DurationHours: intent.Hours}
		off.Fee, _ = model.ParseMoney(intent.Fee)
		if intent.End != nil {
			off.End = *intent.End
		}
		if !bought {
			// Stopped before the call went out (AWS lists no such extension), or refused.
			reopen(t, x, "was not bought", stderr)
			continue
		}
		a.record(t, x.Ask(b), source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: intent.RequestID}, now, stderr)
	}
}

// reopen opens again a decision to extend that nothing was bought for (what says why:
// "was never sent"), so that this turn decides it again, now, and says so.
func reopen(t *autoextend.Turn, x autoextend.Record, what string, stderr io.Writer) {
	why := "the extension decided at " + x.DecidedAt.UTC().Format("2006-01-02 15:04:05 MST") + " " + what + " (the gpublock that decided it stopped); nothing was bought"
	if err := t.Reopen(x, why); err != nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: %s\n", x.ReservationID, source.RedactError(err))
		return
	}
	fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: %s; it is decided again\n", x.ReservationID, why)
}
