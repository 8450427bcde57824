package orders

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// DefaultLease is how long a claim keeps other gpublocks from buying for an order. A
// purchase, its dry run and its look-up take seconds; a claimant that died is settled from
// AWS by its request tag once the lease is over.
const DefaultLease = 10 * time.Minute

// DefaultSearchEvery is the least time, on the backend's clock, between two searches for
// one order by the watchers sharing a store: an order's search is a few calls per region,
// type and length, from the request buckets (10 calls, 0.15 a second, per region) every
// other search draws on too.
const DefaultSearchEvery = 5 * time.Minute

// DemoSearchEvery is DefaultSearchEvery on the built-in simulator of --demo, whose market is
// in the process and, once an order is open, gets cheaper every minute: less than the rounds of a watcher or the
// TUI (30 seconds by default), so that each round searches.
const DemoSearchEvery = 20 * time.Second

// Step is a point of a fill where a process may die; Filler.Stop is asked at each, and
// tests stop there as a kill -9 would.
type Step string

const (
	StepSearch   Step = "search"   // before the search
	StepApproval Step = "approval" // before the approval command
	StepPurchase Step = "purchase" // claimed and prepared, before the purchase call
	StepReplied  Step = "replied"  // the purchase answered, before the order records it
)

// ErrStopped is what a fill stopped at a Step returns.
var ErrStopped = errors.New("stopped")

// Filler fills orders through one client's sources and spend path.
type Filler struct {
	Client  *awsapi.Client
	Sources []source.Source
	Spend   *spend.Service
	Book    Book
	// Owner names this gpublock in its claims (host and process by default).
	Owner string
	Lease time.Duration // 0: DefaultLease
	// Clock is the claimants' clock (this machine's; nil: time.Now). Expiry and search
	// windows are read on the backend's clock (the emulator's may run fast).
	Clock func() time.Time
	// Notify sends an order's fill and refusal (nil: nowhere).
	Notify func(notify.Event)
	// Say is told what a round did, a sentence at a time (nil: nothing).
	Say func(string)
	// Stop, when set, is asked at each Step; true stops the fill there, leaving the order
	// as a killed process leaves it.
	Stop func(id string, s Step) bool
	// Then does what an order asks once bought (nil: nothing besides the notification).
	Then func(ctx context.Context, o model.Order, blocks []model.Block) error
	// SearchEvery is the least time, on the backend's clock, between two searches for one
	// order by any gpublock sharing the store (0: every round): orders share AWS's request
	// buckets with every other search.
	SearchEvery time.Duration
	// WhenOpen, when set, is called once in a round that finds an open order, before its
	// fill (the demo starts its market's price drop).
	WhenOpen func(ctx context.Context)
}

func (f *Filler) now() time.Time {
	if f.Clock != nil {
		return f.Clock()
	}
	return time.Now()
}

func (f *Filler) lease() time.Duration {
	if f.Lease > 0 {
		return f.Lease
	}
	return DefaultLease
}

func (f *Filler) owner() string {
	if f.Owner != "" {
		return f.Owner
	}
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}

// ownerGone reports whether the claimant owner (host/pid, as owner names one) was a
// process of this machine that is gone (killed, crashed): its claim is settled at once
// rather than after its lease. Another machine's claim waits for its lease.
func ownerGone(owner string) bool {
	host, pidText, ok := strings.Cut(owner, "/")
	if !ok {
		return false
	}
	me, err := os.Hostname()
	pid, perr := strconv.Atoi(pidText)
	if err != nil || perr != nil || host != me || pid <= 0 || pid == os.Getpid() {
		return false
	}
	return processGone(pid)
}

func (f *Filler) say(format string, args ...any) {
	if f.Say != nil {
		f.Say(source.Redact(fmt.Sprintf(format, args...)))
	}
}

func (f *Filler) stop(id string, s Step) bool { return f.Stop != nil && f.Stop(id, s) }

// FillAll runs one round over every order that may still buy: each is settled, expired,
// searched for or bought. One order's failure does not stop the others.
func (f *Filler) FillAll(ctx context.Context) error {
	os, err := f.Book.List()
	if err != nil {
		return err
	}
	var errs []error
	told := false
	for _, o := range os {
		if ctx.Err() != nil {
			break
		}
		if !o.State.Live() && !(o.State == model.OrderFilled && o.Filled != nil && !o.Filled.ThenDone) {
			continue
		}
		if f.WhenOpen != nil && o.State == model.OrderOpen && !told {
			f.WhenOpen(ctx)
			told = true
		}
		if _, err := f.Fill(ctx, o.ID); err != nil && !errors.Is(err, ErrStopped) {
			errs = append(errs, fmt.Errorf("order %s: %w", o.ID, err))
		}
	}
	return errors.Join(errs...)
}

