package ec2sim

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

func init() {
	ec2Actions["DescribeCapacityBlockOfferings"] = guarded(describeOfferings)
	ec2Actions["PurchaseCapacityBlock"] = guarded(purchaseCapacityBlock)
}

const durationsAllowed = "24 to 336 in steps of 24 (1 to 14 days), or 504 to 4368 in steps of 168 (3 to 26 weeks)"

// validHours checks a block or extension length in hours against AWS's steps.
func validHours(name string, h int) *apiError {
	if h%24 != 0 || !model.ValidDuration(h/24) {
		return badParam("Value (%d) for parameter %s is invalid. Durations are %s hours.", h, name, durationsAllowed)
	}
	return nil
}

// maxTypePreferences is how many InstanceTypePreference.N one search takes. AWS documents
// no maximum: this one is the emulator's assumption, above the number of instance types
// Capacity Blocks sell, so that a search of every type passes.
const maxTypePreferences = 20

// searches reads what DescribeCapacityBlockOfferings asks for: one search per instance
// type (InstanceType, or each InstanceTypePreference.N.InstanceType), or the UltraServer
// type's. Validated as AWS documents: exactly one of InstanceType, InstanceTypePreferences
// and UltraserverType; an instance count with instance types, an UltraServer count with
// an UltraServer type.
func searches(f form) ([]search, *apiError) {
	prefs, e := typePreferences(f)
	if e != nil {
		return nil, e
	}
	it, ut := f.str("InstanceType"), f.str("UltraserverType")
	given := 0
	for _, set := range []bool{it != "", len(prefs) > 0, ut != ""} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "Give one of InstanceType, InstanceTypePreferences (both with InstanceCount) or UltraserverType (with UltraserverCount).")
	case given == 0:
		return nil, missingParam("InstanceTypePreferences (or the legacy InstanceType, or UltraserverType)")
	case ut != "":
		t, ok := model.LookupType(ut)
		if !ok || !t.UltraServer {
			return nil, badParam("Value (%s) for parameter UltraserverType is invalid. UltraServer types: %s.", ut, strings.Join(instanceTypeNames(true), ", "))
		}
		if f.has("InstanceCount") {
			return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "InstanceCount goes with InstanceType; an UltraServer block is sized by UltraserverCount.")
		}
		n, set, e := f.optInt("UltraserverCount", -1<<31, 1<<31-1)
		if e != nil {
			return nil, e
		}
		if !set {
			n = 1
		}
		if n < 1 || n > maxUltraServers {
			return nil, badParam("Value (%d) for parameter UltraserverCount is invalid. It must be from 1 to %d.", n, maxUltraServers)
		}
		return []search{{typ: ut, instType: t.MemberType, units: n, count: n * t.Instances, ultraType: ut, ultraCount: n}}, nil
	}
	param, types := "InstanceType", []string{it}
	if len(prefs) > 0 {
		types = prefs
	}
	var out []search
	for i, name := range types {
		if len(prefs) > 0 {
			param = fmt.Sprintf("InstanceTypePreference.%d.InstanceType", i+1)
		}
		t, ok := model.LookupType(name)
		if !ok {
			return nil, badParam("Value (%s) for parameter %s is invalid. Capacity Blocks sell %s.", name, param, strings.Join(instanceTypeNames(false), ", "))
		}
		if t.UltraServer {
			return nil, badParam("Value (%s) for parameter %s is an UltraServer type; pass it as UltraserverType with UltraserverCount.", name, param)
		}
		out = append(out, search{typ: name, instType: name})
	}
	if f.has("UltraserverCount") {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "UltraserverCount goes with UltraserverType, not with instance types.")
	}
	n, e := f.requiredInt("InstanceCount", -1<<31, 1<<31-1)
	if e != nil {
		return nil, e
	}
	if n < model.MinCount || n > model.MaxCount {
		return nil, badParam("Value (%d) for parameter InstanceCount is invalid. A Capacity Block has %d to %d instances.", n, model.MinCount, model.MaxCount)
	}
	for i := range out {
		out[i].count, out[i].units = n, n
	}
	return out, nil
}

// typePreferences reads InstanceTypePreference.N.InstanceType, in order: at most
// maxTypePreferences, each given once.
func typePreferences(f form) ([]string, *apiError) {
	idx, e := f.indices("InstanceTypePreference")
	if e != nil {
		return nil, e
	}
	if len(idx) > maxTypePreferences {
		return nil, badParam("%d instance type preferences given; a search takes at most %d.", len(idx), maxTypePreferences)
	}
	var out []string
	for _, n := range idx {
		base := fmt.Sprintf("InstanceTypePreference.%d", n)
		for k := range f.v {
			if strings.HasPrefix(k, base+".") && k != base+".InstanceType" || k == base {
				return nil, errf(http.StatusBadRequest, "UnknownParameter", "The parameter %s is not recognized by DescribeCapacityBlockOfferings.", k)
			}
		}
		name, e := f.required(base + ".InstanceType")
		if e != nil {
			return nil, e
		}
		if slices.Contains(out, name) {
			return nil, badParam("Value (%s) for parameter %s.InstanceType is invalid: the instance type is given more than once.", name, base)
		}
		out = append(out, name)
	}
	return out, nil
}

