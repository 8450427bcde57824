package ec2sim

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gpublock/gpublock/model"
)

func init() {
	ec2Actions["DescribeCapacityReservations"] = guarded(describeCapacityReservations)
	ec2Actions["DescribeCapacityBlocks"] = guarded(describeCapacityBlocks)
	ec2Actions["DescribeCapacityBlockStatus"] = guarded(describeCapacityBlockStatus)
}

func reservationNotFound(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidCapacityReservationId.NotFound", "The capacity reservation ID '%s' does not exist.", id)
}

func reservationMalformed(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidCapacityReservationId.Malformed", "The capacity reservation ID '%s' is malformed; it has the form cr-xxxxxxxxxxxxxxxxx.", id)
}

// lookupReservation finds a reservation by a client-given ID.
func lookupReservation(rs *regionState, id string) (*reservation, *apiError) {
	if !wellFormed("cr", id) {
		return nil, reservationMalformed(id)
	}
	r := rs.reservation(id)
	if r == nil {
		return nil, reservationNotFound(id)
	}
	return r, nil
}

// selectByIDs returns the reservations named (in request order), or all of them.
func selectByIDs(rs *regionState, ids []string, byID func(*regionState, string) (*reservation, *apiError)) ([]*reservation, *apiError) {
	if len(ids) == 0 {
		return rs.Reservations, nil
	}
	var out []*reservation
	seen := map[*reservation]bool{}
	for _, id := range ids {
		r, e := byID(rs, id)
		if e != nil {
			return nil, e
		}
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// selectDescribed reads a Describe action's ids (idParam) and its documented filters, and
// selects the region's reservations by those ids (every one when none is given).
func selectDescribed(s *Server, c *call, idParam string, byID func(*regionState, string) (*reservation, *apiError)) (*regionState, []*reservation, []filter, *apiError) {
	ids, e := c.form.list(idParam)
	if e != nil {
		return nil, nil, nil, e
	}
	fs, e := c.form.knownFilters(filtersOf(c.action)...)
	if e != nil {
		return nil, nil, nil, e
	}
	rs := s.region(c.region)
	all, e := selectByIDs(rs, ids, byID)
	return rs, all, fs, e
}

func describeCapacityReservations(s *Server, c *call) (*xmlBody, *apiError) {
	rs, all, fs, e := selectDescribed(s, c, "CapacityReservationId", lookupReservation)
	if e != nil {
		return nil, e
	}
	hits := matching(all, fs, func(r *reservation, name string) []string { return reservationField(s.Account(), r, name, c.now) })
	return pageSet(s, c, hits, 1, "capacityReservationSet", func(x *xmlBody, r *reservation) {
		writeReservation(x, s.Account(), "item", rs, r, c.now)
	})
}

func reservationField(account string, r *reservation, name string, now time.Time) []string {
	if v, ok := tagValues(r.Tags, name); ok {
		return v
	}
	switch name {
	case "state":
		return []string{string(r.state(now))}
	case "instance-type":
		return []string{r.InstanceType}
	case "availability-zone":
		return []string{r.AZ}
	case "owner-id":
		return []string{account}
	case "instance-platform":
		return []string{r.Platform}
	case "tenancy":
		return []string{tenancy(r.Tenancy)}
	case "end-date-type":
		return []string{"limited"}
	case "instance-match-criteria":
		return []string{"targeted"}
	case "start-date":
		return []string{formatTime(r.Start)}
	case "end-date":
		return []string{formatTime(r.end(now))}
	}
	return nil // outpost-arn, placement-group-arn: a Capacity Block has neither
}

func writeReservation(x *xmlBody, account, elem string, rs *regionState, r *reservation, now time.Time) {
	x.open(elem)
	x.str("capacityReservationId", r.ID)
	x.str("ownerId", account)
	x.str("capacityReservationArn", fmt.Sprintf("arn:aws:ec2:%s:%s:capacity-reservation/%s", r.Region, account, r.ID))
	x.str("availabilityZoneId", r.AZID)
	x.str("instanceType", r.InstanceType)
	x.str("instancePlatform", r.Platform)
	x.str("availabilityZone", r.AZ)
	x.str("tenancy", tenancy(r.Tenancy))
	x.int("totalInstanceCount", r.Count)
	x.int("availableInstanceCount", rs.available(r, now))
	x.bool("ebsOptimized", true)
	x.bool("ephemeralStorage", false)
	x.str("state", string(r.state(now)))
	x.time("startDate", r.Start)
	x.time("endDate", r.end(now))
	x.str("endDateType", "limited")
	x.str("instanceMatchCriteria", "targeted")
	x.time("createDate", r.Created)
	x.tags("tagSet", r.Tags)
	if used := rs.used(r, now); used > 0 {
		x.open("capacityAllocationSet")
		x.open("item")
		x.str("allocationType", "used")
		x.int("count", used)
		x.close("item")
		x.close("capacityAllocationSet")
	} else {
		x.empty("capacityAllocationSet")
	}
	x.str("reservationType", "capacity-block")
	x.str("capacityBlockId", r.BlockID)
	x.close(elem)
}

// userTags are the tags a person gave, without AWS's own.
func userTags(tags []tag) []tag {
	var out []tag
	for _, t := range tags {
		if t.Key != quantityTag {
			out = append(out, t)
		}
	}
	return out
}

func writeBlock(x *xmlBody, r *reservation, now time.Time) {
	x.open("item")
	x.str("capacityBlockId", r.BlockID)
	x.opt("ultraserverType", r.UltraType)
	x.str("availabilityZone", r.AZ)
	x.str("availabilityZoneId", r.AZID)
	x.open("capacityReservationIdSet")
	x.str("item", r.ID)
	x.close("capacityReservationIdSet")
	x.time("startDate", r.Start)
	x.time("endDate", r.end(now))
	x.time("createDate", r.Created)
	x.str("state", string(r.state(now)))
	x.tags("tagSet", userTags(r.Tags))
	x.close("item")
}

func lookupBlock(rs *regionState, id string) (*reservation, *apiError) {
	if !wellFormed("cb", id) {
		return nil, badParam("The Capacity Block ID '%s' is malformed; it has the form cb-xxxxxxxxxxxxxxxxx.", id)
	}
	r := rs.block(id)
	if r == nil {
		// EC2's error codes name none for an unknown Capacity Block ID.
		return nil, badParam("The Capacity Block ID '%s' does not exist.", id)
	}
	return r, nil
}

func describeCapacityBlocks(s *Server, c *call) (*xmlBody, *apiError) {
	_, all, fs, e := selectDescribed(s, c, "CapacityBlockId", lookupBlock)
	if e != nil {
		return nil, e
	}
	hits := matching(all, fs, func(r *reservation, name string) []string { return blockField(r, name, c.now) })
	return pageSet(s, c, hits, 1, "capacityBlockSet", func(x *xmlBody, r *reservation) { writeBlock(x, r, c.now) })
}

func blockField(r *reservation, name string, now time.Time) []string {
	if v, ok := tagValues(userTags(r.Tags), name); ok {
		return v
	}
	switch name {
	case "capacity-block-id":
		return []string{r.BlockID}
	case "ultraserver-type":
		if r.UltraType != "" {
			return []string{"ultraservers"}
		}
		return []string{"instances"}
	case "availability-zone":
		return []string{r.AZ}
	case "state":
		return []string{string(r.state(now))}
	case "start-date":
		return []string{formatTime(r.Start)}
	case "end-date":
		return []string{formatTime(r.end(now))}
	case "create-date":
		return []string{formatTime(r.Created)}
	case "tags":
		// The reference names this filter "tags" without its values' form; a value is
		// matched against each tag as KEY=VALUE and as its key alone (unconfirmed).
		var out []string
		for _, t := range userTags(r.Tags) {
			out = append(out, t.Key+"="+t.Value, t.Key)
		}
		return out
	}
	return nil
}

// interconnect is the status of the block's network fabric: known only while it runs.
func interconnect(r *reservation, now time.Time) string {
	if r.state(now) == model.StateActive {
		return "ok"
	}
	return "insufficient-data"
}

func describeCapacityBlockStatus(s *Server, c *call) (*xmlBody, *apiError) {
	rs, all, fs, e := selectDescribed(s, c, "CapacityBlockId", lookupBlock)
	if e != nil {
		return nil, e
	}
	f := s.currentFaults()
	status := func(r *reservation) string {
		if st := interconnect(r, c.now); st != "ok" || !f.Impaired {
			return st
		}
		return "impaired"
	}
	hits := matching(all, fs, func(r *reservation, _ string) []string { return []string{status(r)} })
	return pageSet(s, c, hits, 1, "capacityBlockStatusSet", func(x *xmlBody, r *reservation) {
		avail, lost := rs.available(r, c.now), 0
		if r.state(c.now) == model.StateActive {
			lost = min(f.Unavailable, r.Count)
			avail = max(0, avail-lost)
		}
		x.open("item")
		x.str("capacityBlockId", r.BlockID)
		x.str("interconnectStatus", status(r))
		x.int("totalCapacity", r.Count)
		x.int("totalAvailableCapacity", avail)
		x.int("totalUnavailableCapacity", lost)
		x.open("capacityReservationStatusSet")
		x.open("item")
		x.str("capacityReservationId", r.ID)
		x.int("totalCapacity", r.Count)
		x.int("totalAvailableCapacity", avail)
		x.int("totalUnavailableCapacity", lost)
		x.close("item")
		x.close("capacityReservationStatusSet")
		x.close("item")
	})
}
