package ec2sim

import (
	"slices"
	"sort"
	"strconv"
)

// zone is an Availability Zone or Local Zone as DescribeAvailabilityZones shows it.
type zone struct {
	Name, ID  string
	Type      string // availability-zone or local-zone
	Group     string // network border group
	ParentID  string // Local Zones only
	CIDRBlock string // of the default subnet
	// Local Zones only: the long name of the zone group, the types of Capacity Blocks sold
	// there, and whether the demo account starts opted in to it.
	City       string
	Sells      []string
	OptedInNow bool
}

type regionInfo struct {
	Name  string
	Zones []zone
}

// regions are the regions the emulator serves, with AWS's zone names: exactly those where
// gpublock's catalog says Capacity Blocks are sold (model.Regions), so that a demo or a
// test cannot point at a region the application would never search. Zone IDs are
// account-specific in AWS; these are one plausible mapping.
var regions = map[string]regionInfo{
	"us-east-1": {"us-east-1", []zone{
		{Name: "us-east-1a", ID: "use1-az4"}, {Name: "us-east-1b", ID: "use1-az6"},
		{Name: "us-east-1c", ID: "use1-az1"}, {Name: "us-east-1d", ID: "use1-az2"},
		{Name: "us-east-1e", ID: "use1-az3"}, {Name: "us-east-1f", ID: "use1-az5"},
		// AWS sells P6e-GB200 UltraServers in the Dallas Local Zone and P5 in the Atlanta one
		// (EC2 API, February 2026). The demo account is opted in to Dallas, not to Atlanta:
		// its offerings show only with AllAvailabilityZones, and launching there needs
		// ModifyAvailabilityZoneGroup first.
		{Name: "us-east-1-dfw-2a", ID: "use1-dfw2-az1", Type: "local-zone", Group: "us-east-1-dfw-2", ParentID: "use1-az4",
			City: "US East (Dallas) 2", Sells: []string{"u-p6e-gb200x72", "u-p6e-gb200x36"}, OptedInNow: true},
		{Name: "us-east-1-atl-2a", ID: "use1-atl2-az1", Type: "local-zone", Group: "us-east-1-atl-2", ParentID: "use1-az1",
			City: "US East (Atlanta) 2", Sells: []string{"p5.48xlarge"}},
	}},
	"us-east-2": {"us-east-2", []zone{
		{Name: "us-east-2a", ID: "use2-az1"}, {Name: "us-east-2b", ID: "use2-az2"}, {Name: "us-east-2c", ID: "use2-az3"},
	}},
	"us-west-2": {"us-west-2", []zone{
		{Name: "us-west-2a", ID: "usw2-az1"}, {Name: "us-west-2b", ID: "usw2-az2"},
		{Name: "us-west-2c", ID: "usw2-az3"}, {Name: "us-west-2d", ID: "usw2-az4"},
	}},
	"eu-north-1": {"eu-north-1", []zone{
		{Name: "eu-north-1a", ID: "eun1-az1"}, {Name: "eu-north-1b", ID: "eun1-az2"}, {Name: "eu-north-1c", ID: "eun1-az3"},
	}},
	"eu-west-2": {"eu-west-2", []zone{
		{Name: "eu-west-2a", ID: "euw2-az2"}, {Name: "eu-west-2b", ID: "euw2-az3"}, {Name: "eu-west-2c", ID: "euw2-az1"},
	}},
	"ap-northeast-1": {"ap-northeast-1", []zone{
		{Name: "ap-northeast-1a", ID: "apne1-az4"}, {Name: "ap-northeast-1c", ID: "apne1-az1"}, {Name: "ap-northeast-1d", ID: "apne1-az2"},
	}},
	"ap-south-1": {"ap-south-1", []zone{
		{Name: "ap-south-1a", ID: "aps1-az1"}, {Name: "ap-south-1b", ID: "aps1-az3"}, {Name: "ap-south-1c", ID: "aps1-az2"},
	}},
	"ap-southeast-2": {"ap-southeast-2", []zone{
		{Name: "ap-southeast-2a", ID: "apse2-az1"}, {Name: "ap-southeast-2b", ID: "apse2-az3"}, {Name: "ap-southeast-2c", ID: "apse2-az2"},
	}},
}

func init() {
	for name, r := range regions {
		n := 0
		for i := range r.Zones {
			z := &r.Zones[i]
			if z.Type == "" {
				z.Type = "availability-zone"
			}
			if z.Group == "" {
				z.Group = name
			}
			z.CIDRBlock = "172.31." + strconv.Itoa(n*16) + ".0/20"
			n++
		}
	}
}

func regionNames() []string {
	out := make([]string, 0, len(regions))
	for n := range regions {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func (r regionInfo) zone(name string) (zone, bool) {
	for _, z := range r.Zones {
		if z.Name == name {
			return z, true
		}
	}
	return zone{}, false
}

// zonesFor are the zones where blocks of typ are sold: UltraServers only in the Local
// Zones that sell them, other types in every Availability Zone and in the Local Zones
// that sell them. A zone the account has not opted in to counts only when allZones is
// set (AllAvailabilityZones).
func (r regionInfo) zonesFor(typ string, ultra, allZones bool, rs *regionState) []zone {
	var out []zone
	for _, z := range r.Zones {
		sold := z.Type != "local-zone" && !ultra || slices.Contains(z.Sells, typ)
		if sold && (allZones || rs.optedIn(z)) {
			out = append(out, z)
		}
	}
	return out
}

// carrierZones are the zones among which one always carries a type (see carries): the
// Availability Zones, or for UltraServers the Local Zones. A Local Zone that sells a type
// other than an UltraServer carries it without being among them, so that adding it left
// the Availability Zones' market as it was.
func (r regionInfo) carrierZones(ultra bool) []zone {
	var out []zone
	for _, z := range r.Zones {
		if (z.Type == "local-zone") == ultra {
			out = append(out, z)
		}
	}
	return out
}

// localZoneSells reports whether az is a Local Zone that sells typ: it always carries it.
func localZoneSells(region, az, typ string) bool {
	z, ok := regions[region].zone(az)
	return ok && z.Type == "local-zone" && slices.Contains(z.Sells, typ)
}

// optedIn reports whether the account may use the zone: Availability Zones need no
// opt-in; a Local Zone's group is opted in from the start or by ModifyAvailabilityZoneGroup.
func (rs *regionState) optedIn(z zone) bool {
	if z.Type != "local-zone" {
		return true
	}
	if st, ok := rs.ZoneGroups[z.Group]; ok {
		return st == "opted-in"
	}
	return z.OptedInNow
}

// optInStatus is the zone's opt-in status as DescribeAvailabilityZones gives it.
func (rs *regionState) optInStatus(z zone) string {
	switch {
	case z.Type != "local-zone":
		return "opt-in-not-required"
	case rs.optedIn(z):
		return "opted-in"
	}
	return "not-opted-in"
}

// Regions lists, sorted, the regions the emulator serves: those where Capacity Blocks are
// sold (model.Regions).
func Regions() []string { return regionNames() }
