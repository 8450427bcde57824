package aws

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/model"
)

// extensionAskers bounds the calls in flight while every length is asked for: AWS's rate
// limit for DescribeCapacityBlockExtensionOfferings is not published, so the choice is a
// gentle one.
const extensionAskers = 4

// ExtensionChoices asks AWS at once for every extension length it could sell for the block
// (model.ExtensionLengths) and returns the cheapest offering of each length that has one,
// shortest first. Lengths that could not be asked are named in the error, which is then
// returned with the choices that were found.
func (c *Client) ExtensionChoices(ctx context.Context, b model.Block) ([]model.ExtensionChoice, error) {
	return c.ExtensionChoicesEach(ctx, b, nil)
}

// ExtensionChoicesEach is ExtensionChoices that also hands each choice to found (when not
// nil) as soon as its length has answered, from any goroutine. AWS's request bucket for
// these calls refills slowly (see apilimit), so the long lengths may take minutes: the
// lengths are asked shortest first, and a screen can list those found while the rest come.
func (c *Client) ExtensionChoicesEach(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	if err := checkExtendable(b); err != nil {
		return nil, err
	}
	var (
		mu      sync.Mutex
		out     []model.ExtensionChoice
		failed  []int
		lastErr error
		wg      sync.WaitGroup
	)
	lengths := make(chan int, len(model.ExtensionLengths(b)))
	for _, days := range model.ExtensionLengths(b) {
		lengths <- days
	}
	close(lengths)
	for range extensionAskers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for days := range lengths {
				if ctx.Err() != nil {
					mu.Lock()
					failed, lastErr = append(failed, days), ctx.Err()
					mu.Unlock()
					continue
				}
				offs, err := c.ExtensionOfferings(ctx, b, days)
				var ch model.ExtensionChoice
				mu.Lock()
				switch {
				case err != nil:
					failed, lastErr = append(failed, days), err
				case len(offs) > 0:
					ch = model.ExtensionChoice{Days: days, Offering: model.CheapestExtension(offs)}
					out = append(out, ch)
				}
				mu.Unlock()
				if ch.Days > 0 && found != nil {
					found(ch)
				}
			}
		}()
	}
	wg.Wait()
	sort.Slice(out, func(i, j int) bool { return out[i].Days < out[j].Days })
	if len(failed) == 0 {
		return out, nil
	}
	sort.Ints(failed)
	names := make([]string, len(failed))
	for i, d := range failed {
		names[i] = model.FormatDays(d)
	}
	return out, &ExtensionLengthsError{Lengths: names, Err: lastErr}
}

// ExtensionLengthsError names the extension lengths that could not be asked for.
type ExtensionLengthsError struct {
	Lengths []string
	Err     error
}

func (e *ExtensionLengthsError) Error() string {
	return fmt.Sprintf("AWS could not be asked about %s: %s", strings.Join(e.Lengths, ", "), ExplainError(e.Err))
}

func (e *ExtensionLengthsError) Unwrap() error { return e.Err }
