package sagemakersim

import (
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// The market's rules. Where the reference marks a figure UNCONFIRMED, the EC2 Capacity
// Blocks figure is used (how far ahead, the 11:30 UTC day boundary).
const (
	maxPlanOfferings = 3   // the docs' example shows 3; AWS's maximum is UNCONFIRMED
	maxCapacities    = 5   // ReservedCapacityOfferings max=5
	maxPlanDays      = 182 // 1–182 days in 1-day steps
	nothingPercent   = 30  // share of searches (per type, count, region and day) with nothing at all
	splitPercent     = 30  // share of offerings made of several reserved capacities
	// instanceQuota is the reserved-capacity instances per type and region an account may
	// hold in plans that are neither expired nor failed: AWS's default is UNCONFIRMED.
	instanceQuota = 128
)

// allowedCounts are the instance counts the docs allow.
var allowedCounts = []int{1, 2, 4, 8, 16, 32, 64}

// ultraServers are the UltraServer types training plans reserve, with their member
// instance type and how many instances one holds.
var ultraServers = map[string]struct {
	member    string
	instances int
	catalog   string // the EC2 catalog's name, for regions and rates
}{
	"ml.u-p6e-gb200x72": {"ml.p6e-gb200.36xlarge", 18, "u-p6e-gb200x72"},
	"ml.u-p6e-gb200x36": {"ml.p6e-gb200.36xlarge", 9, "u-p6e-gb200x36"},
}

// dayOf is the market day of t, anchored at 11:30 UTC as the EC2 side's.
func dayOf(t time.Time) int64 { return simcore.MarketDay(t) }

func consume(rs *regionState, az, typ string, start, end time.Time, units int) {
	simcore.Consume(rs.Consumed, az, typ, start, end, units)
}

// rate is the published Capacity Block rate of the type's EC2 twin, per instance-hour
// (per UltraServer-hour for an UltraServer). gpublock's catalog has no training-plan rate,
// and how AWS prices plans against Capacity Blocks is UNCONFIRMED: the plan market moves
// around the same figure.
func rate(catalogType, region string) (model.Money, bool) {
	row, ok := pricing.Embedded().CapacityBlockRate(catalogType, region)
	if !ok || row.Hourly.Micros() <= 0 {
		return model.Money{}, false
	}
	return row.Hourly, true
}

// wanted is a validated search.
type wanted struct {
	instType   string // ml.*
	catalog    string // the EC2 catalog name of what is reserved (type or UltraServer)
	count      int    // instances
	units      int    // supply units: instances, or UltraServers
	ultraType  string
	ultraCount int
	hours      int64
	from, to   time.Time
	targets    []string
}

// free is what an AZ still has of a type on a day: SageMaker's pool, apart from EC2's.
func (h *handler) free(rs *regionState, region, az, typ string, day int64, now time.Time) int {
	lo, hi := 0, 96
	if strings.HasPrefix(typ, "u-") {
		lo, hi = 0, 3
	}
	n := h.core.Between(lo, hi, "sm-supply", region, az, typ, day)
	if lead := day - dayOf(now); lead <= 2 {
		n = n * 40 / 100
	}
	return max(0, n-simcore.Consumed(rs.Consumed, az, typ, day))
}

func (h *handler) freeOver(rs *regionState, region, az, typ string, start, end, now time.Time) int {
	return simcore.LeastOver(start, end, func(day int64) int { return h.free(rs, region, az, typ, day, now) })
}

// price is a capacity's fee, moved around the published rate by lead time, length, size
// and noise, less the emulator's price drop of the moment, in basis points so that it is
// exact to the cent.
func (h *handler) price(region, az, catalogType string, units int, start, end, now time.Time) model.Money {
	bp := 10000
	switch lead := start.Sub(now); {
	case lead < 72*time.Hour:
		bp += 900
	case lead < 7*24*time.Hour:
		bp += 300
	case lead >= 21*24*time.Hour:
		bp -= 300
	}
	switch days := end.Sub(start) / (24 * time.Hour); {
	case days <= 2:
		bp += 300
	case days >= 28:
		bp -= 600
	case days >= 14:
		bp -= 300
	}
	if units >= 16 {
		bp += 300
	}
	bp += h.core.Between(-500, 500, "sm-noise", region, az, catalogType, dayOf(start))
	bp -= h.core.PriceDrop(now)
	base, _ := rate(catalogType, region)
	return simcore.Fee(base, bp, units, start, end)
}

// offerings is the market's answer at now: deterministic from the seed, the clock and
// what has been bought.
func (h *handler) offerings(rs *regionState, region string, q wanted, now time.Time) []*offering {
	if h.core.Hash("sm-nothing", region, q.catalog, q.units, dayOf(now))%100 < nothingPercent {
		return nil
	}
	zones := h.core.Zones(region)
	horizon := now.Add(model.MaxLeadTime)
	earliest := now.Add(30 * time.Minute)
	if q.from.After(earliest) {
		earliest = q.from
	}
	days := int(q.hours / 24)
	var out []*offering
	for b := model.NextBoundary(earliest); len(out) < maxPlanOfferings && !b.After(horizon); b = b.AddDate(0, 0, 1) {
		parts := 1
		if days >= 2 && h.core.Hash("sm-split", region, q.catalog, q.units, b)%100 < splitPercent {
			parts = h.core.Between(2, min(maxCapacities, days), "sm-parts", region, q.catalog, b)
		}
		caps, ok := h.compose(rs, region, zones, q, b, days, parts, now)
		if !ok || (!q.to.IsZero() && caps[len(caps)-1].End.After(q.to)) {
			continue
		}
		// The id holds the search's window, so that an offering echoes the window of the
		// search that gave it, not that of an earlier search of the same capacity.
		o := &offering{Targets: q.targets, Caps: caps, ReqStart: q.from, ReqEnd: q.to}
		for _, c := range caps {
			o.Fee = o.Fee.Add(h.price(region, c.AZ, q.catalog, c.units(), c.Start, c.End, now))
		}
		o.ID = offeringID("tpo", h.core.Hash("sm-offering", region, q.catalog, q.units, b, parts, o.Fee.Micros(), rs.Generation),
			h.core.Hash("sm-offering-2", region, q.catalog, strings.Join(q.targets, ","), rs.Generation, q.from.Unix(), q.to.Unix()))
		if old, ok := rs.Offerings[o.ID]; ok {
			if old.Gone {
				continue
			}
			o = old
		} else {
			rs.Offerings[o.ID] = o
		}
		out = append(out, o)
		b = b.AddDate(0, 0, h.core.Between(0, 3, "sm-skip", region, q.catalog, b))
	}
	return out
}

// compose splits days into parts capacities from b, with gaps of up to two days between
// them, each in a zone with enough supply (the cheapest first: the lowest noise).
func (h *handler) compose(rs *regionState, region string, zones []simcore.Zone, q wanted, b time.Time, days, parts int, now time.Time) ([]capacity, bool) {
	var caps []capacity
	start, left := b, days
	for i := 0; i < parts; i++ {
		n := left / (parts - i)
		if i < parts-1 {
			n = h.core.Between(1, left-(parts-i-1), "sm-part-len", region, q.catalog, b, i)
		}
		end := start.AddDate(0, 0, n)
		var pick *simcore.Zone
		for j := range zones {
			z := &zones[j]
			if h.core.Hash("sm-carries", region, z.Name, q.catalog)%100 >= 60 && j > 0 {
				continue
			}
			if h.freeOver(rs, region, z.Name, q.catalog, start, end, now) >= q.units {
				pick = z
				break
			}
		}
		if pick == nil {
			return nil, false
		}
		caps = append(caps, capacity{AZ: pick.Name, AZID: pick.ID, InstanceType: q.instType, Count: q.count,
			UltraType: q.ultraType, UltraCount: q.ultraCount, Start: start, End: end})
		left -= n
		start = end.AddDate(0, 0, h.core.Between(0, 2, "sm-gap", region, q.catalog, b, i))
	}
	return caps, true
}

// extensionOfferings are the ways to lengthen a plan by hours: at most one, in the zone
// of its last capacity, starting at its end; often none (capacity is not guaranteed).
func (h *handler) extensionOfferings(rs *regionState, region string, p *plan, hours int, now time.Time) []*extOffering {
	caps := p.capacities(now)
	last := caps[len(caps)-1]
	start, end := last.End, last.End.Add(time.Duration(hours)*time.Hour)
	if h.core.Hash("sm-ext-none", region, p.Name, hours, dayOf(now))%100 < 25 {
		return nil
	}
	typ := last.InstanceType
	if last.UltraType != "" {
		typ = last.UltraType
	}
	catalog := catalogName(typ)
	if h.freeOver(rs, region, last.AZ, catalog, start, end, now) < last.units() {
		return nil
	}
	o := &extOffering{PlanName: p.Name, AZ: last.AZ, AZID: last.AZID, ExtensionOffer: simcore.ExtensionOffer{Hours: hours, Start: start, End: end,
		Fee: h.price(region, last.AZ, catalog, last.units(), start, end, now)}}
	o.ID = offeringID("tpeo", h.core.Hash("sm-ext", region, p.Name, hours, start, o.Fee.Micros()),
		h.core.Hash("sm-ext-2", region, p.ARN, len(p.Extensions)))
	if old, ok := rs.ExtOfferings[o.ID]; ok {
		if old.Gone {
			return nil
		}
		o = old
	} else {
		rs.ExtOfferings[o.ID] = o
	}
	return []*extOffering{o}
}

// catalogName is the EC2 catalog's name of an ml.* instance or UltraServer type.
func catalogName(typ string) string {
	if u, ok := ultraServers[typ]; ok {
		return u.catalog
	}
	return strings.TrimPrefix(typ, "ml.")
}

// offeringID looks like AWS's: prefix-<SHA-256-like hash>, 64 hex digits.
func offeringID(prefix string, a, b uint64) string {
	return fmt.Sprintf("%s-%016x%016x%016x%016x", prefix, a, b, a^0x5bd1e9955bd1e995, b^0x9e3779b97f4a7c15)
}