func describeOfferings(s *Server, c *call) (*xmlBody, *apiError) {
	f := c.form
	hours, e := f.requiredInt("CapacityDurationHours", -1<<31, 1<<31-1)
	if e != nil {
		return nil, e
	}
	if e := validHours("CapacityDurationHours", hours); e != nil {
		return nil, e
	}
	qs, e := searches(f)
	if e != nil {
		return nil, e
	}
	duration := time.Duration(hours) * time.Hour

	// A per-family quota of 0 (the quota fault): AWS's answer, seen when an account's
	// "Concurrent TRN2 Capacity Blocks per account" is 0, in the reference's words. It is
	// no throttle; whether AWS checks it before the dates is UNCONFIRMED.
	// A search of several types is refused if any of its types has a quota of 0 (unconfirmed).
	for _, q := range qs {
		if c.faults.QuotaZero(model.Family(q.typ)) {
			return nil, errf(http.StatusBadRequest, "CapacityBlockDescribeLimitExceeded", "You've reached the limit for this account.")
		}
	}
	limit := c.now.Add(model.MaxLeadTime)
	from, fromSet, e := f.optTime("StartDateRange")
	if e != nil {
		return nil, e
	}
	to, toSet, e := f.optTime("EndDateRange")
	if e != nil {
		return nil, e
	}
	if !fromSet || from.Before(c.now) {
		from = c.now
	}
	if from.After(limit) {
		return nil, badParam("Value (%s) for parameter StartDateRange is invalid. Capacity Blocks start at most 8 weeks ahead, by %s.", formatTime(from), formatTime(limit))
	}
	if !toSet {
		to = limit.Add(duration)
	}
	if !to.After(from) {
		return nil, badParam("Value (%s) for parameter EndDateRange is invalid. It must be after the start of the range (%s).", formatTime(to), formatTime(from))
	}
	all, e := f.optBool("AllAvailabilityZones")
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	pruneOfferings(rs, c.now)
	var offs []*offering
	for _, q := range qs {
		q.duration, q.from, q.to, q.allZones = duration, from, to, all
		offs = append(offs, s.offerings(rs, c.region, q, c.now.Truncate(time.Minute))...)
	}
	if len(qs) > 1 && s.opts.CapAcrossTypes {
		offs = capAcrossTypes(offs)
	}
	issue(rs, offs)
	page, next, e := pageOf(s, c, offs, 1)
	if e != nil {
		return nil, e
	}
	var x xmlBody
	if len(page) == 0 {
		x.empty("capacityBlockOfferingSet")
	} else {
		x.open("capacityBlockOfferingSet")
		for _, o := range page {
			writeOffering(&x, o)
		}
		x.close("capacityBlockOfferingSet")
	}
	x.opt("nextToken", next)
	return &x, nil
}

const maxUltraServers = 4

// capAcrossTypes cuts the answer of a search of several types under the reading
// Options.CapAcrossTypes takes: the cap of maxOfferings holds for the call, not per type.
// Each type's best offerings are merged by start, then fee, and the first maxOfferings
// kept; so an answer of fewer than maxOfferings holds every offering that a search of each
// type alone would answer, and one of exactly maxOfferings may have been cut (ask type by
// type to see the rest). Without it (the default, also unconfirmed), a search of several
// types answers what the searches of each alone would, together.
func capAcrossTypes(offs []*offering) []*offering {
	sort.SliceStable(offs, func(i, j int) bool {
		a, b := offs[i], offs[j]
		if !a.Start.Equal(b.Start) {
			return a.Start.Before(b.Start)
		}
		if c := a.Fee.Cmp(b.Fee); c != 0 {
			return c < 0
		}
		if a.InstanceType != b.InstanceType {
			return a.InstanceType < b.InstanceType
		}
		return a.ID < b.ID
	})
	return offs[:min(len(offs), maxOfferings)]
}

func instanceTypeNames(ultra bool) []string {
	var out []string
	for _, t := range model.Catalog() {
		if t.UltraServer == ultra {
			out = append(out, t.Name)
		}
	}
	return out
}

