package model

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// PurchaseTag is the tag gpublock puts on every reservation a purchase makes, its value
// the purchase's request id. A segmented offering's purchase makes one reservation per
// segment, all with the one request id: the tag is what makes them one group again in
// every listing, launch and hand-off.
const PurchaseTag = "gpublock:request-id"

// PurchaseID is the request id of the purchase that made b, "" when gpublock did not buy it.
func (b Block) PurchaseID() string { return b.Tags[PurchaseTag] }

// Group is the reservations among blocks that one purchase made together with b, b
// included, ordered by start (consecutive segments in their order), zone, then id; b alone when it belongs to no purchase of gpublock's,
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
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
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

// SpreadLaunch shares count instances among a purchase's reservations, count being how
// many run at once. Reservations that start together (segments side by side in several
// zones) share it, one instance at a time in turn to each that has room (its FreeCount),
// so that it is as even as the free capacity allows: 10 over 8 + 8 free is 5 + 5, over
// 8 + 2 is 8 + 2. Reservations that start at different times (consecutive segments, the
// capacity moving from one to the next) each take the whole count again in their own
// window. The error says how many are free when a window holds fewer than count.
func SpreadLaunch(group []Block, count int) ([]int, error) {
	shares := make([]int, len(group))
	for _, stage := range launchStages(group) {
		free := 0
		for _, i := range stage {
			free += group[i].FreeCount()
		}
		if count < 1 || count > free {
			if len(stage) == len(group) {
				return nil, fmt.Errorf("the %d reservations of this purchase have %d instances free, not %d", len(group), free, count)
			}
			return nil, fmt.Errorf("the %d reservations of this purchase from %s have %d instances free, not %d",
				len(stage), BothTimes(group[stage[0]].Start, nil), free, count)
		}
		for left := count; left > 0; {
			for _, i := range stage {
				if left > 0 && shares[i] < group[i].FreeCount() {
					shares[i]++
					left--
				}
			}
		}
	}
	return shares, nil
}

// launchStages are group's indexes by start, earliest first: the reservations of one
// stage run side by side.
func launchStages(group []Block) [][]int {
	var starts []time.Time
	by := map[time.Time][]int{}
	for i, b := range group {
		t := b.Start.UTC()
		if _, ok := by[t]; !ok {
			starts = append(starts, t)
		}
		by[t] = append(by[t], i)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].Before(starts[j]) })
	out := make([][]int, len(starts))
	for i, t := range starts {
		out[i] = by[t]
	}
	return out
}

// GroupLaunchMost is the most instances a launch across group can run at once: the free
// count of its window with the fewest free.
func GroupLaunchMost(group []Block) int {
	most := -1
	for _, stage := range launchStages(group) {
		free := 0
		for _, i := range stage {
			free += group[i].FreeCount()
		}
		if most < 0 || free < most {
			most = free
		}
	}
	return max(0, most)
}

// LaunchShare is one reservation's part of a launch across its purchase's group.
type LaunchShare struct {
	Block Block
	Count int
}

// GroupLaunch is a launch of count instances across group, the reservations one purchase
// made, as both front ends do it: SpreadLaunch's shares, the reservations given none left
// out. Each share is then a launch into its own reservation, checked as any is.
func GroupLaunch(group []Block, count int) ([]LaunchShare, error) {
	counts, err := SpreadLaunch(group, count)
	if err != nil {
		return nil, err
	}
	var out []LaunchShare
	for i, b := range group {
		if counts[i] > 0 {
			out = append(out, LaunchShare{Block: b, Count: counts[i]})
		}
	}
	return out, nil
}

// ShareWords is how a launch is shared: "5 into cr-a (us-east-1a), 5 into cr-b (us-east-1b)".
func ShareWords(shares []LaunchShare) string {
	out := make([]string, len(shares))
	for i, s := range shares {
		out[i] = fmt.Sprintf("%d into %s (%s)", s.Count, s.Block.ReservationID, s.Block.AvailabilityZone)
	}
	return strings.Join(out, ", ")
}
