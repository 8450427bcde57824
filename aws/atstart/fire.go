package atstart

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// StoreOf is the launches of the client's backend and account.
func StoreOf(c *awsapi.Client) (Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, err := c.StateStore(ctx)
	if err != nil {
		return Store{}, err
	}
	return StoreIn(st), nil
}

// Fire fires every pending launch whose block is active, through the one spend path sv with
// the Capacity Blocks source src, under the launch's own token, and cancels those whose
// block ended first. Each outcome is said (say gets a line without the command's name) and
// sent through n, like a warning. It is the one step every watcher takes each round;
// without pending launches it calls nothing and takes no lock. The error is a store that
// cannot be reached or read (a backend that does not say whose it is, a damaged record):
// said, and returned so that the run fails and cron learns that launches cannot fire.
func Fire(ctx context.Context, c *awsapi.Client, src source.Source, sv *spend.Service, n *notify.Notifier, say func(string)) error {
	st, err := StoreOf(c)
	if err == nil {
		var ls []Launch
		if ls, err = st.List(); err == nil {
			renotify(ctx, c, n, ls)
			if !slices.ContainsFunc(ls, func(l Launch) bool { return !l.Done() }) {
				return nil
			}
		}
	}
	if err != nil {
		say("launches attached to blocks: " + source.RedactError(err))
		return err
	}
	err = st.Update(func(ls []Launch, save func([]Launch) error) error {
		due := false
		for _, l := range ls {
			due = due || !l.Done()
		}
		if !due {
			return nil
		}
		if c.ReadOnly() {
			say("launches attached to blocks are not fired in read-only mode")
			return nil
		}
		for i := range ls {
			if ls[i].Done() || ctx.Err() != nil {
				continue
			}
			var b model.Block
			if fire(ctx, c, src, sv, &ls[i], save, ls, &b, say) {
				if err := save(ls); err != nil {
					return err
				}
				say(ls[i].Sentence())
				bs := []model.Block{b}
				c.FillAccount(ctx, bs)
				n.Send(ls[i].EventOf(bs[0], c.Now(ctx)))
			}
		}
		return nil
	})
	if err != nil {
		say("launches attached to blocks: " + source.RedactError(err))
	}
	return err
}

// renotifyWithin is how long after a launch started or failed its notification is sent
// again while the notifier's record says it was not delivered.
const renotifyWithin = 24 * time.Hour

// renotify sends again the notification of each launch started or failed lately that the
// notifier's record says was not delivered: the watcher that fired it was stopped (kill
// -9) between its record and the delivery. The notifier's record sends it once.
func renotify(ctx context.Context, c *awsapi.Client, n *notify.Notifier, ls []Launch) {
	if !n.Enabled() {
		return
	}
	for _, l := range ls {
		if (l.State != Launched && l.State != Failed) || time.Since(l.DoneAt) > renotifyWithin {
			continue
		}
		now := c.Now(ctx)
		if n.Delivered(l.EventOf(model.Block{}, now).Key) {
			continue
		}
		// The block's facts for the notification, as the first sending had them.
		b, _, _ := capacityblocks.New(c).FindBlock(ctx, l.Region, l.ReservationID)
		bs := []model.Block{b}
		c.FillAccount(ctx, bs)
		n.Send(l.EventOf(bs[0], now))
	}
}

// fire moves l on if its block allows; changed is true when l is done now. seen is the
// block as AWS lists it (zero when it is not listed), for the notification.
func fire(ctx context.Context, c *awsapi.Client, src source.Source, sv *spend.Service, l *Launch, save func([]Launch) error, all []Launch, seen *model.Block, say func(string)) (changed bool) {
	cb := capacityblocks.New(c)
	b, found, err := cb.FindBlock(ctx, l.Region, l.ReservationID)
	if found {
		*seen = b
	}
	switch {
	case err != nil:
		return false // asked again next round
	case !found:
		l.finish(Cancelled, "the block is no longer listed in "+l.Region)
		return true
	case b.State == model.StateScheduled || b.State == model.StatePaymentPending:
		return false
	case b.State == model.StatePaymentFailed:
		l.finish(Cancelled, "the block's payment failed, so it never starts")
		return true
	case b.State != model.StateActive:
		l.finish(Cancelled, fmt.Sprintf("the block is %s: it ended before a watcher launched into it", b.State))
		return true
	}
	if l.Sent {
		// An earlier attempt was cut off: what it started, if anything, is settled by its
		// token before anything is sent.
		if got, err := cb.LaunchedUnder(ctx, l.Region, l.Token); err != nil {
			return false
		} else if len(got) > 0 {
			l.launched(got)
			// The journal's intent, left open by the run that was stopped, is closed too.
			if err := sv.LaunchFound(l.Token, l.Instances); err != nil {
				say("the journal's line of " + l.Sentence() + " could not be closed: " + source.RedactError(err))
			}
			return true
		}
	} else {
		l.Sent = true
		if err := save(all); err != nil {
			return false // not sent: a token that is not on disk could be lost
		}
	}
	in := source.Intent{Kind: source.SpendLaunch, Block: b, Launch: l.Spec, RequestID: l.Token}
	p, err := sv.Prepare(ctx, src, in)
	var res source.SpendResult
	if err == nil {
		res, err = sv.Commit(ctx, p)
	}
	var pe *source.ActionError
	switch {
	case err == nil:
		l.launched(res.Instances)
		return true
	case ctx.Err() != nil, awsapi.Ambiguous(err), errors.As(err, &pe) && pe.Outcome == source.Unknown:
		return false // sent again next round, under the same token
	}
	l.finish(Failed, strings.TrimSuffix(c.ExplainError(err).String(), "."))
	return true
}

func (l *Launch) finish(s State, reason string) {
	l.State, l.Reason, l.DoneAt = s, reason, time.Now().UTC()
}

func (l *Launch) launched(ins []model.Instance) {
	l.finish(Launched, "")
	l.Instances = nil
	for _, in := range ins {
		l.Instances = append(l.Instances, in.ID)
	}
}

// Sentence says what became of l.
func (l Launch) Sentence() string {
	what := fmt.Sprintf("the launch at the start of %s (%d from %s)", l.ReservationID, l.Spec.Count, l.Spec.ImageID)
	switch l.State {
	case Launched:
		return what + " started " + strings.Join(l.Instances, ", ")
	case Failed:
		return what + " FAILED: " + l.Reason + "; nothing was launched"
	case Cancelled:
		return what + " was cancelled: " + l.Reason
	}
	return what + " waits for the block to start"
}

// EventOf is the launch's notification, with what its block b says of itself (its account,
// zone, type, end and extension cutoff) when AWS listed it.
func (l Launch) EventOf(b model.Block, now time.Time) notify.Event {
	e := notify.Event{Text: "gpublock: " + l.Sentence(), Key: "launch-at-start " + l.Token + " " + string(l.State),
		Kind: "launch-at-start", Warning: strings.ToUpper("launch " + string(l.State)), ReservationID: l.ReservationID,
		Region: l.Region, Count: l.Spec.Count, State: string(l.State), At: now.UTC()}
	if b.ReservationID == l.ReservationID {
		e.Account, e.AvailabilityZone, e.InstanceType = b.Account, b.AvailabilityZone, b.InstanceType
		e.End, e.ExtendBy = b.End.UTC(), b.ExtendBy().UTC()
	}
	return e
}
