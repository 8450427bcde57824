package ec2sim

import (
	"fmt"
	"net/http"
	"slices"
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

func describeOfferings(s *Server, c *call) (*xmlBody, *apiError) {
	f := c.form
	hours, e := f.requiredInt("CapacityDurationHours", -1<<31, 1<<31-1)
	if e != nil {
		return nil, e
	}
	if e := validHours("CapacityDurationHours", hours); e != nil {
		return nil, e
	}
	q := search{duration: time.Duration(hours) * time.Hour}
	it, ut := f.str("InstanceType"), f.str("UltraserverType")
	switch {
	case it != "" && ut != "":
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "Give either InstanceType (with InstanceCount) or UltraserverType (with UltraserverCount), not both.")
	case it != "":
		t, ok := model.LookupType(it)
		if !ok {
			return nil, badParam("Value (%s) for parameter InstanceType is invalid. Capacity Blocks sell %s.", it, strings.Join(instanceTypeNames(false), ", "))
		}
		if t.UltraServer {
			return nil, badParam("Value (%s) for parameter InstanceType is an UltraServer type; pass it as UltraserverType with UltraserverCount.", it)
		}
		if f.has("UltraserverCount") {
			return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "UltraserverCount goes with UltraserverType, not with InstanceType.")
		}
		n, e := f.requiredInt("InstanceCount", -1<<31, 1<<31-1)
		if e != nil {
			return nil, e
		}
		if n < model.MinCount || n > model.MaxCount {
			return nil, badParam("Value (%d) for parameter InstanceCount is invalid. A Capacity Block has %d to %d instances.", n, model.MinCount, model.MaxCount)
		}
		q.typ, q.instType, q.count, q.units = it, it, n, n
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
		q.typ, q.instType, q.units = ut, t.MemberType, n
		q.count, q.ultraType, q.ultraCount = n*t.Instances, ut, n
	default:
		return nil, missingParam("InstanceType (or UltraserverType)")
	}

	// A per-family quota of 0 (the quota fault): AWS's answer, seen when an account's
	// "Concurrent TRN2 Capacity Blocks per account" is 0, in the reference's words. It is
	// no throttle; whether AWS checks it before the dates is UNCONFIRMED.
	if c.faults.QuotaZero(model.Family(q.typ)) {
		return nil, errf(http.StatusBadRequest, "CapacityBlockDescribeLimitExceeded", "You've reached the limit for this account.")
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
		to = limit.Add(q.duration)
	}
	if !to.After(from) {
		return nil, badParam("Value (%s) for parameter EndDateRange is invalid. It must be after the start of the range (%s).", formatTime(to), formatTime(from))
	}
	all, e := f.optBool("AllAvailabilityZones")
	if e != nil {
		return nil, e
	}
	q.from, q.to, q.allZones = from, to, all
	rs := s.region(c.region)
	pruneOfferings(rs, c.now)
	offs := s.offerings(rs, c.region, q, c.now.Truncate(time.Minute))
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
	x.str("tenancy", "default")
	if o.UltraType != "" {
		x.str("ultraserverType", o.UltraType)
		x.int("ultraserverCount", o.UltraCount)
	}
	x.str("zoneType", o.ZoneType)
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
	specs, e := f.tagSpecs()
	if e != nil {
		return nil, e
	}
	var out []tag
	seen := map[string]bool{}
	for i, sp := range specs {
		ok := false
		for _, rt := range resourceTypes {
			ok = ok || sp.resourceType == rt
		}
		if !ok {
			return nil, badParam("Value (%s) for parameter TagSpecification.%d.ResourceType is invalid. Allowed here: %s.", sp.resourceType, i+1, strings.Join(resourceTypes, ", "))
		}
		for _, t := range sp.tags {
			switch {
			case strings.HasPrefix(strings.ToLower(t.Key), "aws:"):
				return nil, badParam("Tag key %q is invalid: keys starting with aws: are reserved for AWS.", t.Key)
			case len(t.Key) > 128 || len(t.Value) > 256:
				return nil, badParam("Tag %q is too long: keys have at most 128 characters, values at most 256.", t.Key)
			case seen[t.Key]:
				return nil, badParam("Tag key %q is given more than once.", t.Key)
			}
			seen[t.Key] = true
			out = append(out, t)
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
	if o.Gone || !o.Start.After(c.now) || s.freeOver(rs, c.region, o.AZ, o.CatalogType, o.Start, o.End, c.now) < o.Units {
		return nil, errOfferingExpired
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
	if s.dice.Hit(c.faults.Sold) {
		// Someone else bought it between the search and this purchase.
		o.Gone = true
		consume(rs, o.AZ, o.CatalogType, o.Start, o.End, o.Units)
		rs.Generation++
		if e := s.core.Commit(); e != nil {
			return nil, e
		}
		return nil, errOfferingExpired
	}
	rs.Counter++
	r := &reservation{
		ID:      s.hash.ID("cr", c.region, "reservation", rs.Counter),
		BlockID: s.hash.ID("cb", c.region, "block", rs.Counter),
		Region:  c.region, AZ: o.AZ, AZID: o.AZID, ZoneType: o.ZoneType,
		CatalogType: o.CatalogType, InstanceType: o.InstanceType, Platform: platform,
		Count: o.Count, Units: o.Units, UltraType: o.UltraType, UltraCount: o.UltraCount,
		Start: o.Start, OrigEnd: o.End, Created: c.now,
		Payment:    s.core.Pay(c.now, o.Start.Add(-PaymentLead), c.region, rs.Counter),
		OfferingID: o.ID, Fee: o.Fee,
		Tags: append(tags, tag{quantityTag, fmt.Sprint(o.Count)}),
	}
	rs.Reservations = append(rs.Reservations, r)
	o.Gone = true
	if e := s.sold(c, rs, o.AZ, o.CatalogType, o.Start, o.End, o.Units); e != nil {
		return nil, e
	}
	var x xmlBody
	writeReservation(&x, s.Account(), "capacityReservation", rs, r, c.now)
	x.open("capacityBlockSet")
	writeBlock(&x, r, c.now)
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
	for _, r := range rs.Reservations {
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
	}
}
