package capacityblocks

import (
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// FeesPaid is what this machine's purchase journal says was paid for each listed block
// (its purchase and its extensions), by reservation id, less what AWS lists as
// payment-failed: a failed block or extension charges nothing, though the journal recorded
// it as bought when the call answered. A block bought elsewhere is absent (AWS's
// reservation carries no fee); a missing or unreadable journal gives nil, not an error.
func (c *Client) FeesPaid(blocks []model.Block) map[string]model.Money {
	p, err := c.api.JournalPath()
	if err != nil {
		return nil
	}
	return paidFees(blocks, readJournalFees(p))
}

// journalPaid is what the journal says was bought for one reservation since its purchase.
type journalPaid struct {
	requestID  string // the purchase's request id, which its block carries as a tag; "" when not bought here
	purchase   model.Money
	extensions map[string]model.Money // by extension offering id
}

// readJournalFees reads the journal's bought purchases and extensions: each reservation
// id's histories, oldest first. An emulator started afresh (the demo's, or gpublock sim
// beside it) hands out the same reservation ids again, so one id may have several
// purchases; each starts a history of its own, and the block's request tag tells them apart.
func readJournalFees(path string) map[string][]*journalPaid {
	entries, _, err := awsapi.ReadJournal(path) // skips a torn or damaged line
	if err != nil || entries == nil {
		return nil
	}
	paid := map[string][]*journalPaid{}
	for _, e := range entries {
		if e.Phase != "outcome" || e.Outcome != string(source.Bought) {
			continue
		}
		id := e.Result
		if e.Action == "PurchaseCapacityBlockExtension" {
			id = e.Target
		}
		fee, err := model.ParseMoney(e.Fee)
		if id == "" || err != nil {
			continue
		}
		if e.Action == "PurchaseCapacityBlock" {
			paid[id] = append(paid[id], &journalPaid{requestID: e.RequestID, purchase: fee, extensions: map[string]model.Money{}})
			continue
		}
		if len(paid[id]) == 0 { // extended here, bought elsewhere
			paid[id] = []*journalPaid{{extensions: map[string]model.Money{}}}
		}
		h := paid[id][len(paid[id])-1]
		h.extensions[e.Offering] = h.extensions[e.Offering].Add(fee)
	}
	return paid
}

// historyOf is the history that belongs to block b: the one whose purchase b's request tag
// names; the latest when b carries no tag (bought before tags, or not listed); nil when b
// was bought by a request this journal does not hold, whose fee is not known here.
func historyOf(b model.Block, listed bool, hs []*journalPaid) *journalPaid {
	latest := hs[len(hs)-1]
	tag := b.Tags[awsapi.RequestIDTag]
	if !listed || tag == "" {
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

func paidFees(blocks []model.Block, paid map[string][]*journalPaid) map[string]model.Money {
	if paid == nil {
		return nil
	}
	byID := map[string]model.Block{}
	for _, b := range blocks {
		byID[b.ReservationID] = b
	}
	fees := map[string]model.Money{}
	for id, hs := range paid {
		b, listed := byID[id]
		p := historyOf(b, listed, hs)
		if p == nil {
			continue
		}
		var total model.Money
		if !listed || b.State != model.StatePaymentFailed {
			total = p.purchase
		}
		for off, fee := range p.extensions {
			if !extensionPaymentFailed(b, off) {
				total = total.Add(fee)
			}
		}
		fees[id] = total
	}
	return fees
}

func extensionPaymentFailed(b model.Block, offeringID string) bool {
	for _, x := range b.Extensions {
		if x.OfferingID == offeringID && x.Status == model.ExtensionPaymentFailed {
			return true
		}
	}
	return false
}
