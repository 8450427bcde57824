// Package spend is the one spend path of every capacity source: prepare and commit, the
// spending cap and read-only mode, the journal's intents and outcomes, and the settling of
// what a crash or a lost reply left unknown.
package spend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// The one spend service. Every purchase, extension and launch, of every source, from the
// command line or the TUI (through aws/sources), goes through Prepare and Commit, and
// each step below is written here once:
//
//	Prepare (what the person must see before agreeing; nothing is bought):
//	  read-only → tags → the cap → settle the region's open intents (once) → an earlier
//	  purchase of the same intent → the offering looked up again (Intent.Lookup) and the
//	  cap on its fee → the source's checks (its SpendCall) → the paying account → the dry
//	  run, or the source's "no dry run" sentence.
//	Commit (after the person agreed):
//	  journal the intent → cancelled before sending? → one call, without the SDK's
//	  retries → a lost reply looked up by the source's key → journal the outcome →
//	  classify it.
//
// A source adds only what is its own (SpendCall): its call, its idempotency key and the
// look-up by it (a request tag, a plan's name, an extension history), its dry run or the
// sentence that it has none.

// prepared is the spend path's own part of a source.Prepared (its Handle): the source's
// call, or the refusal Commit repeats.
type prepared struct {
	call    source.SpendCall
	refusal error
}

// handleOf is p's own part; a Prepared made elsewhere has none, and Commit refuses it.
func handleOf(p source.Prepared) prepared {
	h, _ := p.Handle.(prepared)
	return h
}

// ErrNotAllowed is wrapped by the refusal of an intent the dry run did not allow.
var ErrNotAllowed = errors.New("not allowed by the dry run")

// Prepare checks the intent through src without buying anything (see the steps above).
// The error is Refusal().
func (sv *Service) Prepare(ctx context.Context, src source.Source, in source.Intent) (source.Prepared, error) {
	return sv.prepare(ctx, in, func(in source.Intent) (source.SpendCall, error) { return src.SpendCall(ctx, in) })
}

// SpendWith is Prepare then Commit with a source's own call builder, for a source's typed
// entry points whose caller agreed beforehand (opts: Again).
func (sv *Service) SpendWith(ctx context.Context, in source.Intent, callOf func(source.Intent) (source.SpendCall, error), opts ...SpendOption) (source.SpendResult, error) {
	in.Again = in.Again || spendOpts(opts).again
	p, err := sv.prepare(ctx, in, callOf)
	if err != nil {
		return source.SpendResult{Outcome: source.NotBought, Permission: p.Permission, Settled: p.Settled}, err
	}
	return sv.Commit(ctx, p)
}

