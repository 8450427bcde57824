package autoextend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Action is the journal action of a decision (phase "decision"): the spend path's own
// intent and outcome lines follow it when it extends.
const Action = "AutoExtend"

// The notification kinds of the decisions and their outcomes.
const (
	KindExtended = "auto-extended"
	KindDeclined = "auto-extend-declined"
	KindFailed   = "auto-extend-failed"
	KindApproval = "auto-extend-approval"
	// KindCannotAct is a watcher's that may not spend what the policy would extend: the
	// decision is left open for one that may.
	KindCannotAct = "auto-extend-not-decided"
)

// Recorder records the decisions made through one client, and notifies them through n
// (nil: nowhere); say, when set, is told each notification's text too (a command's
// stderr).
type Recorder struct {
	c   *awsapi.Client
	n   *notify.Notifier
	say func(string)

	mu sync.Mutex
	// mine are the decisions this process made, kept even when they could not be
	// recorded: it decides each once, whatever the disk says.
	mine map[string]Record
}

// New is the recorder of c's state directory.
func New(c *awsapi.Client, n *notify.Notifier, say func(string)) *Recorder {
	return &Recorder{c: c, n: n, say: say, mine: map[string]Record{}}
}

func (r *Recorder) store() (Store, error) { return StoreOf(r.c) }

// StoreOf is the decisions of the client's backend and account.
func StoreOf(c *awsapi.Client) (Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := c.StateStore(ctx)
	if err != nil {
		return Store{}, err
	}
	return StoreIn(st), nil
}

