package capacityblocks

import (
	"github.com/gpublock/gpublock/aws/paid"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// FeesPaid is what this machine's purchase journal says was paid for each listed block
// (its purchase and its extensions), by source.FeeKey, less what AWS lists as
// payment-failed: a failed block or extension charges nothing, though the journal recorded
// it as bought when the call answered. A block bought elsewhere is absent (AWS's
// reservation carries no fee); a missing or unreadable journal gives nil, not an error.
func (c *Client) FeesPaid(blocks []model.Block) map[string]model.Money {
	entries, _, err := c.api.Journal() // skips a torn or damaged line
	if err != nil || entries == nil {
		return nil
	}
	return paidFees(blocks, paid.Read(entries, c.Intents()))
}

func paidFees(blocks []model.Block, j paid.Index) map[string]model.Money {
	byID := map[string]model.Block{}
	for _, b := range blocks {
		byID[b.ReservationID] = b
	}
	fees := map[string]model.Money{}
	for id := range j {
		b, listed := byID[id]
		if !listed {
			b = model.Block{ReservationID: id}
		}
		h := j.Of(b)
		if h == nil {
			continue
		}
		var total model.Money
		if h.Purchase != nil && b.State != model.StatePaymentFailed {
			total = h.Purchase.Fee
		}
		for _, x := range h.Extensions {
			if !extensionPaymentFailed(b, x.Offering) {
				total = total.Add(x.Fee)
			}
		}
		fees[source.FeeKey(b)] = total
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
