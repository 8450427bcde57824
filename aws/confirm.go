package aws

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// lostReply is what a purchase says when its reply did not tell what was bought.
type lostReply struct {
	noAnswer string      // the error of an answer without what was bought
	what     string      // "purchase", "extension"
	unknown  Explanation // when the look-up failed as well
	notFound string      // the hint when the look-up answered without it
	done     string      // the past participle of what was not done: "bought", "extended"
}

// settle decides what a purchase sent once, without retries, did when its reply did not
// say: a refusal (4xx) bought nothing, but no answer, a server error or an unreadable
// answer may have been carried out, so find looks for what was bought before anything is
// told. A found T comes with Bought (the caller journals it); the rest is journalled here.
func settle[T any](c *Client, entry JournalEntry, callErr error, sent bool, say lostReply, find func() (T, bool, error)) (T, Outcome, error) {
	var zero T
	if callErr == nil {
		callErr = errors.New(say.noAnswer)
	}
	if !sent {
		// It failed before reaching the network (credentials, signing): AWS never saw it.
		c.journalOutcome(entry, NotBought, false, "", fmt.Errorf("not sent: %w", callErr))
		return zero, NotBought, &PurchaseError{Outcome: NotBought, Err: callErr, Explanation: Explanation{
			Summary: "Not sent: the " + say.what + " never left this machine (" + strings.TrimSuffix(ExplainError(callErr).Summary, ".") + ").",
			Hint:    ExplainError(callErr).Hint}}
	}
	if !ambiguous(callErr) {
		c.journalOutcome(entry, NotBought, false, "", callErr)
		return zero, NotBought, &PurchaseError{Outcome: NotBought, Explanation: ExplainError(callErr), Err: callErr}
	}
	got, found, lookErr := find()
	switch {
	case found:
		return got, Bought, nil
	case lookErr != nil:
		c.journalOutcome(entry, Unknown, false, "", fmt.Errorf("%v; look-up failed: %v", callErr, lookErr))
		return zero, Unknown, &PurchaseError{Outcome: Unknown, Err: callErr, Explanation: say.unknown}
	}
	c.journalOutcome(entry, NotBought, false, "", callErr)
	return zero, NotBought, &PurchaseError{Outcome: NotBought, Err: callErr, Explanation: Explanation{
		Summary: "Not " + say.done + ": AWS did not complete the " + say.what + " (" + ExplainError(callErr).Summary + ").",
		Hint:    say.notFound}}
}

// confirm asks look, up to confirmTries times, whether a call whose reply was lost went
// through: AWS may take a moment to list what it made, so an empty answer is asked again
// before it counts as "not there". When no try got an answer, the last error is returned.
func confirm[T any](ctx context.Context, c *Client, look func(context.Context) (T, bool, error)) (T, bool, error) {
	return confirmN(ctx, c, c.confirmTries, look)
}

// confirmN is confirm with its number of tries.
func confirmN[T any](ctx context.Context, c *Client, tries int, look func(context.Context) (T, bool, error)) (T, bool, error) {
	// It keeps asking after a cancel: once a purchase may have been made, the person
	// must learn whether it was.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	var zero T
	var lastErr error
	answered := false
	for try := 0; try < tries; try++ {
		if try > 0 && !sleep(ctx, c.confirmDelay) {
			return zero, false, ctx.Err()
		}
		v, found, err := look(ctx)
		switch {
		case found:
			return v, true, nil
		case err != nil:
			lastErr = err
		default:
			answered = true
		}
	}
	if answered {
		return zero, false, nil
	}
	return zero, false, lastErr
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
