package ec2sim

import (
	"net/http"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

func init() {
	ec2Actions["DescribeCapacityBlockExtensionOfferings"] = guarded(describeExtensionOfferings)
	ec2Actions["PurchaseCapacityBlockExtension"] = guarded(purchaseExtension)
	ec2Actions["DescribeCapacityBlockExtensionHistory"] = guarded(describeExtensionHistory)
}

// AWS: a block can be extended from 56 days until 1 hour before it ends, up to 182 days in all.
const (
	extendFrom     = 56 * 24 * time.Hour
	extendUntil    = time.Hour
	maxBlockLength = 182 * 24 * time.Hour
)

// extendable checks that a block can be extended now.
func extendable(r *reservation, now time.Time) *apiError {
	st := r.state(now)
	if st != model.StateActive && st != model.StateScheduled {
		return errf(http.StatusBadRequest, "IncorrectState", "Capacity Block %s is %s; only active or scheduled blocks can be extended.", r.ID, st)
	}
	if r.pendingExtension(now) {
		return errf(http.StatusBadRequest, "IncorrectState", "Capacity Block %s has an extension whose payment is pending; wait for it before extending again.", r.ID)
	}
	end := r.end(now)
	if left := end.Sub(now); left < extendUntil || left > extendFrom {
		return errf(http.StatusBadRequest, "IncorrectState", "Capacity Block %s ends at %s; it can be extended from 56 days until 1 hour before its end.", r.ID, formatTime(end))
	}
	return nil
}

func describeExtensionOfferings(s *Server, c *call) (*xmlBody, *apiError) {
	hours, e := c.form.requiredInt("CapacityBlockExtensionDurationHours", -1<<31, 1<<31-1)
	if e != nil {
		return nil, e
	}
	if e := validHours("CapacityBlockExtensionDurationHours", hours); e != nil {
		return nil, e
	}
	id, e := c.form.required("CapacityReservationId")
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	r, e := lookupReservation(rs, id)
	if e != nil {
		return nil, e
	}
	if e := extendable(r, c.now); e != nil {
		return nil, e
	}
	start := r.end(c.now)
	end := start.Add(time.Duration(hours) * time.Hour)
	if end.Sub(r.Start) > maxBlockLength {
		return nil, badParam("Value (%d) for parameter CapacityBlockExtensionDurationHours is invalid: the block would last %d days; a block lasts at most 182 days.", hours, int(end.Sub(r.Start)/(24*time.Hour)))
	}
	pruneOfferings(rs, c.now)
	var offs []*extOffering
	if free := s.freeOver(rs, c.region, r.AZ, r.CatalogType, start, end, c.now); free >= r.Units {
		fee := s.price(c.region, r.AZ, r.CatalogType, r.Units, start, end, c.now.Truncate(time.Minute), free)
		o := &extOffering{ReservationID: r.ID, ExtensionOffer: simcore.ExtensionOffer{Hours: hours, Start: start, End: end, Fee: fee}}
		o.ID = s.id("cbe", c.region, r.ID, start, hours, fee.Micros(), rs.Generation)
		if old, ok := rs.ExtOfferings[o.ID]; ok {
			o = old
		} else {
			rs.ExtOfferings[o.ID] = o
		}
		if !o.Gone {
			offs = append(offs, o)
		}
	}
	return pageSet(s, c, offs, 1, "capacityBlockExtensionOfferingSet", func(x *xmlBody, o *extOffering) {
		x.open("item")
		x.str("capacityBlockExtensionOfferingId", o.ID)
		x.str("instanceType", r.InstanceType)
		x.int("instanceCount", r.Count)
		x.str("availabilityZone", r.AZ)
		x.str("availabilityZoneId", r.AZID)
		x.time("startDate", r.Start)
		x.time("capacityBlockExtensionStartDate", o.Start)
		x.time("capacityBlockExtensionEndDate", o.End)
		x.int("capacityBlockExtensionDurationHours", o.Hours)
		x.str("upfrontFee", o.Fee.String())
		x.str("currencyCode", "USD")
		x.str("tenancy", tenancy(r.Tenancy))
		x.str("zoneType", r.ZoneType)
		x.close("item")
	})
}

func purchaseExtension(s *Server, c *call) (*xmlBody, *apiError) {
	oid, e := c.form.required("CapacityBlockExtensionOfferingId")
	if e != nil {
		return nil, e
	}
	rid, e := c.form.required("CapacityReservationId")
	if e != nil {
		return nil, e
	}
	if !wellFormed("cbe", oid) {
		return nil, errOfferingMalformed
	}
	rs := s.region(c.region)
	r, e := lookupReservation(rs, rid)
	if e != nil {
		return nil, e
	}
	o, ok := rs.ExtOfferings[oid]
	if !ok {
		return nil, errOfferingNotFound
	}
	if o.ReservationID != r.ID {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "Extension offering %s is for Capacity Reservation %s, not %s.", oid, o.ReservationID, r.ID)
	}
	if e := extendable(r, c.now); e != nil {
		return nil, e
	}
	if o.Gone || !r.end(c.now).Equal(o.Start) || s.freeOver(rs, c.region, r.AZ, r.CatalogType, o.Start, o.End, c.now) < r.Units {
		return nil, errOfferingExpired
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs.Counter++
	ext := &extension{o.Bought(c.now, s.core.Pay(c.now, o.Start.Add(-ExtensionPaymentLead), c.region, "extension", rs.Counter))}
	r.Extensions = append(r.Extensions, ext)
	rs.watchPayment(r)
	o.Gone = true
	consume(rs, r.AZ, r.CatalogType, o.Start, o.End, r.Units)
	if e := s.commitSale(c, rs, true); e != nil {
		return nil, e
	}
	var x xmlBody
	x.open("capacityBlockExtensionSet")
	writeExtension(&x, r, ext, c.now)
	x.close("capacityBlockExtensionSet")
	return &x, nil
}

func writeExtension(x *xmlBody, r *reservation, e *extension, now time.Time) {
	x.open("item")
	x.str("capacityReservationId", r.ID)
	x.str("instanceType", r.InstanceType)
	x.int("instanceCount", r.Count)
	x.str("availabilityZone", r.AZ)
	x.str("availabilityZoneId", r.AZID)
	x.str("capacityBlockExtensionOfferingId", e.OfferingID)
	x.int("capacityBlockExtensionDurationHours", e.Hours)
	x.str("capacityBlockExtensionStatus", string(e.status(now)))
	x.time("capacityBlockExtensionPurchaseDate", e.Purchased)
	x.time("capacityBlockExtensionStartDate", e.Start)
	x.time("capacityBlockExtensionEndDate", e.End)
	x.str("upfrontFee", e.Fee.String())
	x.str("currencyCode", "USD")
	x.str("zoneType", r.ZoneType)
	x.close("item")
}

func describeExtensionHistory(s *Server, c *call) (*xmlBody, *apiError) {
	_, all, fs, e := selectDescribed(s, c, "CapacityReservationId", lookupReservation)
	if e != nil {
		return nil, e
	}
	type hit struct {
		r *reservation
		e *extension
	}
	var hits []hit
	for _, r := range all {
		for _, ext := range r.Extensions {
			ok := matchFilters(fs, func(name string) []string {
				switch name {
				case "availability-zone":
					return []string{r.AZ}
				case "availability-zone-id":
					return []string{r.AZID}
				case "capacity-block-extension-offering-id":
					return []string{ext.OfferingID}
				case "capacity-block-extension-status":
					return []string{string(ext.status(c.now))}
				case "capacity-reservation-id":
					return []string{r.ID}
				case "instance-type":
					return []string{r.InstanceType}
				}
				return nil
			})
			if ok {
				hits = append(hits, hit{r, ext})
			}
		}
	}
	return pageSet(s, c, hits, 1, "capacityBlockExtensionSet", func(x *xmlBody, h hit) { writeExtension(x, h.r, h.e, c.now) })
}