func (sv *Service) prepare(ctx context.Context, in source.Intent, callOf func(source.Intent) (source.SpendCall, error)) (p source.Prepared, _ error) {
	p.Intent = in
	refuse := func(err error) (source.Prepared, error) { p.Handle = prepared{refusal: err}; return p, err }
	_, done := in.Kind.Words()
	if sv.c.Config().ReadOnly && !in.CheckOnly {
		return refuse(&source.ActionError{Outcome: source.NotBought, Err: source.ErrReadOnly, Explanation: source.Explanation{Summary: model.ReadOnlyRefusal(sv.c.Config().ReadOnlyRule, done)}})
	}
	tags := in.Tags
	if in.Kind == source.SpendLaunch {
		tags = in.Launch.Tags
	}
	if err := model.CheckTags(tags); err != nil {
		return refuse(awsapi.NotBoughtError("Bad tags: "+err.Error()+".", "", err))
	}
	if in.Lookup == nil && in.Kind == source.SpendPurchase && mustAskAgain(in.Offering, time.Now()) {
		if is, ok := sv.intentsOf(in.Offering.Source); ok && is.AskAgain != nil {
			in.Lookup = is.AskAgain
		}
	}
	if in.Lookup == nil {
		if err := sv.checkCap(in.Fee()); err != nil {
			return refuse(err)
		}
	}
	if !in.CheckOnly {
		if in.Kind != source.SpendLaunch {
			var err error
			if p.Settled, err = sv.SettleOpen(ctx, in.Region()); err != nil {
				var unknown *awsapi.AccountUnknownError
				if errors.As(err, &unknown) {
					return refuse(sv.payerUnknown(unknown.Err, done))
				}
				return refuse(err)
			}
		}
		if e, ok := sv.earlier(in); ok {
			p.Earlier = &e
			if !in.Again {
				return refuse(sv.AlreadyBoughtError(e))
			}
		}
	}
	if in.Lookup != nil {
		if err := in.Lookup(ctx, &in); err != nil {
			return refuse(err)
		}
		p.Intent = in
		if err := sv.checkCap(in.Fee()); err != nil {
			return refuse(err)
		}
	}
	call, err := callOf(in)
	if err != nil {
		return refuse(err)
	}
	p.Handle = prepared{call: call}
	// The account is named in every confirmation; a caller without a person (the typed
	// entry points) goes ahead without it, as the journal does.
	if id, err := sv.c.Identity(ctx); err != nil {
		p.PayerErr = sv.payerUnknown(err, done)
	} else {
		p.Account = id.Account
	}
	if call.DryRun == nil {
		p.NoDryRun = call.NoDryRun
		if in.CheckOnly {
			return refuse(&source.ActionError{Outcome: source.NotBought, Err: source.ErrNoDryRun, Explanation: source.Explanation{Summary: call.NoDryRun}})
		}
		return p, nil
	}
	perm, err := call.DryRun(ctx)
	if err != nil {
		var pe *source.ActionError
		if errors.As(err, &pe) {
			return refuse(err)
		}
		return refuse(awsapi.NotBoughtError("", "", err))
	}
	p.Permission = perm
	if !perm.Allowed {
		return refuse(&source.ActionError{Outcome: source.NotBought, Err: ErrNotAllowed, Explanation: source.Explanation{
			Summary: model.NotAllowed(perm.Action, done), Action: perm.Action, Code: "UnauthorizedOperation"}})
	}
	return p, nil
}

// earlier is the one earlier-purchase check: what an interrupted run, settled since,
// bought of this intent.
func (sv *Service) earlier(in source.Intent) (source.JournalEntry, bool) {
	switch in.Kind {
	case source.SpendPurchase:
		return sv.EarlierPurchase(in.Offering)
	case source.SpendExtend:
		return sv.EarlierExtension(in.Block, in.Extension.DurationHours)
	}
	return source.JournalEntry{}, false
}

// checkCap is the one cap check, in model.CapRefusal's words.
func (sv *Service) checkCap(fee model.Money) error {
	if s := model.CapRefusal(fee, sv.c.Config().MaxSpend, sv.c.Config().MaxSpendRule); s != "" {
		return &source.ActionError{Outcome: source.NotBought, Err: source.ErrOverSpendCap, Explanation: source.Explanation{Summary: s}}
	}
	return nil
}

// Commit spends what p prepared, once (see the steps above). The error, when not nil, is a
// *source.ActionError: Outcome NotBought, or Unknown when AWS did not answer and the look-up
// afterwards failed too (never buy again on it).
func (sv *Service) Commit(ctx context.Context, p source.Prepared) (source.SpendResult, error) {
	res := source.SpendResult{Outcome: source.NotBought, Permission: p.Permission, Settled: p.Settled}
	noun, done := p.Intent.Kind.Words()
	switch {
	case handleOf(p).refusal != nil:
		return res, handleOf(p).refusal
	case handleOf(p).call.Call == nil:
		return res, awsapi.NotBoughtError("Nothing was prepared: the "+noun+" was not checked first.", "", nil)
	}
	call := handleOf(p).call
	res.RequestID = p.Intent.RequestID
	if res.RequestID == "" {
		res.RequestID = awsapi.NewRequestID()
	}
	entry := call.Entry
	entry.RequestID = res.RequestID
	if p.Intent.Kind == source.SpendExtend {
		ctx = awsapi.WithExtensionRequestID(ctx, res.RequestID)
	}
	if err := sv.journalIntent(ctx, &entry); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		// Cancelled before anything was sent: certainly not done.
		sv.journalOutcome(entry, source.NotBought, false, "", err)
		return res, &source.ActionError{Outcome: source.NotBought, Err: err, Explanation: source.Explanation{Summary: "Cancelled before the " + noun + " was sent; nothing was " + done + "."}}
	}
	var mark source.SentMark
	ref, callErr := call.Call(ctx, res.RequestID, &mark, &res)
	if call.Idempotent {
		return sv.classifyIdempotent(entry, ref, callErr, res)
	}
	if callErr != nil || ref == "" {
		lost := call.Lost(res.RequestID)
		find := func() (string, bool, error) { return call.Find(ctx, res.RequestID, &res) }
		var err error
		if call.Taken != nil && call.Taken(callErr) {
			// The key is this spend's own: taken means it went through; find it to be sure.
			var found bool
			if ref, found, err = find(); err != nil || !found {
				sv.journalOutcome(entry, source.Unknown, false, "", callErr)
				return res, &source.ActionError{Outcome: source.Unknown, Err: callErr, Explanation: lost.Unknown}
			}
		} else if ref, res.Outcome, err = settle(sv, entry, callErr, mark.Sent(), lostReply{noAnswer: lost.NoAnswer, what: lost.What,
			unknown: lost.Unknown, notFound: lost.NotFound, done: done}, find); err != nil {
			return res, err
		}
		res.Recovered = true
	}
	res.Outcome = source.Bought
	res.JournalErr = redacted(sv.journalOutcome(entry, source.Bought, res.Recovered, ref, nil))
	return res, nil
}

