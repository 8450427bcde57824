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

// SpreadLaunch shares count instances among a purchase's reservations, one at a time in
// turn to each that has room (its available count), so that a launch across a group is
// as even as the free capacity allows: 10 over 8 + 8 free is 5 + 5, over 8 + 2 is 8 + 2.
// The error says how many are free when the group holds fewer than count.
func SpreadLaunch(group []Block, count int) ([]int, error) {
	free := 0
	for _, b := range group {
		free += max(0, b.AvailableCount)
	}
	if count < 1 || count > free {
		return nil, fmt.Errorf("the %d reservations of this purchase have %d instances free, not %d", len(group), free, count)
	}
	shares := make([]int, len(group))
	for left := count; left > 0; {
		for i, b := range group {
			if left > 0 && shares[i] < b.AvailableCount {
				shares[i]++
				left--
			}
		}
	}
	return shares, nil
}
