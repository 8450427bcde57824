package orders

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// settleClaim learns what the purchase of o's claim did, from the journal and, where the
// journal does not say, from AWS by the claim's request tag; open is true when the order
// may buy again (the claim bought nothing and is released).
func (f *Filler) settleClaim(ctx context.Context, o model.Order) (_ model.Order, open bool, _ error) {
	claim := o.Claim
	entries, _, err := f.Client.Journal()
	if err != nil {
		return o, false, err
	}
	intent, ok := intentOf(entries, claim.RequestID)
	if !ok {
		// The spend path journals its intent before it sends anything: none means the
		// claimant stopped before the purchase was sent.
		o, err := f.release(o, claim, "the gpublock that claimed it stopped before buying ("+claim.Owner+")")
		return o, err == nil && o.State == model.OrderOpen, err
	}
	out, final := outcomeOf(entries, claim.RequestID)
	if !final || (out.Outcome != string(source.Bought) && out.SettledLater) {
		// Unsettled, or settled as not bought by another purchase's settling, which may
		// have looked before this one reached AWS: ask AWS now, by the tag.
		if _, err := f.Spend.SettleOpen(ctx, intent.Region); err != nil {
			return f.unsettled(o, err)
		}
		entries, _, err = f.Client.Journal()
		if err != nil {
			return o, false, err
		}
		out, final = outcomeOf(entries, claim.RequestID)
		if out.Outcome != string(source.Bought) {
			is, ok := f.intentSource(intent.Action)
			if !ok {
				return f.unsettled(o, fmt.Errorf("no source settles %s", intent.Action))
			}
			s, err := is.Settle(ctx, intent)
			if err != nil {
				return f.unsettled(o, err)
			}
			if s.Outcome == source.Bought {
				out, final = source.JournalEntry{Outcome: string(source.Bought), Result: s.Result, RequestID: claim.RequestID}, true
			}
		}
	}
	if final && out.Outcome == string(source.Bought) {
		fill := model.OrderFill{RequestID: claim.RequestID, Reservations: out.ResultIDs(), Offering: offeringOfIntent(intent, claim.Offering),
			At: f.Client.Now(ctx).UTC(), Recovered: true}
		o, err := f.filled(o.ID, claim.RequestID, fill)
		if err != nil {
			return o, false, ignoreClaimed(err)
		}
		o, err = f.then(ctx, o)
		return o, false, err
	}
	o, err = f.release(o, claim, "not bought: the interrupted purchase "+claim.RequestID+" did not go through (AWS lists no reservation with its request tag)")
	return o, err == nil && o.State == model.OrderOpen, err
}

// unsettled keeps the claim when AWS could not say what its purchase did: nothing is
// bought for the order until it can.
func (f *Filler) unsettled(o model.Order, err error) (model.Order, bool, error) {
	why := "an interrupted purchase (request tag " + o.Claim.RequestID + ") cannot be settled now: " + f.Client.ExplainError(err).String()
	f.say("order %s: %s", o.ID, why)
	o, cerr := f.change(o.ID, func(o *model.Order) error { o.Why = why; return nil })
	if cerr != nil {
		return o, false, cerr
	}
	return o, false, nil
}

func (f *Filler) intentSource(action string) (source.IntentSource, bool) {
	for _, s := range f.Sources {
		if is := s.Intents(); is.Purchase == action {
			return is, true
		}
	}
	return source.IntentSource{}, false
}

// intentOf is the journal's intent line of requestID.
func intentOf(entries []source.JournalEntry, requestID string) (source.JournalEntry, bool) {
	for _, e := range entries {
		if e.Phase == "intent" && e.RequestID == requestID {
			return e, true
		}
	}
	return source.JournalEntry{}, false
}

// outcomeOf is the journal's word on requestID: a bought outcome wherever it is, else the
// last final one; final is false when there is none (or only unknown).
func outcomeOf(entries []source.JournalEntry, requestID string) (out source.JournalEntry, final bool) {
	for _, e := range entries {
		if e.Phase != "outcome" || e.RequestID != requestID || e.Outcome == string(source.Unknown) {
			continue
		}
		if e.Outcome == string(source.Bought) {
			return e, true
		}
		out, final = e, true
	}
	return out, final
}

// offeringOfIntent is what the intent line says was bought, over what the claim picked.
func offeringOfIntent(e source.JournalEntry, picked model.OrderSeen) model.OrderSeen {
	s := picked
	if m, err := model.ParseMoney(e.Fee); err == nil {
		s.Fee = m
	}
	if e.Zone != "" {
		s.AvailabilityZone = e.Zone
	}
	if e.Start != nil && e.End != nil {
		s.Start, s.End = e.Start.UTC(), e.End.UTC()
	}
	return s
}

// then does what a filled order asks, once its reservations are known, and records it.
func (f *Filler) then(ctx context.Context, o model.Order) (model.Order, error) {
	if o.Filled == nil || o.Filled.ThenDone {
		return o, nil
	}
	var blocks []model.Block
	for _, id := range o.Filled.Reservations {
		src, ok := source.Owning(f.Sources, id)
		if !ok {
			continue
		}
		b, found, err := src.FindBlock(ctx, o.Filled.Offering.Region, id)
		if err != nil {
			return o, err // asked again on the next round
		}
		if found {
			blocks = append(blocks, b)
		}
	}
	return f.thenWith(ctx, o, blocks)
}

// thenWith notifies the fill and runs the order's Then on blocks, once.
func (f *Filler) thenWith(ctx context.Context, o model.Order, blocks []model.Block) (model.Order, error) {
	if o.Filled == nil || o.Filled.ThenDone {
		return o, nil
	}
	fill := o.Filled
	if f.Notify != nil {
		// The notifier sends one event per key once, whoever asks.
		f.Notify(notify.Event{Text: fmt.Sprintf("gpublock: order %s filled: %s × %d in %s, %s – %s, fee %s, reservation %s",
			o.ID, fill.Offering.InstanceType, fill.Offering.Count, fill.Offering.AvailabilityZone, fill.Offering.Start.Format(model.LayoutMinuteZone),
			fill.Offering.End.Format(model.LayoutMinuteZone), fill.Offering.Fee.Dollars(), strings.Join(fill.Reservations, ", ")),
			Key: "order/" + o.ID + "/filled", Kind: KindFilled, ReservationID: strings.Join(fill.Reservations, ","), Region: fill.Offering.Region,
			AvailabilityZone: fill.Offering.AvailabilityZone, InstanceType: fill.Offering.InstanceType, Count: fill.Offering.Count,
			End: fill.Offering.End, Fee: fill.Offering.Fee.String(), At: fill.At})
	}
	var thenErr string
	if f.Then != nil && (o.Then.Launch || o.Then.Handoff) {
		if err := f.Then(ctx, o, blocks); err != nil {
			if ctx.Err() != nil {
				return o, ctx.Err()
			}
			thenErr = source.RedactError(err)
			f.say("order %s: bought, but %s failed: %s", o.ID, o.Then.Words(), thenErr)
		}
	}
	return f.change(o.ID, func(o *model.Order) error {
		if o.Filled == nil {
			return errUnchanged
		}
		o.Filled.ThenDone, o.Filled.ThenErr = true, thenErr
		return nil
	})
}
