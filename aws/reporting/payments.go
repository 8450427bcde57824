package reporting

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/paid"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// The fees paid, as AWS states them and as this machine's journal recorded them. AWS states
// no fee for a Capacity Block once bought (only its offering had one), but it states each
// extension's (DescribeCapacityBlockExtensionHistory), a training plan's (UpfrontFee) and
// each of a plan's extensions' (DescribeTrainingPlanExtensionHistory). The journal has
// what this machine bought and extended. Where both speak they are compared.

// journalIndex is this client's journal (its backend's entries) read by paid; a missing
// journal is an empty one.
type journalIndex struct{ paid.Index }

func readJournal(c *awsapi.Client, srcs []source.Source) (journalIndex, error) {
	entries, _, err := c.Journal() // skips a torn or damaged line
	if err != nil {
		return journalIndex{paid.Index{}}, err
	}
	intents := make([]source.IntentSource, len(srcs))
	for i, s := range srcs {
		intents[i] = s.Intents()
	}
	return journalIndex{paid.Read(entries, intents...)}, nil
}

// payments are every payment of block b on record: its purchase, known or not, and each
// extension that was not refused payment. historyKnown is false when AWS's extension
// history of b could not be read, so that one only the journal has is not a disagreement.
func (j journalIndex) payments(b model.Block, historyKnown bool) []report.Payment {
	h := j.Of(b)
	buy := report.Payment{Kind: report.Purchase, At: b.Created.UTC()}
	// SageMaker states a plan's fee; EC2 states none for a block once bought.
	awsStates := b.Source == model.SourceTrainingPlan && (b.Currency != "" || !b.Fee.IsZero())
	var journal *paid.Payment
	if h != nil {
		journal = h.Purchase
	}
	switch {
	case awsStates:
		buy.Amount, buy.Known, buy.Origin = b.Fee, true, report.FromAWS
		if journal != nil {
			buy.Origin, buy.Mismatch = compare(b.Fee, journal.Fee)
		}
	case journal != nil:
		buy.Amount, buy.Known, buy.Origin = journal.Fee, true, report.FromJournal
	}
	if buy.At.IsZero() && journal != nil {
		buy.At = journal.At
	}
	out := []report.Payment{buy}

	var exts []paid.Payment
	if h != nil {
		exts = slices.Clone(h.Extensions)
	}
	take := func(offering string) *paid.Payment {
		i := slices.IndexFunc(exts, func(p paid.Payment) bool { return p.Offering == offering && offering != "" })
		if i < 0 {
			return nil
		}
		p := exts[i]
		exts = slices.Delete(exts, i, i+1)
		return &p
	}
	for _, x := range b.Extensions {
		jp := take(x.OfferingID)
		if x.Status == model.ExtensionPaymentFailed {
			continue // refused payment: nothing was charged
		}
		pay := report.Payment{Kind: report.Extension, At: x.PurchaseDate.UTC(), Amount: x.Fee, Known: true, Origin: report.FromAWS}
		if jp != nil {
			pay.Origin, pay.Mismatch = compare(x.Fee, jp.Fee)
			if pay.At.IsZero() {
				pay.At = jp.At
			}
		}
		out = append(out, pay)
	}
	for _, jp := range exts {
		pay := report.Payment{Kind: report.Extension, At: jp.At, Amount: jp.Fee, Known: true, Origin: report.FromJournal}
		if historyKnown {
			pay.Mismatch = "this machine's journal recorded an extension (" + jp.Fee.Dollars() + ") that AWS's extension history does not list"
		}
		out = append(out, pay)
	}
	return out
}

// compare is the origin of an amount AWS states that the journal also recorded, and the
// sentence of their disagreement.
func compare(aws, journal model.Money) (report.Origin, string) {
	if aws.Cmp(journal) == 0 {
		return report.FromBoth, ""
	}
	return report.FromAWS, fmt.Sprintf("AWS states %s; this machine's journal recorded %s", aws.Dollars(), journal.Dollars())
}

