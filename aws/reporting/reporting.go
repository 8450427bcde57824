// Package reporting reads what a report is made of (model/report's Input) for the account
// of one client: every source's reservations, the fees paid for them as AWS states them and
// as this machine's journal recorded them, and their use as CloudWatch publishes it. It
// reads AWS (or the emulator) through the real SDK only.
package reporting

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// Gather is report.Build's input for the account of c: the reservations of srcs in regions
// (every region of model.Regions when none is given) that overlap [from, to) or were paid
// for in it, each with every payment on record and its use inside [from, to) up to the
// backend's now. A zero to is the backend's now: what was paid up to the instant it is read
// is in (the input's To is then that now). TagKeys and the on-demand prices are left to the
// caller.
//
// What cannot be read is a Problem in the input's words, beside what could: a region
// whose listing or CloudWatch failed, a plan whose extensions could not be read. The error
// is set only when no region could be listed at all (source.List's error).
func Gather(ctx context.Context, c *awsapi.Client, srcs []source.Source, regions []string, from, to time.Time) (report.Input, error) {
	in := report.Input{From: from.UTC(), To: to.UTC(), Now: c.Now(ctx)}
	if to.IsZero() {
		in.To = in.Now
	}
	if len(regions) == 0 {
		regions = model.Regions()
	}
	account := ""
	if id, err := c.Identity(ctx); err != nil {
		in.Problems = append(in.Problems, "The account could not be read: "+c.ExplainError(err).String())
	} else {
		account = id.Account
	}
	// A report covers every region, also those a listing left out for a while because they
	// had nothing when last asked.
	source.Forget(srcs)
	list, err := source.List(ctx, srcs, regions)
	for _, p := range list.Problems {
		in.Problems = append(in.Problems, listingProblem(p))
	}
	if err != nil {
		return in, err
	}
	j, jerr := readJournal(c, srcs)
	if jerr != nil {
		in.Problems = append(in.Problems, "This machine's purchase journal could not be read, so the fees it recorded are not known: "+source.RedactError(jerr))
	}
	// Where a listing lacks some details, AWS's extension history may be among them.
	partial := map[string]bool{}
	for _, p := range list.Problems {
		for _, r := range p.Regions {
			partial[r] = partial[r] || p.Partial
		}
	}
	var items []*item
	for _, b := range list.Blocks {
		if b.State == model.StatePaymentFailed || b.State == model.StateFailed {
			continue // released unpaid: nothing was charged, nothing can be used
		}
		if !b.End.After(in.From) {
			continue // over before the report: so were its payments, made before its end
		}
		src, ok := source.BySource(srcs, b.Source)
		if !ok {
			continue
		}
		historyKnown := !partial[b.Region]
		if b.Source == model.SourceTrainingPlan {
			// SageMaker's listing carries no extension history; the plan's own look-up does.
			full, found, err := src.FindBlock(ctx, b.Region, b.ReservationID)
			switch {
			case err != nil:
				historyKnown = false
				in.Problems = append(in.Problems, fmt.Sprintf("%s (%s): its extensions could not be read: %s", b.ReservationID, b.Region, src.Explain(err).String()))
			case found:
				b.Extensions = full.Extensions
			}
		}
		it := newItem(b, cmp.Or(b.Account, account))
		var journal []string
		if h := j.Of(b); h != nil {
			journal = h.Group
		}
		it.res.Group = purchaseGroup(list.Blocks, &b, journal)
		it.res.Payments = j.payments(b, historyKnown)
		if len(it.res.Tags) == 0 {
			// SageMaker lists a plan without its tags: those it was bought with here are
			// in the journal.
			if h := j.Of(b); h != nil && h.Purchase != nil && len(h.Entry.Tags) > 0 {
				it.res.Tags = maps.Clone(h.Entry.Tags)
			}
		}
		if report.Relevant(it.res, in.From, in.To, in.Now) {
			items = append(items, it)
		}
	}
	// What this machine bought that AWS no longer lists (an expired reservation drops out of
	// its listings after a while) is still paid for, and its use still published.
	for _, it := range j.unlisted(c.Cloud(), account, regions, list.Blocks, in.Now) {
		if report.Relevant(it.res, in.From, in.To, in.Now) {
			items = append(items, it)
		}
	}
	in.Problems = append(in.Problems, readUse(ctx, c, items, in.From, in.To, in.Now)...)
	for _, it := range items {
		in.Reservations = append(in.Reservations, it.res)
	}
	return in, nil
}

// purchaseGroup are the reservations a purchase made, when it made several: those AWS
// lists in model.Group's order (that of `blocks`), found from one of them (listed, nil
// when none is), then those only the journal's outcome names (journal). None when it made
// one.
func purchaseGroup(blocks []model.Block, listed *model.Block, journal []string) []string {
	var ids []string
	if listed != nil {
		ids = strings.Split(model.GroupIDs(model.Group(blocks, *listed)), ",")
	}
	for _, id := range journal {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) < 2 {
		return nil
	}
	return ids
}

func listingProblem(p source.BlockProblem) string {
	msg := p.Message
	if p.Partial {
		msg = "listed with some details missing: " + msg
	}
	if p.Region == "" {
		return msg
	}
	return p.Region + ": " + msg
}

// item is one reservation of the report while it is read: what it reserved, part by part,
// and where CloudWatch publishes its use.
type item struct {
	res   report.Reservation
	parts []part
	// metric is the CloudWatch series of its use.
	metric *metric
}

// part is a span of a reservation at one count: a block's window, a plan's reserved
// capacity.
type part struct {
	start, end time.Time
	count      int
}

func newItem(b model.Block, account string) *item {
	// A pending extension's fee is counted (payments), so are its hours.
	it := &item{res: report.Reservation{Account: account, Region: b.Region, Source: b.Source, ID: b.ReservationID,
		InstanceType: b.InstanceType, Count: b.TotalCount, Start: b.Start.UTC(), End: b.HeldEnd().UTC(), State: b.State,
		Tags: maps.Clone(b.Tags)}}
	if b.Source == model.SourceTrainingPlan {
		it.res.ID, it.res.Name = cmp.Or(b.ARN, b.ReservationID), b.ReservationID
		for _, p := range b.Parts {
			it.parts = append(it.parts, part{p.Start, p.End, p.Count})
		}
		if len(b.Parts) > 0 {
			it.res.Count = slices.MaxFunc(b.Parts, func(a, b model.Part) int { return cmp.Compare(a.Count, b.Count) }).Count
		}
		it.metric = planMetric(b.ReservationID)
	} else {
		it.metric = blockMetric(b.ReservationID)
	}
	if len(it.parts) == 0 {
		it.parts = []part{{b.Start, b.End, b.TotalCount}}
	}
	for _, x := range b.Extensions {
		if x.Status == model.ExtensionPaymentPending && x.End.After(b.End) {
			it.parts = append(it.parts, part{maxTime(x.Start, b.End), x.End, cmp.Or(x.Count, b.TotalCount)})
		}
	}
	for _, p := range it.parts {
		it.res.ReservedHours += float64(p.count) * hours(p.end.Sub(p.start))
	}
	return it
}

func hours(d time.Duration) float64 { return d.Hours() }
