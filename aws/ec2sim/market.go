package ec2sim

import (
	"sort"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// publishedRates are the Capacity Block effective rates per instance-hour (per
// UltraServer-hour for UltraServers) that the market moves prices around, keyed by
// type|region: the newest published figure of the embedded pricing catalog, the one
// gpublock itself compares with. Never a refreshed cache, so the market stays a function
// of seed and clock alone.
var publishedRates = sync.OnceValue(func() map[string]model.Money {
	cat := pricing.Embedded()
	out := map[string]model.Money{}
	for _, t := range model.Catalog() {
		for r := range regions {
			if row, ok := cat.CapacityBlockRate(t.Name, r); ok && row.Hourly.Micros() > 0 {
				out[t.Name+"|"+r] = row.Hourly
			}
		}
	}
	return out
})

// publishedRate is the rate of a type in a region; false when the catalog has none, and
// then the type is not offered there.
func publishedRate(typ, region string) (model.Money, bool) {
	m, ok := publishedRates()[typ+"|"+region]
	return m, ok
}

// supplyRange is how many units (instances, or UltraServers) one AZ may have free for a
// type on one day before anyone buys: the scarcer and newer the type, the fewer.
var supplyRange = map[string][2]int{
	"p4d.24xlarge":     {8, 64},
	"p4de.24xlarge":    {4, 32},
	"p5.4xlarge":       {8, 64},
	"p5.48xlarge":      {6, 48},
	"p5e.48xlarge":     {4, 32},
	"p5en.48xlarge":    {6, 40},
	"p6-b200.48xlarge": {2, 32},
	"p6-b300.48xlarge": {2, 16},
	"trn1.32xlarge":    {8, 64},
	"trn2.48xlarge":    {4, 32},
	"u-p6e-gb200x36":   {0, 3},
	"u-p6e-gb200x72":   {0, 2},
}

const (
	maxOfferings      = model.OfferingsPerAnswer
	maxPerStart       = 2 // spread the six over several start days, as the console does
	outagePercent     = 6 // share of AZ-days with nothing free at all
	minNearTermLength = time.Hour
)

// slotOf is the market day t falls in, and supplyKey where the units bought of a type in
// an AZ on a day are counted: the core's rules, which every market shares.
func slotOf(t time.Time) int64 { return simcore.MarketDay(t) }

func supplyKey(az, typ string, slot int64) string { return simcore.SupplyKey(az, typ, slot) }

// carries reports whether an AZ has the type at all. At least one AZ of a region that
// sells a type carries it.
func (s *Server) carries(region string, zones []zone, az, typ string) bool {
	if localZoneSells(region, az, typ) {
		return true
	}
	first, best := "", uint64(0)
	for _, z := range zones {
		if v := s.hash.Sum("first-az", region, typ, z.Name); first == "" || v < best {
			first, best = z.Name, v
		}
	}
	return az == first || s.hash.Sum("carries", region, az, typ)%100 < 65
}

// free is how many units of a type an AZ still has on a market day.
func (s *Server) free(rs *regionState, region, az, typ string, slot int64, now time.Time) int {
	r := supplyRange[typ]
	n := s.hash.Between(r[0], r[1], "supply", region, az, typ, slot)
	if s.hash.Sum("outage", region, az, typ, slot)%100 < outagePercent {
		n = 0
	}
	// Days close to now are mostly sold already.
	switch lead := slot - slotOf(now); {
	case lead <= 1:
		n = n * 25 / 100
	case lead <= 3:
		n = n * 60 / 100
	}
	n -= rs.Consumed[supplyKey(az, typ, slot)]
	if n < 0 {
		n = 0
	}
	return n
}

// freeOver is the smallest free supply over every market day that [start, end) touches.
func (s *Server) freeOver(rs *regionState, region, az, typ string, start, end time.Time, now time.Time) int {
	return simcore.LeastOver(start, end, func(slot int64) int { return s.free(rs, region, az, typ, slot, now) })
}

// commitSale saves what a purchase or an extension took out of the market (consume); the
// lost-reply fault then drops the answer of a purchase that was made (ours: we bought).
func (s *Server) commitSale(c *call, rs *regionState, ours bool) *apiError {
	rs.Generation++
	if e := s.core.Commit(); e != nil {
		return e
	}
	if ours && s.dice.Hit(c.faults.LostReply) {
		return errInternal
	}
	return nil
}

func consume(rs *regionState, az, typ string, start, end time.Time, units int) {
	simcore.Consume(rs.Consumed, az, typ, start, end, units)
}

// price is the upfront fee of units of typ for [start, end), moved by demand around the
// published rate. The moves are centred on it: the blocks people see first (starting in
// the next days, for a few days) are priced about at the rate, dearer when they start
// within a day, on a Monday or from a thin supply, cheaper when booked weeks ahead, long,
// or over a weekend; so that, as on AWS, most offerings are under on-demand where the
// published rate is; less the price drop of the moment, when the emulator has one. The
// factor is in basis points so that the fee is exact to the cent.
func (s *Server) price(region, az, typ string, units int, start, end, now time.Time, free int) model.Money {
	bp := 10000
	switch lead := start.Sub(now); {
	case lead < 24*time.Hour:
		bp += 500
	case lead < 72*time.Hour:
	case lead < 7*24*time.Hour:
		bp -= 150
	case lead < 21*24*time.Hour:
		bp -= 300
	default:
		bp -= 600
	}
	switch start.Weekday() {
	case time.Monday, time.Tuesday:
		bp += 200
	case time.Saturday, time.Sunday:
		bp -= 300
	}
	switch days := end.Sub(start) / (24 * time.Hour); {
	case days <= 2:
		bp += 150
	case days >= 91:
		bp -= 800
	case days >= 28:
		bp -= 500
	case days >= 14:
		bp -= 300
	}
	switch {
	case units >= 32:
		bp += 500
	case units >= 16:
		bp += 250
	case units >= 8:
		bp += 100
	}
	if free > 0 { // the tighter the remaining supply, the dearer (up to +5%)
		bp += min(500, 500*units/free)
	}
	bp += s.hash.Between(-500, 500, "noise", region, az, typ, slotOf(start))
	bp = max(7000, min(bp, 16000))
	// After the bounds, so that every step of a price drop makes every offering cheaper.
	bp -= s.core.PriceDrop(now)

	base, _ := publishedRate(typ, region) // offerings() sells nothing without one
	return simcore.Fee(base, bp, units, start, end)
}

// search describes what DescribeCapacityBlockOfferings asked for, already validated.
type search struct {
	typ        string // catalog name: instance type or UltraServer type
	count      int    // instances reported in the offering
	units      int    // supply consumed: instances, or UltraServers
	ultraType  string
	ultraCount int
	instType   string // instance type reported (an UltraServer's member type)
	duration   time.Duration
	from, to   time.Time
	allZones   bool // AllAvailabilityZones: also zones the account has not opted in to
}

// offerings computes the market's answer to a search at now: deterministic from the seed,
// the clock and what has been bought.
func (s *Server) offerings(rs *regionState, region string, q search, now time.Time) []*offering {
	t, ok := model.LookupType(q.typ)
	if !ok || !t.Sells(region) {
		return nil
	}
	if _, ok := publishedRate(q.typ, region); !ok {
		return nil
	}
	zones := regions[region].zonesFor(q.typ, t.UltraServer, q.allZones, rs)
	type window struct {
		start, end time.Time
		near       bool
	}
	var windows []window
	horizon := now.Add(model.MaxLeadTime)

	// A near-term block starts within the hour at an odd time and ends at 11:30 UTC, so its
	// length is not whole days. AWS gives the lengths closest to the one asked: the
	// boundary just before start+duration and the one just after, the closer first.
	hour := now.Truncate(time.Hour)
	if s.hash.Sum("near", region, q.typ, hour)%100 < 60 {
		ns := now.Truncate(5 * time.Minute).Add(time.Duration(s.hash.Between(2, 10, "near-at", region, q.typ, hour)) * 5 * time.Minute)
		if !ns.Before(q.from) {
			for _, e := range nearTermEnds(ns, q.duration) {
				if e.Sub(ns) >= minNearTermLength && !e.After(q.to) {
					windows = append(windows, window{ns, e, true})
				}
			}
		}
	}
	earliest := q.from
	if e := now.Add(30 * time.Minute); earliest.Before(e) {
		earliest = e
	}
	for b := model.NextBoundary(earliest); !b.After(horizon) && !b.Add(q.duration).After(q.to); b = b.AddDate(0, 0, 1) {
		windows = append(windows, window{b, b.Add(q.duration), false})
	}

	type cand struct {
		w    window
		z    zone
		fee  model.Money
		segs []segment // a count no single zone holds, split over several
	}
	var cands []cand
	// The free supply of a zone's market day, asked once per search: the windows of a long
	// search share most of their days.
	dayFree := map[zoneDay]int{}
	carriers := regions[region].carrierZones(t.UltraServer)
	var carrying []zone
	for _, z := range zones {
		if s.carries(region, carriers, z.Name, q.typ) {
			carrying = append(carrying, z)
		}
	}
	for _, w := range windows {
		held := false
		var partial []zoneFree
		for _, z := range carrying {
			free := s.freeOver(rs, region, z.Name, q.typ, w.start, w.end, now)
			if free < q.units {
				if free > 0 {
					partial = append(partial, zoneFree{z, free})
				}
				continue
			}
			held = true
			cands = append(cands, cand{w: w, z: z, fee: s.price(region, z.Name, q.typ, q.units, w.start, w.end, now, free)})
		}
		if !held && q.ultraType == "" {
			segs := s.split(region, q, w.start, w.end, now, partial)
			if segs == nil && !w.near && w.end.Sub(w.start) >= minConsecutiveLength {
				segs = s.consecutive(rs, region, q, carrying, w.start, w.end, now, dayFree)
			}
			if segs != nil {
				z, _ := regions[region].zone(segs[0].AZ)
				cands = append(cands, cand{w: w, z: z, fee: segmentsFee(segs), segs: segs})
			}
		}
		if len(cands) >= 4*maxOfferings {
			break // enough to choose the earliest six from
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if !a.w.start.Equal(b.w.start) {
			return a.w.start.Before(b.w.start)
		}
		if a.w.near && b.w.near && !a.w.end.Equal(b.w.end) {
			return nearness(a.w.start, a.w.end, q.duration) < nearness(b.w.start, b.w.end, q.duration)
		}
		if c := a.fee.Cmp(b.fee); c != 0 {
			return c < 0
		}
		return a.z.Name < b.z.Name
	})
	var out []*offering
	perStart := map[time.Time]int{}
	perNearEnd := map[time.Time]int{}
	for _, c := range cands {
		if len(out) == maxOfferings {
			break
		}
		if perStart[c.w.start] == maxPerStart {
			continue
		}
		// One near-term offering per end (the cheapest zone), so that the length just under
		// and the one just over are both offered rather than the shorter, cheaper one twice.
		if c.w.near && perNearEnd[c.w.end] == 1 {
			continue
		}
		o := &offering{
			Tenancy: s.tenancyOf(region, q, c.w.start, now),
			Region:  region, AZ: c.z.Name, AZID: c.z.ID, ZoneType: c.z.Type,
			CatalogType: q.typ, InstanceType: q.instType, Count: q.count, Units: q.units,
			UltraType: q.ultraType, UltraCount: q.ultraCount,
			Start: c.w.start, End: c.w.end, Fee: c.fee, Issued: now, Segments: c.segs,
		}
		// What tells offerings apart beyond zone, type, count, window and fee goes into the id.
		switch {
		case consecutive(c.segs):
			o.ID = s.id("cbr", region, "consecutive", len(c.segs), o.Tenancy, o.AZ, q.typ, q.units, o.Start, o.End, o.Fee.Micros(), rs.Generation)
		case len(c.segs) > 0:
			o.ID = s.id("cbr", region, "segments", len(c.segs), o.Tenancy, o.AZ, q.typ, q.units, o.Start, o.End, o.Fee.Micros(), rs.Generation)
		case o.Tenancy != "":
			o.ID = s.id("cbr", region, o.Tenancy, o.AZ, q.typ, q.units, o.Start, o.End, o.Fee.Micros(), rs.Generation)
		default:
			o.ID = s.id("cbr", region, o.AZ, q.typ, q.units, o.Start, o.End, o.Fee.Micros(), rs.Generation)
		}
		if old, ok := rs.Offerings[o.ID]; ok {
			if old.Gone {
				continue
			}
			o = old // keep the record of an offering already issued
		}
		perStart[c.w.start]++
		if c.w.near {
			perNearEnd[c.w.end]++
		}
		out = append(out, o)
	}
	return out
}

// dedicatedPercent is the share of a type's market days, from a week ahead, whose
// capacity is sold as dedicated-tenancy blocks: few, so that the blocks people see first
// are mostly of the default tenancy, and deterministic from the seed.
const dedicatedPercent = 12

// tenancyOf is the tenancy of the blocks of a type starting on start's market day. Which
// blocks AWS sells as dedicated is not documented; the emulator sells a few instance-type
// days (never UltraServers) as dedicated while they are a week or more ahead, all the
// zones of the region alike, so that the segments of an offering share its tenancy. The
// tenancy is in the offering's id: a quote keeps the tenancy it was given with.
func (s *Server) tenancyOf(region string, q search, start, now time.Time) string {
	if q.ultraType != "" || start.Sub(now) < 7*24*time.Hour {
		return ""
	}
	if s.hash.Sum("dedicated", region, q.typ, slotOf(start))%100 < dedicatedPercent {
		return tenancyDedicated
	}
	return ""
}

// issue records the offerings answered, so that they can be bought by their ids.
func issue(rs *regionState, offs []*offering) {
	for _, o := range offs {
		if _, ok := rs.Offerings[o.ID]; !ok {
			rs.Offerings[o.ID] = o
		}
	}
}

type zoneFree struct {
	z    zone
	free int
}

// split is the segmented offering of a count that no single zone holds on [start, end):
// parallel segments in the zones with the most free, the largest first, together
// exactly the count; nil when the region's zones together do not hold it either. Where
// AWS splits an offering is not documented: the emulator splits only a count no single
// zone can hold, so that an ordinary search is answered with plain offerings, and never
// an UltraServer block (its servers are one interconnect).
func (s *Server) split(region string, q search, start, end, now time.Time, partial []zoneFree) []segment {
	sort.SliceStable(partial, func(i, j int) bool {
		if partial[i].free != partial[j].free {
			return partial[i].free > partial[j].free
		}
		return partial[i].z.Name < partial[j].z.Name
	})
	var segs []segment
	left := q.units
	for _, p := range partial {
		if left == 0 {
			break
		}
		n := min(left, p.free)
		left -= n
		segs = append(segs, segment{
			AZ: p.z.Name, AZID: p.z.ID, ZoneType: p.z.Type, InstanceType: q.instType, Count: n, Units: n,
			Start: start, End: end, Fee: s.price(region, p.z.Name, q.typ, n, start, end, now, p.free),
		})
	}
	if left > 0 {
		return nil
	}
	return segs
}

// minConsecutiveLength is the shortest window the emulator makes of consecutive segments:
// blocks over two weeks (AWS sells them by the week), so that the lengths people ask most
// are answered with plain offerings. maxConsecutiveSegments is the most one offering has.
// Neither is documented by AWS.
const (
	minConsecutiveLength   = 15 * 24 * time.Hour
	maxConsecutiveSegments = 6
)

// consecutive is the segmented offering of a long window [start, end) that no zone holds
// the count over, nor the zones together, but that zones hold in turn: consecutive
// segments of the whole count, each the longest run of market days, from where the
// previous one ends, that one zone holds (the first of the zones on a tie; a zone never
// follows itself, since its run ended), together exactly the window. nil when some day no
// zone holds the count, or more than maxConsecutiveSegments would be needed. Where AWS
// makes consecutive segments is not documented; each segment is a block of its own, priced
// as one (its length, its lead time, its zone's supply), and the offering's fee their sum.
func (s *Server) consecutive(rs *regionState, region string, q search, zones []zone, start, end, now time.Time, dayFree map[zoneDay]int) []segment {
	const day = 24 * time.Hour
	days := int((end.Sub(start) + day - 1) / day)
	first := slotOf(start) // windows start at a market day's start: day d is slot first+d
	holds := func(i, d int) bool {
		k := zoneDay{zones[i].Name, first + int64(d)}
		n, ok := dayFree[k]
		if !ok {
			n = s.free(rs, region, k.zone, q.typ, k.slot, now)
			dayFree[k] = n
		}
		return n >= q.units
	}
	var segs []segment
	for d := 0; d < days; {
		best, run := -1, 0
		for i := range zones {
			n := 0
			for d+n < days && holds(i, d+n) {
				n++
			}
			if n > run {
				best, run = i, n
			}
		}
		if best < 0 || len(segs) == maxConsecutiveSegments {
			return nil
		}
		z := zones[best]
		from, to := start.Add(time.Duration(d)*day), minTime(start.Add(time.Duration(d+run)*day), end)
		free := s.freeOver(rs, region, z.Name, q.typ, from, to, now)
		segs = append(segs, segment{AZ: z.Name, AZID: z.ID, ZoneType: z.Type, InstanceType: q.instType, Count: q.count, Units: q.units,
			Start: from, End: to, Fee: s.price(region, z.Name, q.typ, q.units, from, to, now, free)})
		d += run
	}
	if len(segs) < 2 {
		return nil // one zone held it all: a plain offering, found already
	}
	return segs
}

// zoneDay is a zone's market day.
type zoneDay struct {
	zone string
	slot int64
}

// consecutive reports segments that follow one another in time, rather than side by side.
func consecutive(segs []segment) bool {
	return len(segs) > 1 && !segs[1].Start.Equal(segs[0].Start)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func segmentsFee(segs []segment) model.Money {
	var fee model.Money
	for _, sg := range segs {
		fee = fee.Add(sg.Fee)
	}
	return fee
}

// nearTermEnds are the 11:30 UTC boundaries either side of start+d, the one that brings
// the length closest to d first; none when start+d is itself a boundary (the block then
// lasts whole days and is an ordinary one).
func nearTermEnds(start time.Time, d time.Duration) []time.Time {
	target := start.Add(d)
	over := model.NextBoundary(target)
	if over.Equal(target) {
		return nil
	}
	under := over.AddDate(0, 0, -1)
	if nearness(start, under, d) <= nearness(start, over, d) {
		return []time.Time{under, over}
	}
	return []time.Time{over, under}
}

// nearness is how far a block [start, end) is from the asked length d.
func nearness(start, end time.Time, d time.Duration) time.Duration {
	diff := end.Sub(start) - d
	if diff < 0 {
		return -diff
	}
	return diff
}

// pruneOfferings forgets offerings that can no longer be bought because they have started.
func pruneOfferings(rs *regionState, now time.Time) {
	if now.Sub(rs.prunedAt) < time.Minute && !now.Before(rs.prunedAt) {
		return
	}
	rs.prunedAt = now
	for id, o := range rs.Offerings {
		if !o.Start.After(now) {
			delete(rs.Offerings, id)
		}
	}
	for id, o := range rs.ExtOfferings {
		if !o.Start.After(now) {
			delete(rs.ExtOfferings, id)
		}
	}
}