// unlisted are the reservations this machine bought, in account and one of regions, that
// AWS does not list: an expired reservation drops out of AWS's listings after a while,
// while its fee was paid and its use is still published. Their window and fees are the
// journal's. Only a journal of AWS's is read so: an emulator started afresh (the demo's)
// has forgotten what an earlier one sold, which was never bought.
//
// A purchase that made several reservations (one per segment) whose reservations AWS no
// longer lists, or lists only some of (consecutive segments end at different times), has
// one row for those it does not list: the journal records the purchase's segments and its
// reservations' ids, but not which id became which segment. The segments the listed
// reservations are not are theirs, and so is the purchase's fee less what the listed ones
// were given (paid.Index.Of), so that the purchase's fee is counted once. The row is under
// the first unlisted id, with every id of the purchase in its group; its use is read only
// when it is one reservation.
func (j journalIndex) unlisted(backend, account string, regions []string, listed []model.Block, now time.Time) []*item {
	if backend != awsapi.CloudAWS || account == "" {
		return nil
	}
	byID := map[string]model.Block{}
	for _, b := range listed {
		byID[b.ReservationID] = b
		if b.ARN != "" {
			byID[b.ARN] = b
		}
	}
	var out []*item
	for id, hs := range j.Index {
		h := hs[len(hs)-1]
		e := h.Entry
		if _, ok := byID[id]; ok || h.Purchase == nil || e.Account != account || !slices.Contains(regions, e.Region) || e.Start == nil || e.End == nil {
			continue
		}
		group := len(h.Group) > 1
		var missing []string // the group's ids AWS does not list
		for _, g := range h.Group {
			if _, ok := byID[g]; !ok {
				missing = append(missing, g)
			}
		}
		if group && id != missing[0] {
			continue // the row of the group's unlisted ids is its first one's
		}
		b := model.Block{Source: h.Source, ReservationID: id, Region: e.Region, AvailabilityZone: e.Zone, InstanceType: e.Type,
			TotalCount: e.Count, Start: e.Start.UTC(), End: e.End.UTC(), Tags: e.Tags}
		if h.Source == model.SourceTrainingPlan {
			b.ARN, b.ReservationID = id, id[strings.LastIndex(id, "/")+1:]
		}
		exts := h.Extensions
		if group {
			exts = nil
			for _, g := range missing {
				if gh := j.historyOf(g, h.RequestID); gh != nil {
					exts = append(exts, gh.Extensions...)
				}
			}
		}
		for _, x := range exts {
			b.End = maxTime(b.End, x.End)
		}
		it := newItem(b, account)
		fee := h.Purchase.Fee
		if group {
			fee = j.groupRow(it, h, listed, byID, missing)
		}
		it.res.State = ""
		if !it.res.End.After(now) {
			it.res.State = model.StateExpired
		}
		it.res.Payments = append(it.res.Payments, report.Payment{Kind: report.Purchase, At: h.Purchase.At, Amount: fee, Known: true, Origin: report.FromJournal})
		for _, x := range exts {
			it.res.Payments = append(it.res.Payments, report.Payment{Kind: report.Extension, At: x.At, Amount: x.Fee, Known: true, Origin: report.FromJournal})
		}
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b *item) int { return cmp.Or(a.res.Start.Compare(b.res.Start), cmp.Compare(a.res.ID, b.res.ID)) })
	return out
}

// historyOf is the history of reservation id that the purchase requestID made.
func (j journalIndex) historyOf(id, requestID string) *paid.History {
	for _, h := range j.Index[id] {
		if h.RequestID == requestID {
			return h
		}
	}
	return nil
}

// groupRow makes it the row of the reservations of purchase h that AWS does not list
// (missing; see unlisted): the segments the listed ones are not, every id of the purchase
// in its group. Its fee is the purchase's less what each listed reservation was given.
func (j journalIndex) groupRow(it *item, h *paid.History, listed []model.Block, byID map[string]model.Block, missing []string) model.Money {
	var member *model.Block
	for _, g := range h.Group {
		if b, ok := byID[g]; ok {
			member = &b
			break
		}
	}
	it.res.Group = purchaseGroup(listed, member, h.Group)
	if len(missing) > 1 {
		it.metric = nil
	}
	fee := h.Purchase.Fee
	left := slices.Clone(h.Segments)
	for _, g := range h.Group {
		b, ok := byID[g]
		if !ok {
			continue
		}
		if bh := j.Of(b); bh != nil && bh.Purchase != nil {
			fee = fee.Sub(bh.Purchase.Fee)
		}
		if i := slices.IndexFunc(left, func(sg source.JournalSegment) bool {
			return sg.Zone == b.AvailabilityZone && sg.Type == b.InstanceType && sg.Count == b.TotalCount && sg.Start.Equal(b.Start)
		}); i >= 0 {
			left = slices.Delete(left, i, i+1)
		}
	}
	if len(left) == 0 {
		return fee
	}
	it.parts, it.res.ReservedHours = nil, 0
	it.res.Start, it.res.End = left[0].Start.UTC(), left[0].End.UTC()
	if len(left) == 1 {
		it.res.InstanceType, it.res.Count = left[0].Type, left[0].Count
	}
	for _, sg := range left {
		it.parts = append(it.parts, part{sg.Start.UTC(), sg.End.UTC(), sg.Count})
		it.res.ReservedHours += float64(sg.Count) * hours(sg.End.Sub(sg.Start))
		it.res.Start, it.res.End = minTime(it.res.Start, sg.Start.UTC()), maxTime(it.res.End, sg.End.UTC())
	}
	return fee
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