// classifyIdempotent is the outcome of a call under an idempotency token (a launch): the
// SDK retried it as it may, so a failure that leaves it unknown is said, not looked up.
func (sv *Service) classifyIdempotent(entry source.JournalEntry, ref string, err error, res source.SpendResult) (source.SpendResult, error) {
	switch {
	case err != nil && awsapi.Ambiguous(err):
		sv.journalOutcome(entry, source.Unknown, false, "", err)
		res.Outcome = source.Unknown
		return res, &source.ActionError{Outcome: source.Unknown, Err: err, Explanation: source.Explanation{
			Summary: "The launch may or may not have started instances: " + awsapi.ExplainError(err).Summary,
			Hint:    "Check `" + sv.c.NextStep("blocks", entry.Region) + "` before launching again."}}
	case err != nil:
		sv.journalOutcome(entry, "not-launched", false, "", err)
		return res, &source.ActionError{Outcome: source.NotBought, Explanation: awsapi.ExplainError(err), Err: err}
	case ref == "":
		sv.journalOutcome(entry, source.Unknown, false, "", errors.New(entry.Action+" answered without instances"))
		res.Outcome = source.Unknown
		return res, &source.ActionError{Outcome: source.Unknown, Explanation: source.Explanation{
			Summary: "AWS answered the launch without listing any instance.",
			Hint:    "Check the block with `" + sv.c.NextStep("blocks", entry.Region) + "` before launching again."}}
	}
	res.Outcome = source.Bought
	res.JournalErr = redacted(sv.journalOutcome(entry, "launched", false, ref, nil))
	return res, nil
}

// lostReply is what a purchase says when its reply did not tell what was bought.
type lostReply struct {
	noAnswer string             // the error of an answer without what was bought
	what     string             // "purchase", "extension"
	unknown  source.Explanation // when the look-up failed as well
	notFound string             // the hint when the look-up answered without it
	done     string             // the past participle of what was not done: "bought", "extended"
}

