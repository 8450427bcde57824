package model

import (
	"fmt"
	"sort"
	"strings"
)

// PurchaseTag is the tag gpublock puts on every reservation a purchase makes, its value
// the purchase's request id. A segmented offering's purchase makes one reservation per
// segment, all with the one request id: the tag is what makes them one group again in
// every listing, launch and hand-off.
const PurchaseTag = "gpublock:request-id"

// PurchaseID is the request id of the purchase that made b, "" when gpublock did not buy it.
func (b Block) PurchaseID() string { return b.Tags[PurchaseTag] }

// Group is the reservations among blocks that one purchase made together with b, b
// included, ordered by zone then id; b alone when it belongs to no purchase of gpublock's,
// or the purchase made only b.
func Group(blocks []Block, b Block) []Block {
	id := b.PurchaseID()
	if id == "" || b.Source != SourceCapacityBlock {
		return []Block{b}
	}
	var out []Block
	for _, o := range blocks {
		if o.Source == SourceCapacityBlock && o.Region == b.Region && o.PurchaseID() == id {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return []Block{b}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].AvailabilityZone != out[j].AvailabilityZone {
			return out[i].AvailabilityZone < out[j].AvailabilityZone
		}
		return out[i].ReservationID < out[j].ReservationID
	})
	return out
}

// GroupIDs are the reservations' ids, comma-separated, as the journal records a purchase's.
func GroupIDs(bs []Block) string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ReservationID
	}
	return strings.Join(ids, ",")
}

// GroupMark is b's place in its purchase's group, "1 of 2", or "" when the purchase made
// only b.
func GroupMark(blocks []Block, b Block) string {
	g := Group(blocks, b)
	if len(g) < 2 {
		return ""
	}
	for i, o := range g {
		if o.ReservationID == b.ReservationID {
			return fmt.Sprintf("%d of %d", i+1, len(g))
		}
	}
	return ""
}