func writeOffering(x *xmlBody, o *offering) {
	d := o.End.Sub(o.Start)
	x.open("item")
	x.str("capacityBlockOfferingId", o.ID)
	x.str("instanceType", o.InstanceType)
	x.str("availabilityZone", o.AZ)
	x.int("instanceCount", o.Count)
	x.time("startDate", o.Start)
	x.time("endDate", o.End)
	x.int("capacityBlockDurationHours", int(d/time.Hour))
	x.int("capacityBlockDurationMinutes", int(d%time.Hour/time.Minute))
	x.str("upfrontFee", o.Fee.String())
	x.str("currencyCode", "USD")
	x.str("tenancy", tenancy(o.Tenancy))
	if o.UltraType != "" {
		x.str("ultraserverType", o.UltraType)
		x.int("ultraserverCount", o.UltraCount)
	}
	x.str("zoneType", o.ZoneType)
	if len(o.Segments) > 0 {
		x.open("capacityBlockOfferingSegmentSet")
		for _, sg := range o.Segments {
			d := sg.End.Sub(sg.Start)
			x.open("item")
			x.str("availabilityZone", sg.AZ)
			x.str("availabilityZoneId", sg.AZID)
			x.str("instanceType", sg.InstanceType)
			x.int("instanceCount", sg.Count)
			x.time("startDate", sg.Start)
			x.time("endDate", sg.End)
			x.int("capacityBlockDurationHours", int(d/time.Hour))
			x.int("capacityBlockDurationMinutes", int(d%time.Hour/time.Minute))
			x.str("upfrontFee", sg.Fee.String())
			x.str("currencyCode", "USD")
			x.str("zoneType", sg.ZoneType)
			x.close("item")
		}
		x.close("capacityBlockOfferingSegmentSet")
	}
	x.close("item")
}

var instancePlatforms = []string{
	"Linux/UNIX", "Red Hat Enterprise Linux", "SUSE Linux", "Windows", "Windows with SQL Server",
	"Windows with SQL Server Enterprise", "Windows with SQL Server Standard", "Windows with SQL Server Web",
	"Linux with SQL Server Standard", "Linux with SQL Server Web", "Linux with SQL Server Enterprise",
	"RHEL with SQL Server Standard", "RHEL with SQL Server Enterprise", "RHEL with SQL Server Web",
	"RHEL with HA", "RHEL with HA and SQL Server Standard", "RHEL with HA and SQL Server Enterprise", "Ubuntu Pro",
}

// Tag that AWS puts on a Capacity Block's reservation with the count it will have.
const quantityTag = "aws:ec2capacityreservation:incrementalRequestedQuantity"

// readTags reads the TagSpecifications of a request whose resources are of the given types.
func readTags(f form, resourceTypes ...string) ([]tag, *apiError) {
	return tagsFor(f, resourceTypes, resourceTypes)
}

// tagsFor reads the TagSpecifications of a request that may tag resources of the types
// allowed, and answers the tags of the types kept (the emulator holds no resource of the
// others, whose tags are checked and dropped). A key is given once per resource type, and
// once among the tags kept; a resource has at most 50.
func tagsFor(f form, keep, allowed []string) ([]tag, *apiError) {
	specs, e := f.tagSpecs()
	if e != nil {
		return nil, e
	}
	var out []tag
	seen, kept, count := map[string]bool{}, map[string]bool{}, map[string]int{}
	for i, sp := range specs {
		if !slices.Contains(allowed, sp.resourceType) {
			return nil, badParam("Value (%s) for parameter TagSpecification.%d.ResourceType is invalid. Allowed here: %s.", sp.resourceType, i+1, strings.Join(allowed, ", "))
		}
		keeps := slices.Contains(keep, sp.resourceType)
		for _, t := range sp.tags {
			switch {
			case strings.HasPrefix(strings.ToLower(t.Key), "aws:"):
				return nil, badParam("Tag key %q is invalid: keys starting with aws: are reserved for AWS.", t.Key)
			case len(t.Key) > 128 || len(t.Value) > 256:
				return nil, badParam("Tag %q is too long: keys have at most 128 characters, values at most 256.", t.Key)
			case seen[sp.resourceType+"\x00"+t.Key] || keeps && kept[t.Key]:
				return nil, badParam("Tag key %q is given more than once.", t.Key)
			}
			seen[sp.resourceType+"\x00"+t.Key] = true
			if count[sp.resourceType]++; count[sp.resourceType] > 50 {
				return nil, badParam("More than 50 tags given for %s; a resource has at most 50.", sp.resourceType)
			}
			if keeps {
				kept[t.Key] = true
				out = append(out, t)
			}
		}
	}
	if len(out) > 50 {
		return nil, badParam("%d tags given; a resource has at most 50.", len(out))
	}
	return out, nil
}

