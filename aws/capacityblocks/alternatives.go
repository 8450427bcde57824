package capacityblocks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Alternatives looks near a query that found nothing: other durations, smaller counts,
// other regions and a later window. It returns only the suggestions that have offerings,
// in that order.
func (c *Client) Alternatives(ctx context.Context, q model.Query) ([]source.Suggestion, error) {
	if err := checkQueryShape(q); err != nil {
		return nil, err
	}
	cands := c.nearbyQueries(ctx, q)
	found := make([]*source.Suggestion, len(cands))
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3) // each candidate is itself a fan-out; a few at a time
	for i, cand := range cands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !awsapi.Acquire(ctx, sem) {
				return
			}
			defer func() { <-sem }()
			if cand.count {
				s, err := c.smallerCount(ctx, cand.s)
				found[i], errs[i] = s, err
				return
			}
			n, err := c.countOfferings(ctx, cand.s.Query)
			errs[i] = err
			if n > 0 {
				cand.s.Offerings = n
				found[i] = &cand.s
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []source.Suggestion
	var firstErr error
	failed := 0
	for i := range cands {
		if found[i] != nil {
			out = append(out, *found[i])
		}
		if errs[i] != nil {
			failed++
			if firstErr == nil {
				firstErr = errs[i]
			}
		}
	}
	if len(out) == 0 && failed == len(cands) && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

type candidate struct {
	s     source.Suggestion
	count bool // a smaller-count candidate: its count is found by LargestCount
}

func (c *Client) nearbyQueries(ctx context.Context, q model.Query) []candidate {
	var out []candidate
	asked := q.Durations.Days()
	valid := model.ValidDurationDays()
	lo, hi := slices.Index(valid, asked[0]), slices.Index(valid, asked[len(asked)-1])
	var near []int
	for _, i := range []int{lo - 1, hi + 1, lo - 2, hi + 2} {
		if i >= 0 && i < len(valid) {
			near = append(near, valid[i])
		}
	}
	window := q.End.Sub(q.Start)
	for _, d := range near {
		if time.Duration(d-1)*24*time.Hour > window {
			continue // the window is too short for such a block
		}
		nq := q
		nq.Durations = model.DurationRange{MinDays: d, MaxDays: d}
		out = append(out, candidate{s: source.Suggestion{Description: fmt.Sprintf("%s instead of %s", model.FormatDays(d), q.Durations), Query: nq}})
	}

	if q.Count > model.MinCount {
		pairs := 0
		for _, r := range dedupe(q.Regions) {
			for _, tn := range dedupe(q.InstanceTypes) {
				if t, ok := model.LookupType(tn); ok && t.Sells(r) && pairs < 8 {
					nq := q
					nq.Regions, nq.InstanceTypes = []string{r}, []string{tn}
					nq.Durations = model.DurationRange{MinDays: asked[0], MaxDays: asked[0]}
					out = append(out, candidate{s: source.Suggestion{Query: nq}, count: true})
					pairs++
				}
			}
		}
	}

	var others []string
	for _, r := range model.RegionsSelling(q.InstanceTypes...) {
		if !slices.Contains(q.Regions, r) {
			others = append(others, r)
		}
	}
	if len(others) > 0 {
		nq := q
		nq.Regions = others
		out = append(out, candidate{s: source.Suggestion{Description: "other regions: " + strings.Join(others, ", "), Query: nq}})
	}

	now := c.api.Now(ctx)
	if start := q.End; start.Before(now.Add(model.MaxLeadTime - 24*time.Hour)) {
		end := start.Add(window)
		if limit := model.LatestEnd(now, q.Durations.MaxDays); end.After(limit) {
			end = limit
		}
		nq := q
		nq.Start, nq.End = start, end
		out = append(out, candidate{s: source.Suggestion{
			Description: fmt.Sprintf("later window: %s – %s", start.UTC().Format(model.LayoutDay), end.UTC().Format(model.LayoutDay)), Query: nq}})
	}
	return out
}

func (c *Client) smallerCount(ctx context.Context, s source.Suggestion) (*source.Suggestion, error) {
	q := s.Query
	n, err := c.LargestCount(ctx, q.Regions[0], q.InstanceTypes[0], q.Durations.MinDays, q.Start, q.End)
	if err != nil || n == 0 || n >= q.Count {
		return nil, err
	}
	q.Count = n
	got, err := c.countOfferings(ctx, q)
	if err != nil || got == 0 {
		return nil, err
	}
	return &source.Suggestion{
		Description: fmt.Sprintf("%d × %s instead of %d in %s", n, q.InstanceTypes[0], s.Query.Count, q.Regions[0]),
		Query:       q, Offerings: got,
	}, nil
}

// countOfferings runs a search to its end and counts what it found. The error is the
// first region's, when no region answered.
func (c *Client) countOfferings(ctx context.Context, q model.Query) (int, error) {
	n, tally := 0, model.NewRegionTally()
	var firstErr error
	for ev := range c.Search(ctx, q) {
		n += len(ev.Offerings)
		if st := ev.Status; st != nil && tally.Add(*st) && firstErr == nil {
			firstErr = st.Err
		}
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if tally.AllFailed() {
		return 0, firstErr
	}
	return n, nil
}
