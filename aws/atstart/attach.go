package atstart

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// The rules of attaching, listing and cancelling, once for both front ends: `gpublock
// launch --at-start` and the TUI's launch form (through source.Backend) say the same.

// Check is why a launch of count instances cannot be attached to b, or nil, read before a
// confirmation is asked. Attach checks it all again under the lock.
func Check(c *awsapi.Client, b model.Block, count int) error {
	st, err := StoreOf(c)
	if err != nil {
		return err
	}
	ls, err := st.List()
	if err != nil {
		return err
	}
	if r := refusal(c, b, count, ls); r != nil {
		return r
	}
	return nil
}

// Attach attaches spec to b, with a client token fixed now, after the rules of Check; the
// refusal is a *source.ActionError.
func Attach(c *awsapi.Client, b model.Block, spec source.LaunchSpec) (Launch, error) {
	st, err := StoreOf(c)
	if err != nil {
		return Launch{}, err
	}
	l := Launch{ReservationID: b.ReservationID, Region: b.Region, Spec: spec, Token: awsapi.NewRequestID(),
		AttachedAt: time.Now().UTC(), Starts: b.Start.UTC(), State: Pending}
	err = st.Update(func(ls []Launch, save func([]Launch) error) error {
		if r := refusal(c, b, spec.Count, ls); r != nil {
			return r
		}
		return save(append(ls, l))
	})
	return l, err
}

// CheckGroup is why the launches of shares (one per reservation of a purchase, each its
// own count) cannot all be attached, or nil: the rules of Check, for each.
func CheckGroup(c *awsapi.Client, shares []model.LaunchShare) error {
	st, err := StoreOf(c)
	if err != nil {
		return err
	}
	ls, err := st.List()
	if err != nil {
		return err
	}
	if r := groupRefusal(c, shares, ls); r != nil {
		return r
	}
	return nil
}

// AttachGroup attaches spec to each share's reservation with its share's count, all or
// none under one lock, each with a client token of its own; each is launched when its own
// reservation starts. The refusal is a *source.ActionError that names the reservation.
func AttachGroup(c *awsapi.Client, shares []model.LaunchShare, spec source.LaunchSpec) ([]Launch, error) {
	st, err := StoreOf(c)
	if err != nil {
		return nil, err
	}
	var out []Launch
	err = st.Update(func(ls []Launch, save func([]Launch) error) error {
		if r := groupRefusal(c, shares, ls); r != nil {
			return r
		}
		out = nil
		for _, sh := range shares {
			one := spec
			one.Count = sh.Count
			out = append(out, Launch{ReservationID: sh.Block.ReservationID, Region: sh.Block.Region, Spec: one, Token: awsapi.NewRequestID(),
				AttachedAt: time.Now().UTC(), Starts: sh.Block.Start.UTC(), State: Pending})
		}
		return save(append(ls, out...))
	})
	return out, err
}

// groupRefusal is the first share's refusal, which names its reservation.
func groupRefusal(c *awsapi.Client, shares []model.LaunchShare, ls []Launch) *source.ActionError {
	for _, sh := range shares {
		if r := refusal(c, sh.Block, sh.Count, ls); r != nil {
			if !strings.Contains(r.Summary, sh.Block.ReservationID) {
				r.Summary = sh.Block.ReservationID + ": " + r.Summary
			}
			return r
		}
	}
	return nil
}

// refusal is the rules: not in read-only mode, a block that has not started, no more than
// it holds, and one launch per block.
func refusal(c *awsapi.Client, b model.Block, count int, ls []Launch) *source.ActionError {
	if cfg := c.Config(); cfg.ReadOnly {
		return &source.ActionError{Outcome: source.NotBought, Err: source.ErrReadOnly,
			Explanation: source.Explanation{Summary: model.ReadOnlyRefusal(cfg.ReadOnlyRule, "attached")}}
	}
	switch r := model.LaunchBlocker(b, count); {
	case b.State == model.StateActive:
		return refused("%s is active already: launch now, without attaching.", b.ReservationID)
	case r.Problem != model.LaunchNotYet:
		return refused("%s", r)
	}
	// One launch per block: a second one attached by mistake would start twice the work.
	if i := pendingFor(ls, b.ReservationID); i >= 0 {
		return refused("%s has a launch attached already (%d from %s); `gpublock launch --cancel %s` first.",
			b.ReservationID, ls[i].Spec.Count, ls[i].Spec.ImageID, b.ReservationID)
	}
	return nil
}

func refused(format string, args ...any) *source.ActionError {
	s := fmt.Sprintf(format, args...)
	return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: s}}
}

// List is the launches attached on this machine, done ones too.
func List(c *awsapi.Client) ([]Launch, error) {
	st, err := StoreOf(c)
	if err != nil {
		return nil, err
	}
	return st.List()
}

// Cancel cancels the pending launch attached to the block id; the refusal is a
// *source.ActionError. A launch already sent (Sent) may have started instances.
func Cancel(c *awsapi.Client, id string) (Launch, error) {
	st, err := StoreOf(c)
	if err != nil {
		return Launch{}, err
	}
	var l Launch
	err = st.Update(func(ls []Launch, save func([]Launch) error) error {
		i := pendingFor(ls, id)
		if i < 0 {
			return refused("no launch is attached to %s (`gpublock launch --pending` lists them).", id)
		}
		ls[i].finish(Cancelled, "cancelled by hand")
		l = ls[i]
		return save(ls)
	})
	return l, err
}

func pendingFor(ls []Launch, id string) int {
	return slices.IndexFunc(ls, func(l Launch) bool { return l.ReservationID == id && !l.Done() })
}

// Attached is l as the front ends' interface speaks of it.
func (l Launch) Attached() source.AttachedLaunch {
	return source.AttachedLaunch{ReservationID: l.ReservationID, Region: l.Region, Spec: l.Spec, State: string(l.State),
		AttachedAt: l.AttachedAt, Sent: l.Sent, Instances: l.Instances, Reason: l.Reason}
}

// Waiting reports whether a launch attached to b waits to be fired: its block is not idle
// but about to be filled, and is not warned of as idle. A store that cannot be read says
// no (the warning goes out; the failure is said where the launches are fired).
func Waiting(c *awsapi.Client, b model.Block) bool {
	ls, err := List(c)
	if err != nil {
		return false
	}
	for _, l := range ls {
		if !l.Done() && l.ReservationID == b.ReservationID && l.Region == b.Region {
			return true
		}
	}
	return false
}
