// Package paid is what this machine's journal says was paid for each reservation: its
// purchase and its extensions that went through, read once for the listings' fees and for
// the report.
package paid

import (
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Index is the journal's purchases and extensions that went through, by what they bought:
// a reservation id, a plan's ARN. An emulator started afresh hands out the same ids again,
// so one id may have several histories, oldest first; the block's request tag tells them
// apart.
type Index map[string][]*History

// History is what the journal says was bought for one reservation since its purchase.
type History struct {
	RequestID  string   // the purchase's; "" when it was not bought here
	Purchase   *Payment // nil: bought elsewhere, extended here
	Entry      source.JournalEntry
	Source     model.Source
	Extensions []Payment
	// Group are every reservation of a purchase that made several (one per segment of a
	// segmented offering), and Segments what its intent recorded of them: Of gives each
	// reservation its own segment's fee.
	Group    []string
	Segments []source.JournalSegment
}

// Payment is one purchase or extension the journal recorded as bought.
type Payment struct {
	At       time.Time // the backend's clock at the intent when recorded, else the outcome's time
	Fee      model.Money
	Offering string
	End      time.Time // the reservation's end it bought, when recorded
}

// Read indexes the entries' purchases and extensions of the sources whose intents are
// given.
func Read(entries []source.JournalEntry, intents ...source.IntentSource) Index {
	type kind struct {
		src      model.Source
		purchase bool
	}
	actions := map[string]kind{}
	for _, is := range intents {
		actions[is.Purchase] = kind{is.Source, true}
		actions[is.Extend] = kind{is.Source, false}
	}
	// The backend's clock at the intent (an emulator's clock may be far from this machine's).
	intentAt := map[string]time.Time{}
	segments := map[string][]source.JournalSegment{}
	for _, e := range entries {
		if e.Phase == "intent" && e.BackendTime != nil {
			intentAt[e.RequestID] = e.BackendTime.UTC()
		}
		if e.Phase == "intent" && len(e.Segments) > 0 {
			segments[e.RequestID] = e.Segments
		}
	}
	j := Index{}
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
		p := Payment{At: at, Fee: fee, Offering: e.Offering}
		if e.End != nil {
			p.End = e.End.UTC()
		}
		if k.purchase {
			ids := e.ResultIDs()
			for _, id := range ids {
				h := &History{RequestID: e.RequestID, Purchase: &p, Entry: e, Source: k.src}
				if len(ids) > 1 {
					h.Group, h.Segments = ids, segments[e.RequestID]
				}
				j[id] = append(j[id], h)
			}
			continue
		}
		if e.Target == "" {
			continue
		}
		if len(j[e.Target]) == 0 { // extended here, bought elsewhere
			j[e.Target] = []*History{{Source: k.src}}
		}
		h := j[e.Target][len(j[e.Target])-1]
		h.Extensions = append(h.Extensions, p)
	}
	return j
}

// Of is the history that belongs to block b: the one whose purchase b's request tag names;
// the latest when b carries no tag (bought before tags, or not listed); nil when the
// journal has none, or b was bought by a request this journal does not hold, whose fee is
// not known here.
func (j Index) Of(b model.Block) *History {
	hs := j[b.ReservationID]
	if b.ARN != "" && len(j[b.ARN]) > 0 {
		hs = j[b.ARN]
	}
	if len(hs) == 0 {
		return nil
	}
	latest := hs[len(hs)-1]
	tag := b.Tags[awsapi.RequestIDTag]
	if tag == "" {
		return latest.share(b)
	}
	for _, h := range hs {
		if h.RequestID == tag {
			return h.share(b)
		}
	}
	if latest.RequestID == "" {
		return latest // only extensions were made here
	}
	return nil
}

// share is h as it belongs to b, one reservation of a purchase that made several: the
// purchase's fee is the fee of b's own segment (the one of b's zone, type, count and
// start). When no single segment is b's, the whole fee goes to the purchase's first
// reservation and the others' fees are unknown (no purchase here), so that a group's fee
// is never counted twice.
func (h *History) share(b model.Block) *History {
	if len(h.Group) < 2 || h.Purchase == nil {
		return h
	}
	var match *source.JournalSegment
	n := 0
	for i, sg := range h.Segments {
		if sg.Zone == b.AvailabilityZone && sg.Type == b.InstanceType && sg.Count == b.TotalCount &&
			(b.Start.IsZero() || sg.Start.Equal(b.Start)) {
			match, n = &h.Segments[i], n+1
		}
	}
	out := *h
	if fee, err := model.ParseMoney(safeFee(match)); n == 1 && err == nil {
		p := *h.Purchase
		p.Fee = fee
		out.Purchase = &p
		return &out
	}
	if b.ReservationID != h.Group[0] {
		out.Purchase = nil
	}
	return &out
}

func safeFee(sg *source.JournalSegment) string {
	if sg == nil {
		return ""
	}
	return sg.Fee
}
