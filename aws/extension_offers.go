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
	sem := make(chan struct{}, extensionAskers)
	for _, days := range model.ExtensionLengths(b) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !acquire(ctx, sem) {
				mu.Lock()
				failed, lastErr = append(failed, days), ctx.Err()
				mu.Unlock()
				return
			}
			defer func() { <-sem }()
			offs, err := c.ExtensionOfferings(ctx, b, days)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				failed, lastErr = append(failed, days), err
			case len(offs) > 0:
				out = append(out, model.ExtensionChoice{Days: days, Offering: model.CheapestExtension(offs)})
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