// Fill runs one round of order id and returns it as it is after.
func (f *Filler) Fill(ctx context.Context, id string) (model.Order, error) {
	o, err := f.Book.Get(id)
	if err != nil {
		return o, err
	}
	if o.State == model.OrderFilled {
		return f.then(ctx, o)
	}
	if !o.State.Live() {
		return o, nil
	}
	if o.Claim != nil {
		if o.Claim.Owner != f.owner() && o.Claim.Live(f.now()) && !ownerGone(o.Claim.Owner) {
			return o, nil // another gpublock is buying for it
		}
		// A claim of this gpublock's, or of one whose lease ran out: what its purchase did
		// is learnt from AWS before anything else.
		var open bool
		if o, open, err = f.settleClaim(ctx, o); err != nil || !open {
			return o, err
		}
	}
	now := f.Client.Now(ctx)
	// An order whose window can no longer hold its shortest block can never be filled.
	shortest := time.Duration(o.Query.Durations.MinDays) * 24 * time.Hour
	if !now.Before(o.Expires) || o.Query.End.Sub(now) < shortest {
		why := "expired at " + o.Expires.UTC().Format(model.LayoutMinuteZone) + " with nothing bought"
		if now.Before(o.Expires) {
			why = "its window, to " + o.Query.End.UTC().Format(model.LayoutMinuteZone) + ", can no longer hold a " + model.FormatDays(o.Query.Durations.MinDays) + " block; nothing was bought"
		}
		return f.change(o.ID, func(o *model.Order) error {
			if o.State != model.OrderOpen || o.Claim != nil {
				return errUnchanged
			}
			o.State, o.Closed, o.Why = model.OrderExpired, now.UTC(), why
			return nil
		})
	}
	if f.SearchEvery > 0 && !o.LastSearch.IsZero() && now.Sub(o.LastSearch) < f.SearchEvery {
		return o, nil // searched lately, here or by another watcher
	}
	if f.stop(id, StepSearch) {
		return o, ErrStopped
	}
	offs, searchErr := f.search(ctx, o, now)
	if ctx.Err() != nil {
		return o, ctx.Err()
	}
	pick := model.PickForOrder(offs, o.Ceiling, o.MaxSpend)
	why := pick.Why
	if searchErr != nil && !pick.Within {
		why = strings.TrimSuffix(why, ".") + "; the search failed in part: " + source.RedactError(searchErr)
	}
	if pick.Within && f.Client.Config().ReadOnly {
		why = "an offering is within the ceiling, but " + model.ReadOnlyRefusal(f.Client.Config().ReadOnlyRule, "bought")
	}
	o, err = f.change(o.ID, func(o *model.Order) error {
		if o.State != model.OrderOpen || o.Claim != nil {
			return errClaimed
		}
		o.LastSearch, o.Seen, o.Best = now.UTC(), len(offs), nil
		if pick.Any {
			seen := model.SeenOf(pick.Best, pick.Within && pick.Best.ID == pick.Buy.ID)
			if pick.Within {
				seen = model.SeenOf(pick.Buy, true)
			}
			o.Best = &seen
		}
		o.Why = why
		return nil
	})
	if err != nil {
		return o, ignoreClaimed(err)
	}
	if !pick.Within || f.Client.Config().ReadOnly {
		return o, nil
	}
	return f.buy(ctx, o, pick.Buy, now)
}

// errClaimed: another gpublock claimed or closed the order meanwhile.
var errClaimed = errors.New("claimed by another gpublock")

func ignoreClaimed(err error) error {
	if errors.Is(err, errClaimed) {
		return nil
	}
	return err
}

func (f *Filler) change(id string, fn func(o *model.Order) error) (model.Order, error) {
	return f.Book.change(id, fn)
}

// search runs the order's search once, at now: its window from now on.
func (f *Filler) search(ctx context.Context, o model.Order, now time.Time) ([]model.Offering, error) {
	q := o.Query
	if q.Start.Before(now) {
		q.Start = now
	}
	ch, _, err := source.Search(ctx, f.Sources, q)
	if err != nil {
		return nil, err
	}
	var offs []model.Offering
	var failed []string
	for ev := range ch {
		if ev.CachedAt.IsZero() {
			offs = append(offs, ev.Offerings...)
		}
		if st := ev.Status; st != nil && st.State == model.RegionError {
			failed = append(failed, st.Region)
		}
	}
	if len(failed) > 0 {
		return offs, fmt.Errorf("%s did not answer", strings.Join(failed, ", "))
	}
	return offs, nil
}

