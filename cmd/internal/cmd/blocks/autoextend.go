package blocks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// decisionAction is the journal action of an auto-extension decision (phase "decision"):
// the spend path's own intent and outcome lines follow it when it extends.
const decisionAction = "AutoExtend"

// The notification kinds of the decisions.
const (
	kindExtended = "auto-extended"
	kindDeclined = "auto-extend-declined"
	kindFailed   = "auto-extend-failed"
)

// errNoOffering is the look-up's answer when AWS offers no extension of the length.
var errNoOffering = errors.New("no extension offering")

// autoExtend is the watch's auto-extension step: each block the policy would extend now is
// extended through the spend path (the cap, read-only, settling: its refusals are the
// declines), after the approval command when there is one. Every decision is journalled
// before anything is bought, so that no restart decides it again, and notified.
func (a *Options) autoExtend(ctx context.Context, client *awsapi.Client, blocks []model.Block, now time.Time, stderr io.Writer) {
	pol := a.auto.Policy
	if pol.Days == 0 {
		return
	}
	// Two watches at once decide one at a time, each reading the other's decisions first:
	// otherwise both could extend the same block for the same lead.
	unlock, err := lockDecisions(client)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend: nothing is extended: %s\n", source.RedactError(err))
		return
	}
	defer unlock()
	entries, _, err := client.Journal()
	if err != nil {
		// What was decided cannot be read: deciding again could extend twice.
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend: the journal cannot be read, nothing is extended: %s\n", source.RedactError(err))
		return
	}
	if a.decided == nil {
		a.decided = map[string]bool{}
	}
	for _, e := range entries {
		if e.Phase == "decision" && e.Action == decisionAction {
			a.decided[e.Key] = true
		}
	}
	for _, b := range blocks {
		d := pol.Decide(b, now, a.decided)
		switch d.Verdict {
		case model.AutoExtendDecline:
			a.decide(client, b, d, model.ExtensionOffering{}, now, kindDeclined, d.Reason, stderr)
		case model.AutoExtendNow:
			a.extendByPolicy(ctx, client, b, d, now, stderr)
		}
	}
}

// lockDecisions takes the lock of the decisions, beside the journal they are written to.
func lockDecisions(client *awsapi.Client) (unlock func(), err error) {
	jp, err := client.JournalPath()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(jp), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(filepath.Dir(jp), "auto-extend.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { filelock.Unlock(f); f.Close() }, nil
}

// extendByPolicy prepares the extension of b, asks for approval, records the decision and
// commits. A failure that is no decision (AWS could not be asked) is said and left for the
// next refresh.
func (a *Options) extendByPolicy(ctx context.Context, client *awsapi.Client, b model.Block, d model.AutoExtendDecision, now time.Time, stderr io.Writer) {
	days := a.auto.Policy.Days
	var src source.Source
	for _, s := range a.sources {
		if s.Caps().Source == b.Source {
			src = s
		}
	}
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
	switch {
	case errors.Is(err, errNoOffering):
		a.decide(client, b, d, off, now, kindDeclined, fmt.Sprintf("AWS offers no %s extension of %s now", model.FormatDays(days), b.ReservationID), stderr)
		return
	case errors.Is(err, source.ErrReadOnly), errors.Is(err, source.ErrOverSpendCap), errors.Is(err, spend.ErrNotAllowed), errors.Is(err, source.ErrAlreadyBought):
		a.decide(client, b, d, off, now, kindDeclined, client.ExplainError(err).String(), stderr)
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
	if cmd := a.auto.ApproveCmd; cmd != "" {
		e := a.decisionEvent(b, d, off, now, "auto-extend-approval", "gpublock: extend "+b.ReservationID+"? "+extensionWords(b, off))
		if ok, why := notify.Approve(ctx, cmd, e, notify.ApproveTimeout); !ok {
			if ctx.Err() != nil {
				return // interrupted: nothing was decided
			}
			a.decide(client, b, d, off, now, kindDeclined, "the approval command refused ("+why+")", stderr)
			return
		}
	}
	// Recorded before the purchase: a crash after it leaves the decision taken, and the
	// spend path's own intent line settles what the call did.
	if !a.decide(client, b, d, off, now, "", "", stderr) {
		return
	}
	res, err := sv.Commit(ctx, p)
	if err != nil {
		a.notify(stderr, a.decisionEvent(b, d, off, now, kindFailed, "gpublock: AUTO-EXTEND FAILED "+b.ReservationID+": "+client.ExplainError(err).String()))
		return
	}
	if res.JournalErr != nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: the journal's outcome line could not be written: %v\n", b.ReservationID, res.JournalErr)
	}
	a.notify(stderr, a.decisionEvent(b, d, off, now, kindExtended, "gpublock: AUTO-EXTENDED "+b.ReservationID+": "+extensionWords(b, off)+" (journal id "+res.RequestID+")"))
}

// decide journals the decision on b, and, for a decline (kind not ""), notifies it. It
// reports whether the journal kept it: an extension is not bought otherwise.
func (a *Options) decide(client *awsapi.Client, b model.Block, d model.AutoExtendDecision, off model.ExtensionOffering, now time.Time, kind, reason string, stderr io.Writer) bool {
	a.decided[d.Key] = true // even unjournalled: this process decides it once
	e := source.JournalEntry{Time: time.Now().UTC(), Phase: "decision", Action: decisionAction, Key: d.Key, Region: b.Region, Zone: b.AvailabilityZone,
		Type: b.InstanceType, Count: b.TotalCount, Target: b.ReservationID, Hours: a.auto.Policy.Days * 24, Outcome: "extend", Error: source.Redact(reason)}
	if kind != "" {
		e.Outcome = "declined"
	}
	if off.ID != "" {
		e.Offering, e.Fee, e.Currency, e.End = off.ID, off.Fee.String(), off.Currency, &off.End
	}
	err := client.WriteJournal(e)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock blocks: auto-extend %s: the journal cannot be written, so it is not extended: %s\n", b.ReservationID, source.RedactError(err))
	}
	if kind != "" {
		ev := a.decisionEvent(b, d, off, now, kind, "gpublock: AUTO-EXTEND DECLINED "+b.ReservationID+": "+reason+". Nothing was extended.")
		ev.Reason = e.Error
		a.notify(stderr, ev)
	}
	return err == nil
}

// decisionEvent is the decision as the notify and approval commands and the webhook get it.
func (a *Options) decisionEvent(b model.Block, d model.AutoExtendDecision, off model.ExtensionOffering, now time.Time, kind, text string) notify.Event {
	e := notify.EventOf(b, model.Warning{Kind: model.WarnExtendBy, Lead: d.Lead}, now)
	e.Kind, e.Warning, e.Text, e.Key = kind, kind, text, d.Key+"/"+kind
	e.Length = model.FormatDays(a.auto.Policy.Days)
	if off.ID != "" {
		e.Fee, e.NewEnd = off.Fee.String(), off.End.UTC()
	}
	return e
}

// notify says the decision on stderr and sends it, once per key, as the warnings are sent.
func (a *Options) notify(stderr io.Writer, e notify.Event) {
	fmt.Fprintln(stderr, "gpublock blocks:", strings.TrimPrefix(e.Text, "gpublock: "))
	a.notifier.Send(e)
}

// extensionWords are what an extension adds, costs and makes the end.
func extensionWords(b model.Block, off model.ExtensionOffering) string {
	return fmt.Sprintf("%s in %s, %s added for %s, new end %s", b.InstanceType, b.Region, model.FormatDays(off.DurationHours/24), off.Fee.Dollars(), off.End.UTC().Format("2006-01-02 15:04 MST"))
}
