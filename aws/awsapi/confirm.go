package awsapi

import (
	"context"
	"time"
)

// Confirm asks look, up to the client's confirm tries (SetConfirmPace), whether a call whose reply was lost went
// through: AWS may take a moment to list what it made, so an empty answer is asked again
// before it counts as "not there". When no try got an answer, the last error is returned.
func Confirm[T any](ctx context.Context, c *Client, look func(context.Context) (T, bool, error)) (T, bool, error) {
	return ConfirmN(ctx, c, c.confirmTries, look)
}

// ConfirmN is Confirm with its number of tries.
func ConfirmN[T any](ctx context.Context, c *Client, tries int, look func(context.Context) (T, bool, error)) (T, bool, error) {
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

// ConfirmTries is how many times Confirm asks.
func (c *Client) ConfirmTries() int { return c.confirmTries }
