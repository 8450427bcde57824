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
	ec2Actions["ModifyAvailabilityZoneGroup"] = guarded(modifyZoneGroup)
}

// modifyZoneGroup opts the account in to (or out of) a Local Zone group.
func modifyZoneGroup(s *Server, c *call) (*xmlBody, *apiError) {
	group, e := c.form.required("GroupName")
	if e != nil {
		return nil, e
	}
	status, e := c.form.required("OptInStatus")
	if e != nil {
		return nil, e
	}
	if status != "opted-in" && status != "not-opted-in" {
		return nil, badParam("Value (%s) for parameter OptInStatus is invalid. Allowed: opted-in, not-opted-in.", status)
	}
	var groups []string
	for _, z := range regions[c.region].Zones {
		if z.Type == "local-zone" && !slices.Contains(groups, z.Group) {
			groups = append(groups, z.Group)
		}
	}
	if !slices.Contains(groups, group) {
		return nil, badParam("Value (%s) for parameter GroupName is invalid. The opt-in zone groups of %s: %s.", group, c.region, strings.Join(groups, ", "))
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs := s.region(c.region)
	if rs.ZoneGroups == nil {
		rs.ZoneGroups = map[string]string{}
	}
	rs.ZoneGroups[group] = status
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	var x xmlBody
	x.bool("return", true)
	return &x, nil
}

func describeRegions(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("RegionName")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters(filtersOf("DescribeRegions")...)
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

func describeAvailabilityZones(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("ZoneName")
	if e != nil {
		return nil, e
	}
	ids, e := c.form.list("ZoneId")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters(filtersOf("DescribeAvailabilityZones")...)
	if e != nil {
		return nil, e
	}
	all, e := c.form.optBool("AllAvailabilityZones")
	if e != nil {
		return nil, e
	}
	reg := regions[c.region]
	rs := s.region(c.region)
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
		// AWS lists the zones one has not opted in to only with AllAvailabilityZones, or
		// when they are asked for by name or ID.
		if !all && !rs.optedIn(z) && len(names) == 0 && len(ids) == 0 {
			continue
		}
		vals := map[string][]string{"zone-name": {z.Name}, "zone-id": {z.ID}, "zone-type": {z.Type}, "region-name": {c.region},
			"state": {"available"}, "group-name": {z.Group}, "group-long-name": {groupLongName(z)}, "opt-in-status": {rs.optInStatus(z)},
			"parent-zone-id": nonEmpty(z.ParentID), "parent-zone-name": nonEmpty(parentName(reg, z))}
		if !matchFilters(fs, func(f string) []string { return vals[f] }) {
			continue
		}
		x.open("item")
		x.str("zoneState", "available")
		x.str("optInStatus", rs.optInStatus(z))
		x.empty("messageSet")
		x.str("regionName", c.region)
		x.str("zoneName", z.Name)
		x.str("zoneId", z.ID)
		x.str("groupName", z.Group)
		x.str("networkBorderGroup", z.Group)
		x.str("groupLongName", groupLongName(z))
		x.str("zoneType", z.Type)
		if z.ParentID != "" {
			x.str("parentZoneId", z.ParentID)
			x.opt("parentZoneName", parentName(reg, z))
		}
		x.close("item")
	}
	x.close("availabilityZoneInfo")
	return &x, nil
}

func parentName(reg regionInfo, z zone) string {
	for _, p := range reg.Zones {
		if z.ParentID != "" && p.ID == z.ParentID {
			return p.Name
		}
	}
	return ""
}

// regionLongNames are the names the console gives the served regions.
var regionLongNames = map[string]string{
	"us-east-1": "US East (N. Virginia)", "us-east-2": "US East (Ohio)", "us-west-2": "US West (Oregon)",
	"eu-north-1": "Europe (Stockholm)", "eu-west-2": "Europe (London)", "ap-northeast-1": "Asia Pacific (Tokyo)",
	"ap-south-1": "Asia Pacific (Mumbai)", "ap-southeast-2": "Asia Pacific (Sydney)",
}

// groupLongName is the zone group's long name: the region's for an Availability Zone,
// the city's for a Local Zone.
func groupLongName(z zone) string {
	if z.Type == "local-zone" {
		return z.City
	}
	for name, long := range regionLongNames {
		if z.Group == name {
			return long
		}
	}
	return z.Group
}

// The default VPC of a region has one default subnet per zone.
func (s *Server) vpcID(region string) string { return s.id("vpc", region, "default") }

func (s *Server) subnetID(region, az string) string { return s.id("subnet", region, az) }

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
	fs, e := c.form.knownFilters(filtersOf("DescribeSubnets")...)
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
	rs := s.region(c.region)
	for _, z := range regions[c.region].Zones {
		if !rs.optedIn(z) {
			continue // a Local Zone has subnets only once the account has opted in
		}
		sid := s.subnetID(c.region, z.Name)
		if len(ids) > 0 && !slices.Contains(ids, sid) {
			continue
		}
		vals := map[string][]string{"availability-zone": {z.Name}, "availability-zone-id": {z.ID}, "vpc-id": {vpc},
			"subnet-id": {sid}, "default-for-az": {"true"}, "state": {"available"}, "cidr-block": {z.CIDRBlock}, "owner-id": {s.Account()},
			"available-ip-address-count": {"4091"}, "map-public-ip-on-launch": {"true"}, "ipv6-native": {"false"},
			"map-customer-owned-ip-on-launch": {"false"}, "enable-dns64": {"false"},
			"subnet-arn": {fmt.Sprintf("arn:aws:ec2:%s:%s:subnet/%s", c.region, s.Account(), sid)}}
		if matchFilters(fs, func(f string) []string { return vals[f] }) {
			hits = append(hits, z)
		}
	}
	return pageSet(s, c, hits, 5, "subnetSet", func(x *xmlBody, z zone) {
		sid := s.subnetID(c.region, z.Name)
		x.open("item")
		x.str("subnetId", sid)
		x.str("subnetArn", fmt.Sprintf("arn:aws:ec2:%s:%s:subnet/%s", c.region, s.Account(), sid))
		x.str("state", "available")
		x.str("vpcId", vpc)
		x.str("cidrBlock", z.CIDRBlock)
		x.int("availableIpAddressCount", 4091)
		x.str("availabilityZone", z.Name)
		x.str("availabilityZoneId", z.ID)
		x.bool("defaultForAz", true)
		x.bool("mapPublicIpOnLaunch", true)
		x.str("ownerId", s.Account())
		x.close("item")
	})
}
