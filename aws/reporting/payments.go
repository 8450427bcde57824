package reporting

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// The fees paid, as AWS states them and as this machine's journal recorded them. AWS states
// no fee for a Capacity Block once bought (only its offering had one), but it states each
// extension's (DescribeCapacityBlockExtensionHistory), a training plan's (UpfrontFee) and
// each of a plan's extensions' (DescribeTrainingPlanExtensionHistory). The journal has
// what this machine bought and extended. Where both speak they are compared.

// journalIndex is the journal's purchases and extensions that went through, by what they
// bought: a reservation id, a plan's ARN.
type journalIndex struct {
	hist map[string][]*history
}

// history is what the journal says was bought for one reservation since its purchase. An
// emulator started afresh hands out the same ids again, so one id may have several; the
// block's request tag tells them apart.
type history struct {
	requestID string // the purchase's; "" when it was not bought here
	purchase  *paid  // nil: bought elsewhere, extended here
	entry     source.JournalEntry
	src       model.Source
	exts      []paid
}

type paid struct {
	at       time.Time
	fee      model.Money
	offering string
	end      time.Time
}

// readJournal reads this client's journal (its backend's entries) into an index. A
// missing journal is an empty one.
func readJournal(c *awsapi.Client, srcs []source.Source) (journalIndex, error) {
	j := journalIndex{hist: map[string][]*history{}}
	entries, _, err := c.Journal() // skips a torn or damaged line
	if err != nil {
		return j, err
	}
	type kind struct {
		src      model.Source
		purchase bool
	}
	actions := map[string]kind{}
	for _, s := range srcs {
		is := s.Intents()
		actions[is.Purchase] = kind{is.Source, true}
		actions[is.Extend] = kind{is.Source, false}
	}
	// The backend's clock at the intent, when the journal has it (an emulator's clock may
	// be far from this machine's), else the time the outcome was written.
	intentAt := map[string]time.Time{}
	for _, e := range entries {
		if e.Phase == "intent" && e.BackendTime != nil {
			intentAt[e.RequestID] = e.BackendTime.UTC()
		}
	}
	for _, e := range entries {
		k, ok := actions[e.Action]
		if !ok || e.Phase != "outcome" || e.Outcome != string(source.Bought) {
			continue
		}
		fee, err := model.ParseMoney(e.Fee)
		if err != nil {
			continue
		}
		at, ok := intentAt[e.RequestID]
		if !ok {
			at = e.Time.UTC()
		}
		p := paid{at: at, fee: fee, offering: e.Offering}
		if e.End != nil {
			p.end = e.End.UTC()
		}
		if k.purchase {
			if e.Result == "" {
				continue
			}
			j.hist[e.Result] = append(j.hist[e.Result], &history{requestID: e.RequestID, purchase: &p, entry: e, src: k.src})
			continue
		}
		if e.Target == "" {
			continue
		}
		hs := j.hist[e.Target]
		if len(hs) == 0 { // extended here, bought elsewhere
			hs = []*history{{src: k.src}}
			j.hist[e.Target] = hs
		}
		h := hs[len(hs)-1]
		h.exts = append(h.exts, p)
	}
	return j, nil
}

// historyOf is the history that belongs to block b: the one whose purchase b's request tag
// names; the latest when b carries no tag; nil when the journal has none, or b was bought
// by a request this journal does not hold.
func (j journalIndex) historyOf(b model.Block) *history {
	hs := j.hist[b.ReservationID]
	if b.ARN != "" && len(j.hist[b.ARN]) > 0 {
		hs = j.hist[b.ARN]
	}
	if len(hs) == 0 {
		return nil
	}
	latest := hs[len(hs)-1]
	tag := b.Tags[awsapi.RequestIDTag]
	if tag == "" {
		return latest
	}
	for _, h := range hs {
		if h.requestID == tag {
			return h
		}
	}
	if latest.requestID == "" {
		return latest // only extensions were made here
	}
	return nil
}

// payments are every payment of block b on record: its purchase, known or not, and each
// extension that was not refused payment. historyKnown is false when AWS's extension
// history of b could not be read, so that one only the journal has is not a disagreement.
func (j journalIndex) payments(b model.Block, historyKnown bool) []report.Payment {
	h := j.historyOf(b)
	buy := report.Payment{Kind: report.Purchase, At: b.Created.UTC()}
	// SageMaker states a plan's fee; EC2 states none for a block once bought.
	awsStates := b.Source == model.SourceTrainingPlan && (b.Currency != "" || !b.Fee.IsZero())
	var journal *paid
	if h != nil {
		journal = h.purchase
	}
	switch {
	case awsStates:
		buy.Amount, buy.Known, buy.Origin = b.Fee, true, report.FromAWS
		if journal != nil {
			buy.Origin, buy.Mismatch = compare(b.Fee, journal.fee)
		}
	case journal != nil:
		buy.Amount, buy.Known, buy.Origin = journal.fee, true, report.FromJournal
	}
	if buy.At.IsZero() && journal != nil {
		buy.At = journal.at
	}
	out := []report.Payment{buy}

	var exts []paid
	if h != nil {
		exts = slices.Clone(h.exts)
	}
	take := func(offering string) *paid {
		i := slices.IndexFunc(exts, func(p paid) bool { return p.offering == offering && offering != "" })
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
			pay.Origin, pay.Mismatch = compare(x.Fee, jp.fee)
			if pay.At.IsZero() {
				pay.At = jp.at
			}
		}
		out = append(out, pay)
	}
	for _, jp := range exts {
		pay := report.Payment{Kind: report.Extension, At: jp.at, Amount: jp.fee, Known: true, Origin: report.FromJournal}
		if historyKnown {
			pay.Mismatch = "this machine's journal recorded an extension (" + jp.fee.Dollars() + ") that AWS's extension history does not list"
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
func (j journalIndex) unlisted(backend, account string, regions []string, listed map[string]bool, now time.Time) []*item {
	if backend != awsapi.BackendAWS || account == "" {
		return nil
	}
	var out []*item
	for id, hs := range j.hist {
		h := hs[len(hs)-1]
		e := h.entry
		if listed[id] || h.purchase == nil || e.Account != account || !slices.Contains(regions, e.Region) || e.Start == nil || e.End == nil {
			continue
		}
		b := model.Block{Source: h.src, ReservationID: id, Region: e.Region, AvailabilityZone: e.Zone, InstanceType: e.Type,
			TotalCount: e.Count, Start: e.Start.UTC(), End: e.End.UTC(), Tags: e.Tags}
		if h.src == model.SourceTrainingPlan {
			b.ARN, b.ReservationID = id, id[strings.LastIndex(id, "/")+1:]
		}
		for _, x := range h.exts {
			b.End = maxTime(b.End, x.end)
		}
		it := newItem(b, account)
		it.res.State = ""
		if !b.End.After(now) {
			it.res.State = model.StateExpired
		}
		it.res.Payments = append(it.res.Payments, report.Payment{Kind: report.Purchase, At: h.purchase.at, Amount: h.purchase.fee, Known: true, Origin: report.FromJournal})
		for _, x := range h.exts {
			it.res.Payments = append(it.res.Payments, report.Payment{Kind: report.Extension, At: x.at, Amount: x.fee, Known: true, Origin: report.FromJournal})
		}
		out = append(out, it)
	}
	slices.SortFunc(out, func(a, b *item) int { return cmp.Or(a.res.Start.Compare(b.res.Start), cmp.Compare(a.res.ID, b.res.ID)) })
	return out
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
