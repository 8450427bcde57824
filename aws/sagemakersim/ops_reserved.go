package sagemakersim

import (
	"fmt"
	"time"
)

// reservedCapacity finds a reserved capacity by its ARN.
func (rs *regionState) reservedCapacity(region, arn string, now time.Time) (*plan, capacity, int, bool) {
	for _, p := range rs.Plans {
		for i, cp := range p.capacities(now) {
			if capacityARN(region, p, i) == arn {
				return p, cp, i, true
			}
		}
	}
	return nil, capacity{}, 0, false
}

func (h *handler) describeReservedCapacity(c *call) (any, *apiError) {
	var in struct {
		ReservedCapacityArn *string `json:"ReservedCapacityArn"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ReservedCapacityArn", in.ReservedCapacityArn != nil),
		checkString("ReservedCapacityArn", in.ReservedCapacityArn, 50, 2048, patReservedCapArn)); e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	p, cp, _, ok := c.rs.reservedCapacity(c.region, *in.ReservedCapacityArn, c.now)
	if !ok {
		return nil, notFound("Reserved capacity %s does not exist.", *in.ReservedCapacityArn)
	}
	st := p.capStatus(cp, c.now)
	avail := 0
	if st == "Active" {
		avail = cp.Count
	}
	out := map[string]any{
		"ReservedCapacityArn": *in.ReservedCapacityArn, "ReservedCapacityType": capType(cp), "Status": st,
		"AvailabilityZone": cp.AZ, "DurationHours": cp.hours(), "DurationMinutes": 0,
		"StartTime": tsp(cp.Start), "EndTime": tsp(cp.End), "InstanceType": cp.InstanceType,
		"TotalInstanceCount": cp.Count, "AvailableInstanceCount": avail, "InUseInstanceCount": 0,
	}
	if cp.UltraType != "" {
		out["UltraServerSummary"] = map[string]any{"UltraServerType": cp.UltraType, "InstanceType": cp.InstanceType,
			"UltraServerCount": cp.UltraCount, "AvailableSpareInstanceCount": sparesIf(st, p.Spare*cp.UltraCount), "UnhealthyInstanceCount": 0}
	}
	return out, nil
}

func sparesIf(status string, n int) int {
	if status == "Active" {
		return n
	}
	return 0
}

const ultraDefault = 10 // ListUltraServersByReservedCapacity MaxResults default (S1/S2)

func (h *handler) listUltraServers(c *call) (any, *apiError) {
	var in struct {
		ReservedCapacityArn *string `json:"ReservedCapacityArn"`
		MaxResults          *int    `json:"MaxResults"`
		NextToken           *string `json:"NextToken"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ReservedCapacityArn", in.ReservedCapacityArn != nil),
		checkString("ReservedCapacityArn", in.ReservedCapacityArn, 50, 2048, patReservedCapArn)); e != nil {
		return nil, e
	}
	p, cp, i, ok := c.rs.reservedCapacity(c.region, *in.ReservedCapacityArn, c.now)
	n := 0
	if ok && cp.UltraType != "" {
		n = cp.UltraCount
	}
	from, to, next, e := page(in.NextToken, in.MaxResults, ultraDefault, n)
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if !ok {
		return nil, notFound("Reserved capacity %s does not exist.", *in.ReservedCapacityArn)
	}
	st := p.capStatus(cp, c.now)
	servers := []map[string]any{}
	if cp.UltraType != "" {
		per := cp.Count / cp.UltraCount
		for k := from; k < to; k++ {
			avail := 0
			if st == "Active" {
				avail = per
			}
			servers = append(servers, map[string]any{
				"UltraServerId":   fmt.Sprintf("us-%016x", h.core.Hash("sm-ultra", c.region, p.Name, i, k)),
				"UltraServerType": cp.UltraType, "AvailabilityZone": cp.AZ, "InstanceType": cp.InstanceType,
				"TotalInstanceCount": per, "ConfiguredSpareInstanceCount": p.Spare, "AvailableInstanceCount": avail,
				"InUseInstanceCount": 0, "AvailableSpareInstanceCount": sparesIf(st, p.Spare), "UnhealthyInstanceCount": 0,
				"HealthStatus": "OK"})
		}
	}
	return struct {
		NextToken    *string          `json:"NextToken,omitempty"`
		UltraServers []map[string]any `json:"UltraServers"`
	}{next, servers}, nil
}
