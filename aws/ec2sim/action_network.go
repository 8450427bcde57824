package ec2sim

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

func init() {
	ec2Actions["DescribeRegions"] = guarded(describeRegions)
	ec2Actions["DescribeAvailabilityZones"] = guarded(describeAvailabilityZones)
	ec2Actions["DescribeSubnets"] = guarded(describeSubnets)
}

func describeRegions(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("RegionName")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters("region-name", "endpoint", "opt-in-status")
	if e != nil {
		return nil, e
	}
	if _, e := c.form.optBool("AllRegions"); e != nil {
		return nil, e
	}
	for _, n := range names {
		if _, ok := regions[n]; !ok {
			return nil, badParam("Invalid region name %q; regions: %s.", n, strings.Join(regionNames(), ", "))
		}
	}
	if c.dryRun {
		return nil, errDryRun
	}
	var x xmlBody
	x.open("regionInfo")
	for _, n := range regionNames() {
		if len(names) > 0 && !slices.Contains(names, n) {
			continue
		}
		endpoint := "ec2." + n + ".amazonaws.com"
		if !matchFilters(fs, func(f string) []string {
			return map[string][]string{"region-name": {n}, "endpoint": {endpoint}, "opt-in-status": {"opt-in-not-required"}}[f]
		}) {
			continue
		}
		x.open("item")
		x.str("regionName", n)
		x.str("regionEndpoint", endpoint)
		x.str("optInStatus", "opt-in-not-required")
		x.close("item")
	}
	x.close("regionInfo")
	return &x, nil
}

// optIn is a zone's opt-in status: the demo account has opted in to the Dallas Local Zone,
// where P6e-GB200 UltraServers are sold.
func optIn(z zone) string {
	if z.Type == "local-zone" {
		return "opted-in"
	}
	return "opt-in-not-required"
}

func describeAvailabilityZones(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("ZoneName")
	if e != nil {
		return nil, e
	}
	ids, e := c.form.list("ZoneId")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters("zone-name", "zone-id", "zone-type", "region-name", "state", "group-name", "network-border-group", "opt-in-status")
	if e != nil {
		return nil, e
	}
	if _, e := c.form.optBool("AllAvailabilityZones"); e != nil {
		return nil, e
	}
	reg := regions[c.region]
	for _, n := range names {
		if _, ok := reg.zone(n); !ok {
			return nil, badParam("The zone '%s' does not exist in %s.", n, c.region)
		}
	}
	if c.dryRun {
		return nil, errDryRun
	}
	var x xmlBody
	x.open("availabilityZoneInfo")
	for _, z := range reg.Zones {
		if len(names) > 0 && !slices.Contains(names, z.Name) || len(ids) > 0 && !slices.Contains(ids, z.ID) {
			continue
		}
		vals := map[string][]string{"zone-name": {z.Name}, "zone-id": {z.ID}, "zone-type": {z.Type}, "region-name": {c.region},
			"state": {"available"}, "group-name": {z.Group}, "network-border-group": {z.Group}, "opt-in-status": {optIn(z)}}
		if !matchFilters(fs, func(f string) []string { return vals[f] }) {
			continue
		}
		x.open("item")
		x.str("zoneState", "available")
		x.str("optInStatus", optIn(z))
		x.empty("messageSet")
		x.str("regionName", c.region)
		x.str("zoneName", z.Name)
		x.str("zoneId", z.ID)
		x.str("groupName", z.Group)
		x.str("networkBorderGroup", z.Group)
		x.str("zoneType", z.Type)
		if z.ParentID != "" {
			x.str("parentZoneId", z.ParentID)
			for _, p := range reg.Zones {
				if p.ID == z.ParentID {
					x.str("parentZoneName", p.Name)
				}
			}
		}
		x.close("item")
	}
	x.close("availabilityZoneInfo")
	return &x, nil
}

// The default VPC of a region has one default subnet per zone.
func (s *Server) vpcID(region string) string { return s.hash.id("vpc", region, "default") }

func (s *Server) subnetID(region, az string) string { return s.hash.id("subnet", region, az) }

// subnetZone finds the zone of a subnet of the region's default VPC.
func (s *Server) subnetZone(region, id string) (zone, bool) {
	for _, z := range regions[region].Zones {
		if s.subnetID(region, z.Name) == id {
			return z, true
		}
	}
	return zone{}, false
}

func subnetNotFound(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidSubnetID.NotFound", "The subnet ID '%s' does not exist", id)
}

func describeSubnets(s *Server, c *call) (*xmlBody, *apiError) {
	ids, e := c.form.list("SubnetId")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters("availability-zone", "availability-zone-id", "vpc-id", "subnet-id", "default-for-az", "state", "cidr-block", "owner-id")
	if e != nil {
		return nil, e
	}
	for _, id := range ids {
		if _, ok := s.subnetZone(c.region, id); !ok {
			return nil, subnetNotFound(id)
		}
	}
	var hits []zone
	vpc := s.vpcID(c.region)
	for _, z := range regions[c.region].Zones {
		sid := s.subnetID(c.region, z.Name)
		if len(ids) > 0 && !slices.Contains(ids, sid) {
			continue
		}
		vals := map[string][]string{"availability-zone": {z.Name}, "availability-zone-id": {z.ID}, "vpc-id": {vpc},
			"subnet-id": {sid}, "default-for-az": {"true"}, "state": {"available"}, "cidr-block": {z.CIDRBlock}, "owner-id": {DemoAccount}}
		if matchFilters(fs, func(f string) []string { return vals[f] }) {
			hits = append(hits, z)
		}
	}
	return pageSet(s, c, hits, 5, "subnetSet", func(x *xmlBody, z zone) {
		sid := s.subnetID(c.region, z.Name)
		x.open("item")
		x.str("subnetId", sid)
		x.str("subnetArn", fmt.Sprintf("arn:aws:ec2:%s:%s:subnet/%s", c.region, DemoAccount, sid))
		x.str("state", "available")
		x.str("vpcId", vpc)
		x.str("cidrBlock", z.CIDRBlock)
		x.int("availableIpAddressCount", 4091)
		x.str("availabilityZone", z.Name)
		x.str("availabilityZoneId", z.ID)
		x.bool("defaultForAz", true)
		x.bool("mapPublicIpOnLaunch", true)
		x.str("ownerId", DemoAccount)
		x.close("item")
	})
}