// buy asks the approval command about off, claims the order, and buys off through the
// spend path under the claim's request tag.
func (f *Filler) buy(ctx context.Context, o model.Order, off model.Offering, now time.Time) (model.Order, error) {
	src, ok := source.BySource(f.Sources, off.Source)
	if !ok {
		return o, fmt.Errorf("no source for %s", off.Source.Plural())
	}
	if f.stop(o.ID, StepApproval) {
		return o, ErrStopped
	}
	// Asked outside every lock: a slow command must not hold the other watchers up.
	if o.ApproveCmd != "" {
		ok, why := notify.Approve(ctx, o.ApproveCmd, approvalEvent(o, off, now), notify.ApproveTimeout)
		if ctx.Err() != nil {
			return o, ctx.Err()
		}
		if !ok {
			return f.refused(o, off, why, now)
		}
	}
	claim := &model.OrderClaim{Owner: f.owner(), Until: f.now().Add(f.lease()).UTC(), RequestID: awsapi.NewRequestID(), Offering: model.SeenOf(off, true)}
	o, err := f.change(o.ID, func(o *model.Order) error {
		if o.State != model.OrderOpen || o.Claim != nil {
			return errClaimed
		}
		o.State, o.Claim = model.OrderFilling, claim
		return nil
	})
	if err != nil {
		return o, ignoreClaimed(err)
	}
	in := source.Intent{Kind: source.SpendPurchase, Offering: off, Tags: orderTags(o), RequestID: claim.RequestID,
		Lookup: f.askFresh(o, src, off)}
	p, err := f.Spend.Prepare(ctx, src, in)
	if err == nil && p.PayerErr != nil {
		err = p.PayerErr
	}
	if err != nil {
		return f.release(o, claim, "not bought: "+f.Client.ExplainError(err).String())
	}
	if f.stop(o.ID, StepPurchase) {
		return o, ErrStopped
	}
	// The lease is renewed just before the call, so that the one who buys holds it for the
	// whole of the call and its look-up after a lost reply.
	if o, err = f.change(o.ID, func(o *model.Order) error {
		if o.Claim == nil || o.Claim.RequestID != claim.RequestID {
			return errClaimed
		}
		o.Claim.Until = f.now().Add(f.lease()).UTC()
		return nil
	}); err != nil {
		return o, ignoreClaimed(err)
	}
	res, err := f.Spend.Commit(ctx, p)
	if f.stop(o.ID, StepReplied) {
		return o, ErrStopped
	}
	var ae *source.ActionError
	switch {
	case err == nil:
		blocks := res.Blocks
		if len(blocks) == 0 && res.Block.ReservationID != "" {
			blocks = []model.Block{res.Block}
		}
		fill := model.OrderFill{RequestID: res.RequestID, Offering: model.SeenOf(p.Intent.Offering, true), At: f.Client.Now(ctx).UTC(), Recovered: res.Recovered}
		for _, b := range blocks {
			fill.Reservations = append(fill.Reservations, b.ReservationID)
		}
		o, err = f.filled(o.ID, claim.RequestID, fill)
		if err != nil {
			return o, err
		}
		return f.thenWith(ctx, o, blocks)
	case errors.As(err, &ae) && ae.Outcome == source.Unknown:
		// The claim stays: the next round settles it from AWS by its request tag.
		return f.change(o.ID, func(o *model.Order) error {
			o.Why = "outcome unknown, settled from AWS by its request tag on the next round: " + f.Client.ExplainError(err).String()
			return nil
		})
	}
	return f.release(o, claim, "not bought: "+f.Client.ExplainError(err).String())
}

// askFresh is the purchase's look-up: the offering asked of AWS again, and bought only if
// it is still within the order's ceiling and cap and costs no more than when picked (and
// approved).
func (f *Filler) askFresh(o model.Order, src source.Source, picked model.Offering) func(ctx context.Context, in *source.Intent) error {
	return func(ctx context.Context, in *source.Intent) error {
		if ask := src.Intents().AskAgain; ask != nil {
			if err := ask(ctx, in); err != nil {
				return err
			}
		} else {
			q := o.Query
			q.Regions = []string{picked.Region}
			if now := f.Client.Now(ctx); q.Start.Before(now) {
				q.Start = now
			}
			fresh, _, err := awsapi.FindByID(ctx, func(ctx context.Context) <-chan source.SearchEvent { return src.Search(ctx, q) },
				func(o model.Offering) string { return o.ID }, picked.ID)
			if err != nil {
				return awsapi.NotBoughtError("Offering "+picked.ID+" could not be found when asked again.", "", err)
			}
			in.Offering = fresh
		}
		fresh := in.Offering
		switch {
		case !o.Ceiling.Allows(fresh):
			return awsapi.NotBoughtError(fmt.Sprintf("Offering %s now costs %s, above the order's ceiling %s.", fresh.ID, fresh.Fee.Dollars(), o.Ceiling), "", nil)
		case o.MaxSpend != nil && fresh.Fee.Cmp(*o.MaxSpend) > 0:
			return awsapi.NotBoughtError(fmt.Sprintf("Offering %s now costs %s, above the order's --max-spend %s.", fresh.ID, fresh.Fee.Dollars(), o.MaxSpend.Dollars()), "", nil)
		case fresh.Fee.Cmp(picked.Fee) > 0:
			return awsapi.NotBoughtError(fmt.Sprintf("Offering %s now costs %s, more than the %s it was picked (and approved) at.", fresh.ID, fresh.Fee.Dollars(), picked.Fee.Dollars()), "", nil)
		}
		return nil
	}
}

