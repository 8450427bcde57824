package purchase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// listing is how an earlier search listed the offering a purchase names, as the market
// cache kept its answer: when, with which window, at which fee. Nothing is bought from
// it: it only says which window to ask again.
type listing struct {
	asked      time.Time
	start, end time.Time
	typ        string // the type the listing's call asked, in its source's form
	days       int    // the length it asked
	offering   model.Offering
}

// listingOf is the latest search on this backend that listed id in region, if the market
// cache holds one (none with --no-cache).
func listingOf(client *awsapi.Client, src model.Source, region, id string) (listing, bool) {
	cache, backend := client.MarketCache()
	e, o, ok := cache.Listed(time.Now().UTC(), src.Name(), backend, region, id)
	if !ok {
		return listing{}, false
	}
	return listing{asked: e.Asked, start: e.Cell.Start, end: e.Cell.End, typ: e.Cell.Type, days: e.Cell.Days, offering: o}, true
}

// again is q asking the listing's window instead of its own: a window relative to now has
// moved since the listing, and a training plan offering's id is that of the window of the
// search that gave it. It asks only the listing's type and length when q holds them (a
// swept range would spend a call per length on AWS's bucket for one offering). ok is false
// when the window is q's own (asking it again would only repeat the answer).
func (l listing) again(q model.Query) (model.Query, bool) {
	if l.start.Equal(q.Start) && l.end.Equal(q.End) {
		return q, false
	}
	q.Start, q.End = l.start, l.end
	if l.days >= q.Durations.MinDays && l.days <= q.Durations.MaxDays {
		q.Durations = model.DurationRange{MinDays: l.days, MaxDays: l.days}
	}
	for _, t := range q.InstanceTypes {
		if t == l.typ || "ml."+strings.TrimPrefix(t, "ml.") == l.typ { // a plan's type is asked by its ml. name
			q.InstanceTypes = []string{t}
			break
		}
	}
	return q, true
}

// findListed finds the offering id by the search of q; when that search does not list it
// and an earlier search on this backend did, with another window, it asks that window
// again and takes the offering only from that fresh answer, by its exact id (check says
// whether the source's rules allow the window; a window whose start has passed is asked
// from q's start, as a source that refuses a past start requires). found is the listing
// when it was used.
func findListed(ctx context.Context, client *awsapi.Client, src source.Source, q model.Query, id string,
	notListed func(*awsapi.Client, string, int, string) error, check func(model.Query) error) (o model.Offering, found *listing, err error) {
	l, listed := listingOf(client, src.Caps().Source, q.Regions[0], id) // before the search, whose answer replaces the listing's
	o, seen, err := find(ctx, src, q, id)
	if errors.Is(err, awsapi.ErrNotListed) && listed {
		if aq, ok := l.again(q); ok {
			if check(aq) != nil && aq.Start.Before(q.Start) {
				// From now on, the listing's window holds nothing the fresh one did not
				// unless it ends later: a call that cannot find more is not spent.
				aq.Start = q.Start
				ok = aq.End.After(q.End)
			}
			if ok && check(aq) == nil {
				var n int
				if o, n, err = find(ctx, src, aq, id); err == nil {
					return o, &l, nil
				}
				seen += n
			}
		}
	}
	switch {
	case errors.Is(err, awsapi.ErrNotListed):
		return o, nil, notListed(client, id, seen, q.Regions[0])
	case err != nil:
		return o, nil, spending.LookupFailure(client, err)
	}
	return o, nil, nil
}

// ago says how long ago, in whole minutes, by the wall clock the market cache is dated by.
func ago(d time.Duration) string {
	if m := int(d / time.Minute); m >= 1 {
		return model.Plural(m, "minute", "minutes") + " ago"
	}
	return "less than a minute ago"
}

// FindSourceOffering is the command's look-up of an offering by id (findListed), for a
// query whose rules were checked and a listing's window that needs no other check.
func FindSourceOffering(ctx context.Context, client *awsapi.Client, src source.Source, q model.Query, id string, notListed func(*awsapi.Client, string, int, string) error) (model.Offering, error) {
	o, _, err := findListed(ctx, client, src, q, id, notListed, func(model.Query) error { return nil })
	return o, err
}

func find(ctx context.Context, src source.Source, q model.Query, id string) (model.Offering, int, error) {
	return awsapi.FindByID(ctx, func(ctx context.Context) <-chan source.SearchEvent { return src.Search(ctx, q) },
		func(o model.Offering) string { return o.ID }, id)
}

// feeSinceListed refuses an offering found by its listing's window whose fee has risen
// since it was listed, when no person confirms the fee it has now (--yes): the fee a
// script was run for is the listed one.
func feeSinceListed(l listing, now model.Offering, yes bool) error {
	if !yes || now.Fee.Cmp(l.offering.Fee) <= 0 {
		return nil
	}
	return fmt.Errorf("the fee of offering %s rose from %s when it was listed to %s: nothing was bought. "+
		"Run the purchase without --yes to see and confirm the fee it has now", now.ID,
		model.ExactFee(l.offering.Fee, l.offering.Currency), model.ExactFee(now.Fee, now.Currency))
}

// printListing says, before the facts, that the offering was found by asking the window
// of the search that listed it, and how its fee has moved since.
func printListing(w io.Writer, l listing, now model.Offering) {
	say := fmt.Sprintf("Offering %s was listed by a search of %s – %s UTC %s; the same flags now ask a later window, "+
		"so that window was asked again. The facts below are its answer now.", now.ID,
		l.start.UTC().Format(model.LayoutMinute), l.end.UTC().Format(model.LayoutMinute), ago(time.Since(l.asked)))
	switch c := now.Fee.Cmp(l.offering.Fee); {
	case c > 0:
		say += fmt.Sprintf(" Its fee ROSE since it was listed: %s then, %s now.", model.ExactFee(l.offering.Fee, l.offering.Currency), model.ExactFee(now.Fee, now.Currency))
	case c < 0:
		say += fmt.Sprintf(" Its fee fell since it was listed: %s then, %s now.", model.ExactFee(l.offering.Fee, l.offering.Currency), model.ExactFee(now.Fee, now.Currency))
	}
	fmt.Fprintln(w, spending.Wrap(say))
}