// settle decides what a purchase sent once, without retries, did when its reply did not
// say: a refusal (4xx) bought nothing, but no answer, a server error or an unreadable
// answer may have been carried out, so find looks for what was bought before anything is
// told. A found T comes with Bought (the caller journals it); the rest is journalled here.
func settle[T any](sv *Service, entry source.JournalEntry, callErr error, sent bool, say lostReply, find func() (T, bool, error)) (T, source.Outcome, error) {
	var zero T
	if callErr == nil {
		callErr = errors.New(say.noAnswer)
	}
	if !sent {
		// It failed before reaching the network (credentials, signing): AWS never saw it.
		sv.journalOutcome(entry, source.NotBought, false, "", fmt.Errorf("not sent: %w", callErr))
		return zero, source.NotBought, &source.ActionError{Outcome: source.NotBought, Err: callErr, Explanation: source.Explanation{
			Summary: "Not sent: the " + say.what + " never left this machine (" + strings.TrimSuffix(awsapi.ExplainError(callErr).Summary, ".") + ").",
			Hint:    awsapi.ExplainError(callErr).Hint}}
	}
	if !awsapi.Ambiguous(callErr) {
		sv.journalOutcome(entry, source.NotBought, false, "", callErr)
		return zero, source.NotBought, &source.ActionError{Outcome: source.NotBought, Explanation: awsapi.ExplainError(callErr), Err: callErr}
	}
	got, found, lookErr := find()
	switch {
	case found:
		return got, source.Bought, nil
	case lookErr != nil:
		sv.journalOutcome(entry, source.Unknown, false, "", fmt.Errorf("%v; look-up failed: %v", callErr, lookErr))
		return zero, source.Unknown, &source.ActionError{Outcome: source.Unknown, Err: callErr, Explanation: say.unknown}
	}
	sv.journalOutcome(entry, source.NotBought, false, "", callErr)
	return zero, source.NotBought, &source.ActionError{Outcome: source.NotBought, Err: callErr, Explanation: source.Explanation{
		Summary: "Not " + say.done + ": AWS did not complete the " + say.what + " (" + awsapi.ExplainError(callErr).Summary + ").",
		Hint:    say.notFound}}
}

// journalIntent records what is about to be sent. It fills in e's account, when it can be
// learnt, so that the outcome line carries it too.
func (sv *Service) journalIntent(ctx context.Context, e *source.JournalEntry) error {
	if id, err := sv.c.Identity(ctx); err == nil {
		e.Account = id.Account
	}
	if sv.c.Config().EndpointURL != "" {
		// The emulator's clock may be far from this machine's; an extension is settled
		// against the time its history uses.
		if t, ok := sv.c.SimClock(ctx); ok {
			e.BackendTime = &t
		}
	}
	intent := *e
	intent.Time, intent.Phase = time.Now().UTC(), "intent"
	if err := sv.c.WriteJournal(intent); err != nil {
		return &source.ActionError{Outcome: source.NotBought, Err: err, Explanation: source.Explanation{
			Summary: "Refused: the purchase journal cannot be written (" + err.Error() + ").",
			Hint:    "Fix the journal directory (or set XDG_STATE_HOME); nothing was sent to AWS."}}
	}
	return nil
}

// journalOutcome records the result. Its own failure cannot undo the purchase: it is
// returned for the caller to say (the intent line is already on disk, so a later run
// settles it).
func (sv *Service) journalOutcome(e source.JournalEntry, outcome source.Outcome, recovered bool, result string, err error) error {
	e.Time, e.Phase = time.Now().UTC(), "outcome"
	e.Outcome, e.Recovered, e.Result = string(outcome), recovered, result
	e.BackendTime = nil
	if err != nil {
		e.Error = source.Redact(awsapi.FirstLine(err))
	}
	return sv.c.WriteJournal(e)
}

// mustAskAgain reports whether a purchase of o must look it up again first (when its
// source can). An offering of unknown age (built by a caller, not listed by a search) is
// left to the caller's Lookup.
func mustAskAgain(o model.Offering, now time.Time) bool {
	return !o.AskedAt.IsZero() && now.Sub(o.AskedAt) > source.FreshFor
}

// redactedError reads as err through the one redaction step, and is err for errors.Is:
// a journal's failure is shown on a screen as it is.
type redactedError struct{ err error }

func (e redactedError) Error() string { return source.RedactError(e.err) }
func (e redactedError) Unwrap() error { return e.err }

func redacted(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}

// payerUnknown is the refusal when STS cannot say which account would pay (err is its
// error): done is what did not happen ("bought", "extended", "launched").
func (sv *Service) payerUnknown(err error, done string) *source.ActionError {
	ex := sv.c.ExplainError(err)
	return &source.ActionError{Outcome: source.NotBought, Err: err, Explanation: source.Explanation{
		Summary: "Cannot tell which account would pay: " + strings.TrimSuffix(ex.Summary, ".") + ". Nothing was " + done + ".",
		Hint:    ex.Hint}}
}