// orderTags are the order's tags and the order's id, which the reservation carries.
func orderTags(o model.Order) map[string]string {
	tags := map[string]string{}
	for k, v := range o.Tags {
		tags[k] = v
	}
	tags[OrderTag] = o.ID
	return tags
}

// OrderTag is the tag that names, on a reservation, the order that bought it. It is not
// under the reserved gpublock: prefix, which the spend path keeps for its request tag.
const OrderTag = "gpublock-order"

// refused records the approval command's refusal: the order stays open, or closes as
// refused when it was placed so.
func (f *Filler) refused(o model.Order, off model.Offering, why string, now time.Time) (model.Order, error) {
	sentence := fmt.Sprintf("the approval command refused %s (%s)", off.ID, why)
	o, err := f.change(o.ID, func(o *model.Order) error {
		if o.State != model.OrderOpen || o.Claim != nil {
			return errClaimed
		}
		o.Why = sentence
		if o.CloseOnRefusal {
			o.State, o.Closed = model.OrderRefused, now.UTC()
		}
		return nil
	})
	if err != nil {
		return o, ignoreClaimed(err)
	}
	f.say("order %s: not bought: %s", o.ID, sentence)
	if f.Notify != nil {
		e := approvalEvent(o, off, now)
		e.Kind, e.Key, e.Reason = KindRefused, "order/"+o.ID+"/refused/"+off.ID, why
		e.Text = "gpublock: order " + o.ID + ": not bought: " + sentence
		f.Notify(e)
	}
	return o, nil
}

// release gives up the claim after a purchase that certainly bought nothing.
func (f *Filler) release(o model.Order, claim *model.OrderClaim, why string) (model.Order, error) {
	f.say("order %s: %s", o.ID, why)
	return f.change(o.ID, func(o *model.Order) error {
		if o.Claim == nil || o.Claim.RequestID != claim.RequestID {
			return errUnchanged
		}
		o.State, o.Claim, o.Why = model.OrderOpen, nil, why
		return nil
	})
}

// filled records what the claim's purchase bought and closes the order.
func (f *Filler) filled(id, requestID string, fill model.OrderFill) (model.Order, error) {
	o, err := f.change(id, func(o *model.Order) error {
		if o.State == model.OrderFilled {
			return errUnchanged
		}
		if o.Claim == nil || o.Claim.RequestID != requestID {
			return errClaimed
		}
		o.State, o.Claim, o.Filled, o.Closed, o.Why = model.OrderFilled, nil, &fill, fill.At, ""
		return nil
	})
	if err != nil {
		return o, err
	}
	f.say("order %s: FILLED: %s × %d in %s, %s – %s, fee %s (reservation %s, request tag %s)", id, fill.Offering.InstanceType, fill.Offering.Count,
		fill.Offering.AvailabilityZone, fill.Offering.Start.Format(model.LayoutMinuteZone), fill.Offering.End.Format(model.LayoutMinuteZone), fill.Offering.Fee.Dollars(),
		strings.Join(fill.Reservations, ", "), fill.RequestID)
	return o, nil
}

// approvalEvent is what the approval command is asked on.
func approvalEvent(o model.Order, off model.Offering, now time.Time) notify.Event {
	return notify.Event{Text: fmt.Sprintf("gpublock: order %s: buy %s × %d in %s, %s – %s, for %s ($%s per accelerator-hour of the usable hours; ceiling %s)?",
		o.ID, off.InstanceType, off.Count, off.AvailabilityZone, off.Start.UTC().Format(model.LayoutMinuteZone), off.End.UTC().Format(model.LayoutMinuteZone),
		off.Fee.Dollars(), off.UsableAcceleratorHourlyRate(), o.Ceiling),
		Key: "order/" + o.ID + "/approve/" + off.ID, Kind: KindApproval, Region: off.Region, AvailabilityZone: off.AvailabilityZone,
		InstanceType: off.InstanceType, Count: off.Count, Fee: off.Fee.String(), Length: model.HoursMinutes(off.Minutes()), End: off.End.UTC(), At: now.UTC()}
}

// The kinds of an order's events.
const (
	KindApproval = "order-approval"
	KindFilled   = "order-filled"
	KindRefused  = "order-refused"
)
