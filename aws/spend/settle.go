package spend

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// ErrUnsettled is wrapped by the refusal to spend in a region where an interrupted
// purchase or extension could not be settled: AWS could not be asked what became of it.
var ErrUnsettled = errors.New("an interrupted purchase is not settled")

// OpenIntents are the journal's purchase and extension intents that have no final
// outcome (none at all, or only "unknown"), in region ("" for every region), oldest first.
func (sv *Service) OpenIntents(entries []source.JournalEntry, region string) []source.JournalEntry {
	final := map[string]bool{}
	for _, e := range entries {
		if e.Phase == "outcome" && e.Outcome != string(source.Unknown) {
			final[e.RequestID] = true
		}
	}
	var out []source.JournalEntry
	seen := map[string]bool{}
	for _, e := range entries {
		if e.Phase != "intent" || final[e.RequestID] || seen[e.RequestID] {
			continue
		}
		if !sv.settles(e.Action) {
			continue // a launch carries a client token: AWS never runs it twice
		}
		if region != "" && e.Region != region {
			continue
		}
		seen[e.RequestID] = true
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// SettleOpen settles every open intent of this account in region ("" for every region)
// from what AWS lists: a purchase by its request tag, an extension in its block's history.
// Each gets an outcome line marked settled later. When one cannot be settled (AWS cannot
// be asked), the error wraps ErrUnsettled and nothing may be bought in that region: the
// settled ones are returned all the same.
func (sv *Service) SettleOpen(ctx context.Context, region string) ([]source.Settled, error) {
	entries, _, err := sv.c.Journal()
	if err != nil {
		var unknown *awsapi.AccountUnknownError
		if errors.As(err, &unknown) {
			// No journal was read, so nothing is known to be interrupted: what stops the
			// spend is the account, said as such.
			return nil, err
		}
		return nil, sv.unsettled(region, nil, err)
	}
	open := sv.OpenIntents(entries, region)
	if len(open) == 0 {
		return nil, nil
	}
	id, err := sv.c.Identity(ctx)
	if err != nil {
		return nil, sv.unsettled(region, &open[0], err)
	}
	var done []source.Settled
	for _, e := range open {
		if e.Account != "" && e.Account != id.Account {
			continue // another account's: it is settled when that account buys
		}
		s, err := sv.settleAndRecord(ctx, e)
		if err != nil {
			return done, sv.unsettled(e.Region, &e, err)
		}
		done = append(done, s)
	}
	return done, nil
}

// SettleIntent settles the one open intent e from what AWS lists, as SettleOpen does,
// and writes its outcome line, marked settled later. Its error is an ActionError saying
// why it could not be (AWS could not be asked, the journal not written).
func (sv *Service) SettleIntent(ctx context.Context, e source.JournalEntry) (source.Settled, error) {
	s, err := sv.settleAndRecord(ctx, e)
	if err != nil {
		return s, sv.unsettled(e.Region, &e, err)
	}
	return s, nil
}

// settleAndRecord asks AWS what became of e and writes the outcome line.
func (sv *Service) settleAndRecord(ctx context.Context, e source.JournalEntry) (source.Settled, error) {
	s, err := sv.settleOne(ctx, e)
	if err != nil {
		return s, err
	}
	var result string
	if s.Outcome == source.Bought {
		result = s.Result
	}
	e.SettledLater = true
	// The earlier-purchase check that follows reads this line back: unwritten, an
	// interrupted purchase that went through would not stop a second one.
	if err := sv.journalOutcome(e, s.Outcome, s.Outcome == source.Bought, result, nil); err != nil {
		return s, fmt.Errorf("its outcome could not be written to the journal: %w", err)
	}
	return s, nil
}

// ExtensionSince is the first extension of block b that the journal shows intended at or
// after since (the decision that led to it), and its final outcome line, nil while it is
// open. found is false when none was intended since: nothing was sent.
func (sv *Service) ExtensionSince(b model.Block, since time.Time) (intent source.JournalEntry, outcome *source.JournalEntry, found bool, err error) {
	entries, _, err := sv.c.Journal()
	if err != nil {
		return intent, nil, false, err
	}
	action := sv.extendAction(b.Source)
	ofBlock := func(e source.JournalEntry) bool {
		return e.Action == action && e.Region == b.Region && e.Target != "" && (e.Target == b.ReservationID || e.Target == b.ARN)
	}
	for _, e := range entries {
		if e.Phase == "intent" && ofBlock(e) && !e.Time.Before(since) {
			intent, found = e, true
			break
		}
	}
	if !found {
		return intent, nil, false, nil
	}
	for _, e := range entries {
		if e.Phase == "outcome" && e.RequestID == intent.RequestID && e.Outcome != string(source.Unknown) {
			outcome = &e
		}
	}
	return intent, outcome, true, nil
}

func (sv *Service) settleOne(ctx context.Context, e source.JournalEntry) (source.Settled, error) {
	is, _ := sv.intentSourceOf(e.Action)
	s, err := is.Settle(ctx, e)
	s.Intent, s.By = e, is
	if s.Outcome != source.Bought {
		s.Outcome = source.NotBought
	}
	return s, err
}

// unsettled is the refusal to spend while an intent cannot be settled.
func (sv *Service) unsettled(region string, e *source.JournalEntry, err error) error {
	where := "this region"
	if region != "" {
		where = region
	}
	what := "An earlier purchase or extension"
	if e != nil {
		var noun string
		if is, ok := sv.intentSourceOf(e.Action); ok {
			noun = "purchase"
			if e.Action == is.Extend {
				noun = "extension"
			}
			if is.Source != model.SourceCapacityBlock {
				noun = is.Noun + " " + noun
			}
		}
		what = fmt.Sprintf("An earlier %s (journal id %s, %s)", noun, e.RequestID, e.Time.UTC().Format(model.LayoutMinuteUTC))
	}
	return &source.ActionError{Outcome: source.NotBought, Err: fmt.Errorf("%w: %w", ErrUnsettled, err), Explanation: source.Explanation{
		Summary: fmt.Sprintf("Refused: %s in %s was interrupted, and whether it went through cannot be learnt now (%s).",
			what, where, strings.TrimSuffix(awsapi.ExplainError(err).Summary, ".")),
		Hint: "Nothing was sent to buy. Settle it first: " + sv.c.SettleCommand(region) + "; it asks AWS and records what it finds.",
	}}
}

// EarlierPurchase is the outcome line of a purchase that an interrupted run made and a
// later run settled as bought, for the same offering or the same zone, type, count and
// window as o: buying o would buy that block a second time.
func (sv *Service) EarlierPurchase(o model.Offering) (source.JournalEntry, bool) {
	entries, _, err := sv.c.Journal()
	if err != nil {
		return source.JournalEntry{}, false
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Phase != "outcome" || !e.SettledLater || e.Outcome != string(source.Bought) || e.Action != sv.purchaseAction(o.Source) || e.Region != o.Region {
			continue
		}
		if o.ID != "" && e.Offering == o.ID {
			return atIntent(entries, e), true
		}
		// A plan's journal line holds its first part's count, which the offering's Count
		// (its largest part's) may not be: its zone, type and window identify it enough.
		sameCount := e.Count == o.Count || o.Source != model.SourceCapacityBlock
		if e.Zone == o.AvailabilityZone && e.Type == o.InstanceType && sameCount &&
			e.Start != nil && e.End != nil && e.Start.Equal(o.Start) && e.End.Equal(o.End) {
			return atIntent(entries, e), true
		}
	}
	return source.JournalEntry{}, false
}

// EarlierExtension is the outcome line of an extension of b by hours that an interrupted
// run made and a later run settled as bought, while b still ends where that extension
// started (its payment pending) or ended: extending again would add the time twice.
func (sv *Service) EarlierExtension(b model.Block, hours int) (source.JournalEntry, bool) {
	entries, _, err := sv.c.Journal()
	if err != nil {
		return source.JournalEntry{}, false
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		target := e.Target == b.ReservationID || (b.ARN != "" && e.Target == b.ARN)
		if e.Phase != "outcome" || !e.SettledLater || e.Outcome != string(source.Bought) || e.Action != sv.extendAction(b.Source) ||
			!target || e.DurationHours() != hours || e.Start == nil || e.End == nil {
			continue
		}
		if b.End.Equal(*e.Start) || b.End.Equal(*e.End) {
			return atIntent(entries, e), true
		}
	}
	return source.JournalEntry{}, false
}

// AlreadyBoughtError is the refusal, wrapping source.ErrAlreadyBought, to buy again what the
// interrupted run of e (an outcome line from EarlierPurchase or EarlierExtension) bought.
func (sv *Service) AlreadyBoughtError(e source.JournalEntry) error {
	if sv.isExtendAction(e.Action) {
		return sv.alreadyBought(e, "extend by", "--again")
	}
	return sv.alreadyBought(e, "buy", "--again")
}

// atIntent is an outcome line with the time of its intent: when the interrupted attempt
// was made, not when it was settled.
func atIntent(entries []source.JournalEntry, outcome source.JournalEntry) source.JournalEntry {
	for _, e := range entries {
		if e.Phase == "intent" && e.RequestID == outcome.RequestID {
			outcome.Time = e.Time
			break
		}
	}
	return outcome
}

// alreadyBought is the refusal to buy again what an interrupted run bought.
func (sv *Service) alreadyBought(e source.JournalEntry, what, flag string) *source.ActionError {
	fee := e.Fee
	if m, err := model.ParseMoney(fee); err == nil {
		fee = m.Dollars()
	}
	as := "reservation"
	if is, ok := sv.intentSourceOf(e.Action); ok && is.Source != model.SourceCapacityBlock {
		as = is.Noun
	}
	result := e.Result
	if ids := e.ResultIDs(); len(ids) > 1 {
		// One purchase of a segmented offering: every reservation it made is named.
		as, result = fmt.Sprintf("%d reservations", len(ids)), strings.Join(ids, ", ")
	}
	summary := fmt.Sprintf("Already bought: the purchase interrupted at %s went through as %s %s (fee %s). Nothing new was bought.",
		e.Time.UTC().Format(model.LayoutMinuteUTC), as, result, fee)
	if sv.isExtendAction(e.Action) {
		summary = fmt.Sprintf("Already extended: the extension of %s interrupted at %s went through (%s added, fee %s). Nothing new was bought.",
			e.Target, e.Time.UTC().Format(model.LayoutMinuteUTC), model.FormatDays(max(1, e.DurationHours()/24)), fee)
	}
	return &source.ActionError{Outcome: source.NotBought, Err: source.ErrAlreadyBought, Explanation: source.Explanation{
		Summary: summary, Hint: "To " + what + " another one on purpose, run the command again with " + flag + "."}}
}

// SpendOption changes one purchase or extension.
type SpendOption func(*spendOptions)

type spendOptions struct{ again bool }

// Again allows buying what an interrupted run already bought (a second block or
// extension, on purpose).
func Again() SpendOption { return func(o *spendOptions) { o.again = true } }

func spendOpts(opts []SpendOption) spendOptions {
	var o spendOptions
	for _, f := range opts {
		f(&o)
	}
	return o
}

// LaunchFound writes the outcome line of the launch requestID (its client token) that a
// stopped run left without one, now that AWS lists the instances it started under that
// token: "launched", settled later. A launch whose outcome the journal has is left as it is.
func (sv *Service) LaunchFound(requestID string, instances []string) error {
	entries, _, err := sv.c.Journal()
	if err != nil {
		return err
	}
	var intent *source.JournalEntry
	for _, e := range entries {
		if e.RequestID != requestID {
			continue
		}
		switch {
		case e.Phase == "intent" && intent == nil:
			intent = &e
		case e.Phase == "outcome" && e.Outcome != string(source.Unknown):
			return nil
		}
	}
	if intent == nil {
		return nil // killed before its intent line: nothing was sent under it by this run
	}
	e := *intent
	e.SettledLater = true
	return sv.journalOutcome(e, "launched", false, strings.Join(instances, ","), nil)
}
