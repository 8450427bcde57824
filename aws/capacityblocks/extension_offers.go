package capacityblocks

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// extensionAskers bounds the calls in flight while every length is asked for: AWS's rate
// limit for DescribeCapacityBlockExtensionOfferings is not published, so the choice is a
// gentle one.
const extensionAskers = 4

// ExtensionChoices asks AWS at once for every extension length it could sell for the block
// (model.ExtensionLengths) and returns the cheapest offering of each length that has one,
// shortest first, handing each to found (when not nil) as soon as its length has answered,
// from any goroutine. Lengths that could not be asked are named in the error, which is
// then returned with the choices that were found. AWS's request bucket for
// these calls refills slowly (see apilimit), so the whole list may take minutes: a block
// that model.ExtendBlockerAt refuses is asked nothing, and the lengths are asked in
// model.ExtensionAskOrder (those this journal's extensions chose, then 1, 2, 7, 14 days),
// so that a screen lists the likely ones while the rest come. A refusal by AWS of the block
// itself (IncorrectState) ends the asking: every other length would be refused alike. A
// length AWS offers nothing for rules out every longer one, which holds it (an extension
// is contiguous from the block's end: that AWS sells no longer one then is our reading,
// unconfirmed), so those are not asked. A progress hook on ctx (WithExtensionProgress) is
// told after each length what is left and how long AWS's bucket makes it.
func (c *Client) ExtensionChoices(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	if err := c.checkExtendable(b); err != nil {
		return nil, err
	}
	if r := model.ExtendBlockerAt(b, c.api.Now(ctx)); r != nil {
		return nil, awsapi.NotBoughtError(r.Summary(), r.Hint, nil)
	}
	var (
		mu      sync.Mutex
		out     []model.ExtensionChoice
		failed  []int
		lastErr error
		refused bool // AWS answered the last failure: it refused, it was not out of reach
		stop    bool
		wg      sync.WaitGroup
	)
	order := model.ExtensionAskOrder(model.ExtensionLengths(b), c.chosenExtensionDays())
	shortestEmpty := 0 // the shortest length AWS offered nothing for; 0: none yet
	progress := ExtensionProgress{Lengths: len(order)}
	hook := source.ExtensionProgressHook(ctx)
	report := func() { // called with mu held
		if hook == nil {
			return
		}
		p := progress
		p.Left = p.Lengths - p.Asked - p.Skipped
		if tokens, rate, ok := c.pacer.Bucket(opDescribeExtensionOfferings)(b.Region); ok && rate > 0 && float64(p.Left) > tokens {
			p.Wait = time.Duration((float64(p.Left) - tokens) / rate * float64(time.Second))
		}
		hook(p)
	}
	lengths := make(chan int, len(order))
	for _, days := range order {
		lengths <- days
	}
	close(lengths)
	for range extensionAskers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for days := range lengths {
				mu.Lock()
				halt := stop
				longer := shortestEmpty > 0 && days > shortestEmpty
				if halt || longer {
					progress.Skipped++
					report()
				}
				mu.Unlock()
				if halt || longer {
					continue // not asked: AWS refused the block, or offers no shorter one
				}
				if ctx.Err() != nil {
					mu.Lock()
					failed, lastErr, refused = append(failed, days), ctx.Err(), false
					mu.Unlock()
					continue
				}
				offs, err := c.ExtensionOfferings(ctx, b, days)
				var ch model.ExtensionChoice
				mu.Lock()
				switch {
				case err != nil:
					failed, lastErr, refused = append(failed, days), err, awsAnswered(err)
					if code := apiCode(err); code == "IncorrectState" {
						stop = true
					}
				case len(offs) > 0:
					ch = model.ExtensionChoice{Days: days, Offering: model.CheapestExtension(offs)}
					out = append(out, ch)
				default:
					if shortestEmpty == 0 || days < shortestEmpty {
						shortestEmpty = days
					}
				}
				progress.Asked++
				if ch.Days > 0 {
					progress.Found++
				}
				report()
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
	return out, &ExtensionLengthsError{Lengths: names, Err: lastErr, Refused: refused, Stopped: stop}
}

const opDescribeExtensionOfferings = "DescribeCapacityBlockExtensionOfferings"

// ExtensionProgress is how far ExtensionChoices has come (model's, which the front ends
// read).
type ExtensionProgress = model.ExtensionProgress

// WithExtensionProgress has ExtensionChoices, run under the returned context, call f after
// every length (from any goroutine, one call at a time).
func WithExtensionProgress(ctx context.Context, f func(ExtensionProgress)) context.Context {
	return source.WithExtensionProgress(ctx, f)
}

// chosenExtensionDays are the lengths, in days, of the extensions this machine's journal
// bought, oldest first; none when the journal cannot be read.
func (c *Client) chosenExtensionDays() []int {
	entries, _, err := c.api.Journal()
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		if e.Action == "PurchaseCapacityBlockExtension" && e.Phase == "outcome" && e.Outcome == string(source.Bought) && e.Hours > 0 && e.Hours%24 == 0 {
			out = append(out, e.Hours/24)
		}
	}
	return out
}

// awsAnswered reports whether AWS answered the call with an error of its own (a refusal),
// rather than the call failing to reach it or to be answered.
func awsAnswered(err error) bool {
	var apiErr smithy.APIError
	return errors.As(err, &apiErr) && !awsapi.IsThrottle(err)
}

func apiCode(err error) string {
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		return apiErr.ErrorCode()
	}
	return ""
}

// ExtensionLengthsError names the extension lengths that were not answered: refused by
// AWS (Refused; Stopped when the refusal was of the block, so the rest were not asked), or
// not asked at all, the call failing on the way.
type ExtensionLengthsError struct {
	Lengths []string
	Err     error
	Refused bool
	Stopped bool
}

func (e *ExtensionLengthsError) Error() string {
	if e.Refused {
		rest := ""
		if e.Stopped {
			rest = " (the block was refused, so no other length was asked)"
		}
		return fmt.Sprintf("AWS refused to offer extensions of %s%s: %s", strings.Join(e.Lengths, ", "), rest, awsapi.ExplainError(e.Err))
	}
	return fmt.Sprintf("AWS could not be asked about %s: %s", strings.Join(e.Lengths, ", "), awsapi.ExplainError(e.Err))
}

func (e *ExtensionLengthsError) Unwrap() error { return e.Err }
