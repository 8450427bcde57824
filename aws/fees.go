package aws

import (
	"github.com/gpublock/gpublock/model"
)

// FeesPaid is what this machine's purchase journal says was paid for each listed block
// (its purchase and its extensions), by reservation id, less what AWS lists as
// payment-failed: a failed block or extension charges nothing, though the journal recorded
// it as bought when the call answered. A block bought elsewhere is absent (AWS's
// reservation carries no fee); a missing or unreadable journal gives nil, not an error.
func (c *Client) FeesPaid(blocks []model.Block) map[string]model.Money {
	p, err := c.JournalPath()
	if err != nil {
		return nil
	}
	return paidFees(blocks, readJournalFees(p))
}

// journalPaid is what the journal says was bought for one reservation.
type journalPaid struct {
	purchase   model.Money
	extensions map[string]model.Money // by extension offering id
}

// readJournalFees reads the journal's bought purchases and extensions per reservation.
func readJournalFees(path string) map[string]*journalPaid {
	entries, _, err := ReadJournal(path) // skips a torn or damaged line
	if err != nil || entries == nil {
		return nil
	}
	paid := map[string]*journalPaid{}
	for _, e := range entries {
		if e.Phase != "outcome" || e.Outcome != string(Bought) {
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
		if e.Action == "PurchaseCapacityBlock" || paid[id] == nil {
			// A purchase starts its reservation's history. The demo's emulator, started afresh
			// (its state file deleted), hands out the same reservation ids again, and the
			// journal keeps the old reservation's lines: they are not this block's.
			paid[id] = &journalPaid{extensions: map[string]model.Money{}}
		}
		if e.Action == "PurchaseCapacityBlock" {
			paid[id].purchase = fee
			continue
		}
		paid[id].extensions[e.Offering] = paid[id].extensions[e.Offering].Add(fee)
	}
	return paid
}

func paidFees(blocks []model.Block, paid map[string]*journalPaid) map[string]model.Money {
	if paid == nil {
		return nil
	}
	byID := map[string]model.Block{}
	for _, b := range blocks {
		byID[b.ReservationID] = b
	}
	fees := map[string]model.Money{}
	for id, p := range paid {
		b, listed := byID[id]
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