func purchaseCapacityBlock(s *Server, c *call) (*xmlBody, *apiError) {
	f := c.form
	id, e := f.required("CapacityBlockOfferingId")
	if e != nil {
		return nil, e
	}
	platform, e := f.required("InstancePlatform")
	if e != nil {
		return nil, e
	}
	if !slices.Contains(instancePlatforms, platform) {
		return nil, badParam("Value (%s) for parameter InstancePlatform is invalid. Allowed: %s.", platform, strings.Join(instancePlatforms, ", "))
	}
	tags, e := readTags(f, "capacity-reservation", "capacity-block")
	if e != nil {
		return nil, e
	}
	if !wellFormed("cbr", id) {
		return nil, errOfferingMalformed
	}
	rs := s.region(c.region)
	o, ok := rs.Offerings[id]
	if !ok {
		return nil, errOfferingNotFound
	}
	parts := o.parts()
	if o.Gone || !o.Start.After(c.now) {
		return nil, errOfferingExpired
	}
	for _, p := range parts {
		if s.freeOver(rs, c.region, p.AZ, o.CatalogType, p.Start, p.End, c.now) < p.Units {
			return nil, errOfferingExpired
		}
	}
	inUse := 0
	for _, r := range rs.Reservations {
		if st := r.state(c.now); st != model.StateExpired && st != model.StatePaymentFailed {
			inUse += r.Count
		}
	}
	if inUse+o.Count > model.MaxAccountInstances {
		return nil, errf(http.StatusBadRequest, "InstanceLimitExceeded",
			"You can have up to %d instances across Capacity Blocks in %s; your blocks hold %d and this offering has %d.",
			model.MaxAccountInstances, c.region, inUse, o.Count)
	}
	if c.dryRun {
		return nil, errDryRun
	}
	o.Gone = true
	if s.dice.Hit(c.faults.Sold) {
		// Someone else bought it between the search and this purchase.
		for _, p := range parts {
			consume(rs, p.AZ, o.CatalogType, p.Start, p.End, p.Units)
		}
		if e := s.commitSale(c, rs, false); e != nil {
			return nil, e
		}
		return nil, errOfferingExpired
	}
	// One payment for the purchase: its segments' reservations are paid, or fail, together.
	pay := s.core.Pay(c.now, o.Start.Add(-PaymentLead), c.region, rs.Counter+1)
	var made []*reservation
	for _, p := range parts {
		rs.Counter++
		r := &reservation{
			ID:      s.id("cr", c.region, "reservation", rs.Counter),
			BlockID: s.id("cb", c.region, "block", rs.Counter),
			Region:  c.region, AZ: p.AZ, AZID: p.AZID, ZoneType: p.ZoneType,
			CatalogType: o.CatalogType, InstanceType: p.InstanceType, Platform: platform,
			Count: p.Count, Units: p.Units, UltraType: o.UltraType, UltraCount: o.UltraCount,
			Start: p.Start, OrigEnd: p.End, Created: c.now, Payment: pay, Tenancy: o.Tenancy,
			OfferingID: o.ID, Fee: p.Fee,
			Tags: append(slices.Clone(tags), tag{quantityTag, fmt.Sprint(p.Count)}),
		}
		rs.add(r)
		made = append(made, r)
		consume(rs, p.AZ, o.CatalogType, p.Start, p.End, p.Units)
	}
	if e := s.commitSale(c, rs, true); e != nil {
		return nil, e
	}
	// capacityReservation, the reply's older single field, is the first segment's
	// reservation (AWS does not say which); capacityReservationSet has every one.
	var x xmlBody
	writeReservation(&x, s.Account(), "capacityReservation", rs, made[0], c.now)
	x.open("capacityReservationSet")
	for _, r := range made {
		writeReservation(&x, s.Account(), "item", rs, r, c.now)
	}
	x.close("capacityReservationSet")
	x.open("capacityBlockSet")
	for _, r := range made {
		writeBlock(&x, r, c.now)
	}
	x.close("capacityBlockSet")
	return &x, nil
}

// settlePayments releases the capacity of the region's blocks and extensions whose
// payment has failed by now, as AWS releases it: the market has it for sale again. Call
// inside the core's lock.
func (s *Server) settlePayments(region string, now time.Time) {
	rs, ok := s.regions.Peek(region)
	if !ok {
		return
	}
	changed := false
	// Only the reservations whose payment, or an extension's, is to fail can release
	// anything: a search does not walk every purchase ever made.
	for _, r := range rs.failing {
		if r.Release(now) {
			consume(rs, r.AZ, r.CatalogType, r.Start, r.OrigEnd, -r.Units)
			changed = true
		}
		for _, e := range r.Extensions {
			if e.Release(now) {
				consume(rs, r.AZ, r.CatalogType, e.Start, e.End, -r.Units)
				changed = true
			}
		}
	}
	if changed {
		_ = s.core.Commit() // undone if unsaved; the next request settles them again
		rs.failing = slices.DeleteFunc(rs.failing, func(r *reservation) bool { return !r.toRelease() })
	}
}