// decided are the decisions of r's backend: the journal's lines, the records beside it
// (which also say what became of an extension) and this process's own.
func (r *Recorder) decided(rs []Record) (map[string]Record, error) {
	entries, _, err := r.c.Journal()
	if err != nil {
		return nil, fmt.Errorf("the journal cannot be read: %w", err)
	}
	out := map[string]Record{}
	for _, e := range entries {
		if e.Phase == "decision" && e.Action == Action {
			out[e.Key] = Record{Key: e.Key, ReservationID: e.Target, Region: e.Region, Step: source.AutoExtendStep(e.Outcome),
				Reason: e.Error, DecidedAt: e.Time}
		}
	}
	for _, x := range rs {
		if x.Cloud == r.c.Cloud() {
			out[x.Key] = x
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, x := range r.mine {
		if _, ok := out[k]; !ok {
			out[k] = x
		}
	}
	for k, x := range out {
		if x.Step == source.AutoExtendReopened {
			delete(out, k) // open again
		}
	}
	return out, nil
}

// Due are the asks of policy p on blocks at now that no gpublock on this machine has
// decided. It takes no lock: what it says may be decided by another before the ask is
// answered, which recording the answer finds out (ErrAutoExtendDecided).
func (r *Recorder) Due(p model.AutoExtendPolicy, blocks []model.Block, now time.Time) ([]source.AutoExtendAsk, error) {
	if p.Days <= 0 {
		return nil, nil
	}
	st, err := r.store()
	if err != nil {
		return nil, err
	}
	rs, err := st.List()
	if err != nil {
		return nil, err
	}
	dec, err := r.decided(rs)
	if err != nil {
		return nil, err
	}
	keys := keysOf(dec)
	var out []source.AutoExtendAsk
	for _, b := range blocks {
		if d := p.Decide(b, now, keys); d.Verdict != model.AutoExtendNotYet {
			out = append(out, source.AutoExtendAsk{AutoExtendDecision: d, Block: b, Days: p.Days})
		}
	}
	return out, nil
}

func keysOf(dec map[string]Record) map[string]bool {
	keys := make(map[string]bool, len(dec))
	for k := range dec {
		keys[k] = true
	}
	return keys
}

// Decide records step o of ask under the lock, now being the backend's time; a decision
// already recorded is refused (ErrAutoExtendDecided). The outcome of an extension is
// notified even when it cannot be recorded: the extension happened, or failed, anyway.
func (r *Recorder) Decide(ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) error {
	var err error
	terr := r.turn(false, func(t *Turn) { err = t.Record(ask, o, now) })
	if terr != nil {
		if !o.Step.Decision() {
			r.notifyOutcome(ask, o, now)
		}
		return terr
	}
	return err
}

// Turn is one watcher's turn at deciding, holding the lock: the decisions it reads are
// every gpublock's until it ends.
type Turn struct {
	r *Recorder
	// buys is true in a watcher's turn, which buys what it decides before it ends.
	buys bool
	rs   []Record
	save func([]Record) error
	dec  map[string]Record
	keys map[string]bool
}

// Turn runs f holding the lock, the decisions read; f may buy what it decides before it
// returns (blocks --watch does), and whoever decides next waits for it. Its error is why
// the decisions could not be read, and f was not run.
func (r *Recorder) Turn(f func(*Turn)) error { return r.turn(true, f) }

func (r *Recorder) turn(buys bool, f func(*Turn)) error {
	st, err := r.store()
	if err != nil {
		return err
	}
	return st.Update(func(rs []Record, save func([]Record) error) error {
		dec, err := r.decided(rs)
		if err != nil {
			return err
		}
		f(&Turn{r: r, buys: buys, rs: rs, save: save, dec: dec, keys: keysOf(dec)})
		return nil
	})
}

// Taken are the decisions to extend of this backend whose outcome is not recorded: the
// extension is being bought, or the gpublock buying it was stopped (the outcome is then
// found from the journal and AWS, and recorded with Record).
func (t *Turn) Taken() []Record {
	var out []Record
	for _, x := range t.rs {
		if x.Step == source.AutoExtendTaken && x.Cloud == t.r.c.Cloud() {
			out = append(out, x)
		}
	}
	return out
}

// Ask is the ask that x decided, on its block b as listed now.
func (x Record) Ask(b model.Block) source.AutoExtendAsk {
	var lead time.Duration
	if ls, err := model.ParseWarnLeads(x.Lead); err == nil && len(ls) == 1 {
		lead = ls[0]
	}
	return source.AutoExtendAsk{Block: b, Days: x.Hours / 24,
		AutoExtendDecision: model.AutoExtendDecision{Verdict: model.AutoExtendNow, Key: x.Key, Lead: lead}}
}

// Decided are the keys decided, for model.AutoExtendPolicy.Decide; those recorded in the
// turn are added.
func (t *Turn) Decided() map[string]bool { return t.keys }

// Record records step o of ask, now being the backend's time. A decision (taken,
// declined) already recorded is refused with an error wrapping
// source.ErrAutoExtendDecided. Otherwise its error says what could not be written:
// a decision taken must then not be acted on.
func (t *Turn) Record(ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) error {
	if !o.Step.Decision() {
		return t.outcome(ask, o, now)
	}
	if prev, ok := t.dec[ask.Key]; ok {
		return decidedError(ask, prev)
	}
	off := o.Extension
	rec := Record{Key: ask.Key, ReservationID: ask.Block.ReservationID, Region: ask.Block.Region, Account: ask.Block.Account,
		Lead: leadWords(ask.Lead), Step: o.Step, Reason: source.Redact(o.Reason), Hours: days(ask, off) * 24,
		Cloud: t.r.c.Cloud(), DecidedAt: time.Now().UTC()}
	rec.InTurn = t.buys && o.Step == source.AutoExtendTaken
	if off.ID != "" {
		rec.Offering, rec.Fee, rec.NewEnd = off.ID, off.Fee.String(), off.End.UTC()
	}
	t.r.mu.Lock()
	t.r.mine[ask.Key] = rec
	t.r.mu.Unlock()
	t.dec[ask.Key], t.keys[ask.Key] = rec, true
	// A key reopened keeps its one record, which this decision replaces.
	if i := t.index(ask.Key); i >= 0 {
		t.rs = slices.Delete(t.rs, i, i+1)
	}

	b := ask.Block
	e := source.JournalEntry{Time: rec.DecidedAt, Phase: "decision", Action: Action, Key: ask.Key, Account: b.Account, Region: b.Region,
		Zone: b.AvailabilityZone, Type: b.InstanceType, Count: b.TotalCount, Target: b.ReservationID, Hours: rec.Hours,
		Outcome: string(o.Step), Error: rec.Reason}
	if off.ID != "" {
		e.Offering, e.Fee, e.Currency, e.End = off.ID, off.Fee.String(), off.Currency, &off.End
	}
	// The record first: a gpublock stopped after it and before the journal's line leaves a
	// decision the next turn finds (Taken) and settles or reopens; one known only from the
	// journal would stay taken for good.
	// Without its record, no journal line either: the decision is then this process's
	// alone (mine), and open for the others.
	var errs []error
	t.rs = append(t.rs, rec)
	if err := t.save(t.rs); err != nil {
		errs = append(errs, fmt.Errorf("the record of decisions cannot be written: %w", err))
	} else if err := t.r.c.WriteJournal(e); err != nil {
		errs = append(errs, fmt.Errorf("the journal cannot be written: %w", err))
	}
	if ev, ok := eventOf(ask, o, now); ok {
		t.r.notify(ev)
	}
	return errors.Join(errs...)
}

// index is the position of key's record of this backend in the turn's records, -1 when
// there is none.
func (t *Turn) index(key string) int {
	return slices.IndexFunc(t.rs, func(x Record) bool { return x.Key == key && x.Cloud == t.r.c.Cloud() })
}

// Reopen records that the decision x to extend was never acted on (its gpublock stopped
// before it sent anything: no intent in the journal), so that the ask is open again and
// is decided anew, by this turn or the next. why is said in the journal's line.
func (t *Turn) Reopen(x Record, why string) error {
	i := t.index(x.Key)
	if i < 0 || t.rs[i].Step != source.AutoExtendTaken {
		return nil
	}
	t.rs[i].Step, t.rs[i].Reason, t.rs[i].UpdatedAt = source.AutoExtendReopened, source.Redact(why), time.Now().UTC()
	t.r.mu.Lock()
	delete(t.r.mine, x.Key)
	t.r.mu.Unlock()
	delete(t.dec, x.Key)
	delete(t.keys, x.Key)
	var errs []error
	if err := t.r.c.WriteJournal(source.JournalEntry{Time: time.Now().UTC(), Phase: "decision", Action: Action, Key: x.Key,
		Account: x.Account, Region: x.Region, Target: x.ReservationID, Outcome: string(source.AutoExtendReopened), Error: t.rs[i].Reason}); err != nil {
		errs = append(errs, fmt.Errorf("the journal cannot be written: %w", err))
	}
	if err := t.save(t.rs); err != nil {
		errs = append(errs, fmt.Errorf("the record of decisions cannot be written: %w", err))
	}
	return errors.Join(errs...)
}

// outcome records and notifies what became of an extension taken.
func (t *Turn) outcome(ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) error {
	i := t.index(ask.Key)
	if i < 0 {
		// Decided before this file was kept (the journal has it): its outcome is kept anyway.
		t.rs = append(t.rs, Record{Key: ask.Key, ReservationID: ask.Block.ReservationID, Region: ask.Block.Region,
			Account: ask.Block.Account, Lead: leadWords(ask.Lead), Cloud: t.r.c.Cloud(), DecidedAt: time.Now().UTC()})
		i = len(t.rs) - 1
	}
	x := &t.rs[i]
	x.Step, x.Reason, x.UpdatedAt = o.Step, source.Redact(o.Reason), time.Now().UTC()
	if o.RequestID != "" {
		x.RequestID = o.RequestID
	}
	if off := o.Extension; off.ID != "" {
		x.Offering, x.Fee, x.Hours, x.NewEnd = off.ID, off.Fee.String(), off.DurationHours, off.End.UTC()
	}
	t.dec[ask.Key] = *x
	err := t.save(t.rs)
	t.r.notifyOutcome(ask, o, now)
	if err != nil {
		return fmt.Errorf("the record of decisions cannot be written: %w", err)
	}
	return nil
}

// notifyOutcome notifies an extension bought or failed.
func (r *Recorder) notifyOutcome(ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) {
	if ev, ok := eventOf(ask, o, now); ok {
		r.notify(ev)
	}
}

// eventOf is the notification of step o of ask: a decline, an extension bought or failed;
// false for a step that is not notified.
func eventOf(ask source.AutoExtendAsk, o source.AutoExtendOutcome, now time.Time) (notify.Event, bool) {
	id := ask.Block.ReservationID
	switch o.Step {
	case source.AutoExtendDeclined:
		ev := Event(ask, o.Extension, now, KindDeclined, "gpublock: AUTO-EXTEND DECLINED "+id+": "+strings.TrimSuffix(o.Reason, ".")+". Nothing was extended.")
		ev.Reason = source.Redact(o.Reason)
		return ev, true
	case source.AutoExtendExtended:
		text := "gpublock: AUTO-EXTENDED " + id + ": " + ExtensionWords(ask.Block, o.Extension)
		if o.RequestID != "" {
			text += " (journal id " + o.RequestID + ")"
		}
		return Event(ask, o.Extension, now, KindExtended, text), true
	case source.AutoExtendFailed:
		ev := Event(ask, o.Extension, now, KindFailed, "gpublock: AUTO-EXTEND FAILED "+id+": "+o.Reason)
		ev.Reason = source.Redact(o.Reason)
		return ev, true
	}
	return notify.Event{}, false
}

// renotifyWithin is how long after a decision or its outcome its notification is sent
// again while the notifier's record says it was not delivered: a target set up later does
// not get the old ones.
const renotifyWithin = 24 * time.Hour

// Renotify sends again, through the notifier, the notification of every decline and
// outcome recorded for the blocks listed: the notifier's own record sends each once, and
// one that a gpublock stopped before delivering (kill -9 after it recorded the outcome) is
// delivered now. Nothing is said on stderr: it was said when it happened.
func (t *Turn) Renotify(blocks []model.Block, now time.Time) {
	for _, x := range t.rs {
		last := x.DecidedAt
		if x.UpdatedAt.After(last) {
			last = x.UpdatedAt
		}
		if x.Cloud != t.r.c.Cloud() || x.Step.Decision() && x.Step != source.AutoExtendDeclined || time.Since(last) > renotifyWithin {
			continue
		}
		i := slices.IndexFunc(blocks, func(b model.Block) bool { return b.ReservationID == x.ReservationID && b.Region == x.Region })
		if i < 0 {
			continue
		}
		if ev, ok := eventOf(x.Ask(blocks[i]), x.outcome(), now); ok {
			t.r.n.Send(ev)
		}
	}
}

// outcome is the step x records, as Record was given it.
func (x Record) outcome() source.AutoExtendOutcome {
	off := model.ExtensionOffering{ID: x.Offering, ReservationID: x.ReservationID, DurationHours: x.Hours, End: x.NewEnd}
	off.Fee, _ = model.ParseMoney(x.Fee)
	return source.AutoExtendOutcome{Step: x.Step, Reason: x.Reason, Extension: off, RequestID: x.RequestID}
}

// notify says e and sends it, once per key, as the warnings are sent.
func (r *Recorder) notify(e notify.Event) {
	if r.say != nil {
		r.say(strings.TrimPrefix(e.Text, "gpublock: "))
	}
	r.n.Send(e)
}

// Event is a decision on ask, or its outcome, as the notify and approval commands and the
// webhook get it: off is the extension looked up, when it was. Its key is the ask's and
// the kind's, so it is sent once.
func Event(ask source.AutoExtendAsk, off model.ExtensionOffering, now time.Time, kind, text string) notify.Event {
	e := notify.EventOf(ask.Block, model.Warning{Kind: model.WarnExtendBy, Lead: ask.Lead}, now)
	e.Kind, e.Warning, e.Text, e.Key = kind, kind, text, ask.Key+"/"+kind
	e.Length = model.FormatDays(days(ask, off))
	if off.ID != "" {
		e.Fee, e.NewEnd = off.Fee.String(), off.End.UTC()
	}
	return e
}

// ExtensionWords are what an extension adds, costs and makes the end.
func ExtensionWords(b model.Block, off model.ExtensionOffering) string {
	return fmt.Sprintf("%s in %s, %s added for %s, new end %s", b.InstanceType, b.Region, model.FormatDays(off.DurationHours/24), off.Fee.Dollars(), off.End.UTC().Format(model.LayoutMinuteZone))
}

// days is the length decided: the extension's once it is known (a person may choose
// another than the policy's), the policy's before.
func days(ask source.AutoExtendAsk, off model.ExtensionOffering) int {
	if off.DurationHours > 0 {
		return off.DurationHours / 24
	}
	return ask.Days
}

func leadWords(l time.Duration) string { return model.FormatWarnLeads([]time.Duration{l}) }

// decidedError is the refusal to decide ask again, saying what was decided.
func decidedError(ask source.AutoExtendAsk, prev Record) error {
	what := "extended"
	switch prev.Step {
	case source.AutoExtendDeclined:
		what = "declined"
	case source.AutoExtendFailed:
		what = "to be extended, and the extension failed"
	case source.AutoExtendTaken:
		what = "to be extended"
	}
	if prev.Reason != "" {
		what += " (" + strings.TrimSuffix(prev.Reason, ".") + ")"
	}
	when := ""
	if !prev.DecidedAt.IsZero() {
		when = ", at " + prev.DecidedAt.UTC().Format(model.LayoutMinuteZone)
	}
	return decided(fmt.Sprintf("the auto-extension of %s at its %s lead was decided already on this machine%s: %s",
		ask.Block.ReservationID, leadWords(ask.Lead), when, what))
}

// decided is the refusal to decide again, in its own words: it is
// source.ErrAutoExtendDecided.
type decided string

func (e decided) Error() string        { return string(e) }
func (e decided) Is(target error) bool { return target == source.ErrAutoExtendDecided }

// Records are the decisions recorded beside the journal of c, of c's backend, by key.
func Records(c *awsapi.Client) (map[string]Record, error) {
	st, err := StoreOf(c)
	if err != nil {
		return nil, err
	}
	rs, err := st.List()
	if err != nil {
		return nil, err
	}
	out := map[string]Record{}
	for _, x := range rs {
		if x.Cloud == c.Cloud() {
			out[x.Key] = x
		}
	}
	return out, nil
}
