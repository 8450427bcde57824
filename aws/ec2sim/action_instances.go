package ec2sim

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

func init() {
	ec2Actions["RunInstances"] = guarded(runInstances)
	ec2Actions["DescribeInstances"] = guarded(describeInstances)
	ec2Actions["TerminateInstances"] = guarded(terminateInstances)
}

const marketTypeMessage = "The market type (purchasing) option is not valid. Choose a different market type and try again"

// network is where a launch puts its instances and the security groups it names.
type network struct {
	subnets              []string // every subnet named, each to be in the reservation's zone
	groupIDs, groupNames []string // every group named, each to be checked
	primaryGroups        []string // the instances' groups, by id
}

// launchNetwork reads a launch's network: the request's SubnetId and security groups, or,
// when it gives network interfaces (as launch templates for EFA do), the subnet and groups
// of the primary one (DeviceIndex 0), every interface's subnet and groups checked. AWS refuses an
// instance-level subnet or groups beside network interfaces (InvalidParameterCombination).
// An existing interface (NetworkInterfaceId) is refused: the emulator makes none.
func launchNetwork(f form) (network, *apiError) {
	var n network
	var e *apiError
	subnet := f.str("SubnetId")
	if subnet != "" {
		n.subnets = []string{subnet}
	}
	if n.groupIDs, e = f.list("SecurityGroupId"); e != nil {
		return n, e
	}
	if n.groupNames, e = f.list("SecurityGroup"); e != nil {
		return n, e
	}
	nis, e := f.indices("NetworkInterface")
	if e != nil || len(nis) == 0 {
		n.primaryGroups = n.groupIDs
		return n, e
	}
	switch {
	case subnet != "":
		return n, errf(http.StatusBadRequest, "InvalidParameterCombination", "Network interfaces and an instance-level subnet ID may not be specified on the same request")
	case len(n.groupIDs) > 0 || len(n.groupNames) > 0:
		return n, errf(http.StatusBadRequest, "InvalidParameterCombination", "Network interfaces and an instance-level security groups may not be specified on the same request")
	}
	primary := false
	for _, i := range nis {
		p := "NetworkInterface." + strconv.Itoa(i) + "."
		if id := f.str(p + "NetworkInterfaceId"); id != "" {
			return n, errf(http.StatusBadRequest, "InvalidNetworkInterfaceID.NotFound", "The networkInterface ID '%s' does not exist", id)
		}
		ids, e := f.list(p + "SecurityGroupId")
		if e != nil {
			return n, e
		}
		n.groupIDs = append(n.groupIDs, ids...)
		if sid := f.str(p + "SubnetId"); sid != "" {
			n.subnets = append(n.subnets, sid)
		}
		if f.str(p+"DeviceIndex") == "0" {
			if primary {
				return n, badParam("Two network interfaces have DeviceIndex 0; a launch has one primary interface.")
			}
			primary, n.primaryGroups = true, ids
		}
	}
	// An instance needs a primary interface; the code AWS answers without one is not
	// documented, and the launch is refused either way.
	if !primary {
		return n, badParam("No network interface has DeviceIndex 0; a launch given network interfaces needs its primary one.")
	}
	return n, nil
}

func runInstances(s *Server, c *call) (*xmlBody, *apiError) {
	rs := s.region(c.region)
	f, e := launchParams(rs, c.form)
	if e != nil {
		return nil, e
	}
	image, e := f.required("ImageId")
	if e != nil {
		return nil, e
	}
	img, e := lookupImage(image)
	if e != nil {
		return nil, e
	}
	minN, e := f.requiredInt("MinCount", 1, 1000)
	if e != nil {
		return nil, e
	}
	maxN, e := f.requiredInt("MaxCount", 1, 1000)
	if e != nil {
		return nil, e
	}
	if minN > maxN {
		return nil, badParam("MinCount (%d) is greater than MaxCount (%d).", minN, maxN)
	}
	if f.str("InstanceMarketOptions.MarketType") != "capacity-block" {
		return nil, badParam(marketTypeMessage)
	}
	rid := f.str("CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId")
	if rid == "" {
		return nil, missingParam("CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId (required with MarketType capacity-block)")
	}
	if p := f.str("CapacityReservationSpecification.CapacityReservationPreference"); p != "" && p != "capacity-reservations-only" {
		return nil, badParam("Value (%s) for parameter CapacityReservationSpecification.CapacityReservationPreference is invalid with a targeted Capacity Block; use capacity-reservations-only or omit it.", p)
	}
	// RunInstances may also tag the volumes and network interfaces it makes, which the
	// emulator does not keep: their tags are checked, and only the instance's are kept.
	tags, e := tagsFor(f, []string{"instance"}, []string{"instance", "volume", "network-interface"})
	if e != nil {
		return nil, e
	}
	if k := f.str("KeyName"); k != "" && rs.keyPair(k) == nil {
		return nil, keyPairNotFound(k)
	}
	net, e := launchNetwork(f)
	if e != nil {
		return nil, e
	}
	if e := s.checkGroups(c.region, net.groupIDs, net.groupNames); e != nil {
		return nil, e
	}
	r, e := lookupReservation(rs, rid)
	if e != nil {
		return nil, e
	}
	// AWS does not take the type from the reservation: without InstanceType it launches
	// its default, m1.small, which no Capacity Block holds. The code AWS answers a type
	// that differs from a targeted reservation's is not documented; InvalidParameterValue
	// is the safer reading (the launch is refused either way).
	typ := f.str("InstanceType")
	if typ == "" {
		return nil, badParam("The parameter InstanceType is not given, so EC2 launches its default, m1.small; Capacity Reservation %s is for %s: pass InstanceType=%s.", r.ID, r.InstanceType, r.InstanceType)
	}
	if typ != r.InstanceType {
		return nil, badParam("Value (%s) for parameter InstanceType is invalid: Capacity Reservation %s is for %s.", typ, r.ID, r.InstanceType)
	}
	if arch := architecture(typ); arch != img.Arch {
		return nil, badParam("The architecture '%s' of the specified instance type does not match the architecture '%s' of the specified AMI. Specify an instance type and an AMI that have matching architectures, and try again.", arch, img.Arch)
	}
	// AWS requires the AMI's platform to be the block's; the code of the refusal is not
	// documented, and InvalidParameterCombination is the closest documented one.
	if img.PlatformDetails != r.Platform {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination",
			"The platform of AMI %s (%s) does not match the platform of Capacity Reservation %s (%s); launch an AMI of the block's platform.", img.ID, img.PlatformDetails, r.ID, r.Platform)
	}
	// A reservation takes only instances of its tenancy (dstack learnt it: a dedicated
	// one needs Placement.Tenancy dedicated). AWS's code for the refusal is not documented;
	// it is read as ReservationCapacityExceeded, the code AWS answers a targeted launch the
	// reservation has no "compatible and available capacity" for.
	ten := f.str("Placement.Tenancy")
	switch ten {
	case "", tenancyDefault, tenancyDedicated:
	case "host":
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "Capacity Reservations can't be used with Dedicated Hosts (Placement.Tenancy host).")
	default:
		return nil, badParam("Value (%s) for parameter Placement.Tenancy is invalid. Allowed: default, dedicated, host.", ten)
	}
	if tenancy(ten) != tenancy(r.Tenancy) {
		return nil, errf(http.StatusBadRequest, "ReservationCapacityExceeded",
			"The requested reservation does not have sufficient compatible and available capacity for this request: Capacity Reservation %s has %s tenancy and the launch asks for %s (Placement.Tenancy).", r.ID, tenancy(r.Tenancy), tenancy(ten))
	}
	for _, sid := range net.subnets {
		sz, ok := s.subnetZone(c.region, sid)
		if !ok {
			return nil, subnetNotFound(sid)
		}
		if sz.Name != r.AZ {
			return nil, badParam("Subnet %s is in %s, but Capacity Reservation %s is in %s; launch into a subnet of %s.", sid, sz.Name, r.ID, r.AZ, r.AZ)
		}
	}
	z, _ := regions[c.region].zone(r.AZ)
	if az := f.str("Placement.AvailabilityZone"); az != "" && az != r.AZ {
		return nil, badParam("Placement.AvailabilityZone %s differs from the Availability Zone of Capacity Reservation %s (%s).", az, r.ID, r.AZ)
	}
	// AWS requires the account to be opted in to a Local Zone to launch there; the code of
	// the refusal is not documented.
	if !rs.optedIn(z) {
		return nil, badParam("The account is not opted in to the Local Zone group %s of %s; opt in with ModifyAvailabilityZoneGroup first.", z.Group, z.Name)
	}
	token := f.str("ClientToken")
	if launch, ok := rs.ClientTokens[token]; ok && token != "" {
		return writeLaunch(s, rs, launch, c.now), nil // idempotent retry
	}
	switch st := r.state(c.now); st {
	case model.StateActive:
	case model.StateExpired:
		return nil, errf(http.StatusBadRequest, "InvalidLaunchTargets", "Capacity Reservation %s expired at %s.", r.ID, formatTime(r.end(c.now)))
	case model.StatePaymentFailed:
		return nil, errf(http.StatusBadRequest, "InvalidLaunchTargets", "Capacity Reservation %s is payment-failed: its payment was not processed, and it will not start.", r.ID)
	default:
		return nil, errf(http.StatusBadRequest, "InvalidCapacityReservationState.PendingActivation", "Your Capacity Block is not active yet. Capacity Reservation %s is %s and starts at %s.", r.ID, st, formatTime(r.Start))
	}
	if term := r.end(c.now).Add(-model.TerminationLead); !c.now.Before(term) {
		return nil, errf(http.StatusBadRequest, "InvalidLaunchTargets", "Capacity Reservation %s ends at %s; its instances are being terminated from %s.", r.ID, formatTime(r.end(c.now)), formatTime(term))
	}
	avail := rs.available(r, c.now)
	if minN > avail {
		return nil, errf(http.StatusBadRequest, "ReservationCapacityExceeded",
			"The targeted Capacity Reservation does not have enough available instance capacity to fulfill your request: %d requested, %d available in %s.", minN, avail, r.ID)
	}
	if c.dryRun {
		return nil, errDryRun
	}
	n := min(maxN, avail)
	// Named groups can only be the default one (checkGroups); none given means it too.
	groups := net.primaryGroups
	if len(groups) == 0 {
		groups = []string{s.defaultGroupID(c.region)}
	}
	rs.Counter++
	launch := s.id("r", c.region, "launch", rs.Counter)
	for i := 0; i < n; i++ {
		k := len(rs.Instances)
		third, _ := strconv.Atoi(strings.Split(z.CIDRBlock, ".")[2])
		rs.Instances = append(rs.Instances, &instance{
			ID:       s.id("i", c.region, "instance", rs.Counter, i),
			LaunchID: launch, ClientToken: token, ReservationID: r.ID, BlockID: r.BlockID,
			ImageID: image, InstanceType: r.InstanceType, SubnetID: s.subnetID(c.region, z.Name), VpcID: s.vpcID(c.region),
			AZ: z.Name, PrivateIP: fmt.Sprintf("172.31.%d.%d", third+k/250%16, k%250+4),
			KeyName: f.str("KeyName"), Groups: groups, LaunchIndex: i, Launched: c.now, Tags: tags,
			Tenancy: r.Tenancy,
		})
	}
	if token != "" {
		rs.ClientTokens[token] = launch
	}
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	return writeLaunch(s, rs, launch, c.now), nil
}

// writeLaunch answers RunInstances: the reservation's fields sit directly under the root.
func writeLaunch(s *Server, rs *regionState, launch string, now time.Time) *xmlBody {
	var x xmlBody
	x.str("reservationId", launch)
	x.str("ownerId", s.Account())
	x.empty("groupSet")
	x.open("instancesSet")
	for _, in := range rs.Instances {
		if in.LaunchID == launch {
			writeInstance(&x, in, rs.reservation(in.ReservationID), now)
		}
	}
	x.close("instancesSet")
	return &x
}

func writeInstance(x *xmlBody, in *instance, r *reservation, now time.Time) {
	st := in.state(r, now)
	x.open("item")
	x.str("instanceId", in.ID)
	x.str("imageId", in.ImageID)
	writeState(x, "instanceState", st)
	x.str("privateDnsName", "ip-"+strings.ReplaceAll(in.PrivateIP, ".", "-")+".ec2.internal")
	x.empty("dnsName")
	if st == stateShuttingDown || st == stateTerminated {
		reason := "User initiated"
		if in.TerminateAt.IsZero() || in.TerminateAt.After(in.terminateAt(r, now)) {
			reason = "Capacity Block expiring"
		}
		// AWS adds the transition's time in this shape: "User initiated (2026-12-03 11:00:02 GMT)".
		x.str("reason", reason+" ("+in.terminateAt(r, now).UTC().Format("2006-01-02 15:04:05")+" GMT)")
	} else {
		x.empty("reason")
	}
	x.opt("keyName", in.KeyName)
	if len(in.Groups) > 0 {
		x.open("groupSet")
		for _, g := range in.Groups {
			x.open("item")
			x.str("groupId", g)
			x.str("groupName", "default")
			x.close("item")
		}
		x.close("groupSet")
	}
	x.int("amiLaunchIndex", in.LaunchIndex)
	x.opt("clientToken", in.ClientToken)
	x.empty("productCodes")
	x.str("instanceType", in.InstanceType)
	x.time("launchTime", in.Launched)
	x.open("placement")
	x.str("availabilityZone", in.AZ)
	x.empty("groupName")
	x.str("tenancy", tenancy(in.Tenancy))
	x.close("placement")
	x.open("monitoring")
	x.str("state", "disabled")
	x.close("monitoring")
	if st != stateTerminated {
		x.str("subnetId", in.SubnetID)
		x.str("vpcId", in.VpcID)
		x.str("privateIpAddress", in.PrivateIP)
	}
	x.str("architecture", architecture(in.InstanceType))
	x.str("instanceLifecycle", "capacity-block")
	x.str("capacityReservationId", in.ReservationID)
	x.str("capacityBlockId", in.BlockID)
	x.open("capacityReservationSpecification")
	x.str("capacityReservationPreference", "capacity-reservations-only")
	x.open("capacityReservationTarget")
	x.str("capacityReservationId", in.ReservationID)
	x.close("capacityReservationTarget")
	x.close("capacityReservationSpecification")
	x.tags("tagSet", in.Tags)
	x.close("item")
}

// architecture: GB200 UltraServer members have Grace (Arm) CPUs.
func architecture(typ string) string {
	if strings.HasPrefix(typ, "p6e-gb200") {
		return "arm64"
	}
	return "x86_64"
}

func instanceNotFound(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidInstanceID.NotFound", "The instance ID '%s' does not exist", id)
}

// lookupInstances resolves client-given instance IDs.
func lookupInstances(rs *regionState, ids []string, now time.Time) ([]*instance, *apiError) {
	var out []*instance
	for _, id := range ids {
		if !wellFormed("i", id) {
			return nil, errf(http.StatusBadRequest, "InvalidInstanceID.Malformed", "Invalid id: \"%s\" (expecting \"i-...\")", id)
		}
		var found *instance
		for _, in := range rs.Instances {
			if in.ID == id && in.visible(rs.reservation(in.ReservationID), now) {
				found = in
			}
		}
		if found == nil {
			return nil, instanceNotFound(id)
		}
		out = append(out, found)
	}
	return out, nil
}

func describeInstances(s *Server, c *call) (*xmlBody, *apiError) {
	ids, e := c.form.list("InstanceId")
	if e != nil {
		return nil, e
	}
	if len(ids) > 0 && c.form.has("MaxResults") {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "The parameter instancesSet cannot be used with the parameter maxResults")
	}
	if _, e := c.form.optBool("IncludeManagedResources"); e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters(filtersOf("DescribeInstances")...)
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	var all []*instance
	if len(ids) > 0 {
		if all, e = lookupInstances(rs, ids, c.now); e != nil {
			return nil, e
		}
	} else {
		for _, in := range rs.Instances {
			if in.visible(rs.reservation(in.ReservationID), c.now) {
				all = append(all, in)
			}
		}
	}
	hits := matching(all, fs, func(in *instance, name string) []string { return s.instanceField(c.region, rs, in, name, c.now) })
	page, next, e := pageOf(s, c, hits, 5)
	if e != nil {
		return nil, e
	}
	var x xmlBody
	x.open("reservationSet")
	for i := 0; i < len(page); {
		launch := page[i].LaunchID
		x.open("item")
		x.str("reservationId", launch)
		x.str("ownerId", s.Account())
		x.empty("groupSet")
		x.open("instancesSet")
		for ; i < len(page) && page[i].LaunchID == launch; i++ {
			writeInstance(&x, page[i], rs.reservation(page[i].ReservationID), c.now)
		}
		x.close("instancesSet")
		x.close("item")
	}
	x.close("reservationSet")
	x.opt("nextToken", next)
	return &x, nil
}

// instanceField answers a DescribeInstances filter for an instance. The filters on what
// the emulator's instances do not have (public addresses, IPv6, Elastic IPs, product
// codes, IAM profiles, spot requests, hosts, Outposts) match none of them.
func (s *Server) instanceField(region string, rs *regionState, in *instance, name string, now time.Time) []string {
	if v, ok := tagValues(in.Tags, name); ok {
		return v
	}
	r := rs.reservation(in.ReservationID)
	st := in.state(r, now)
	z, _ := regions[region].zone(in.AZ)
	switch name {
	case "architecture":
		return []string{architecture(in.InstanceType)}
	case "availability-zone-id":
		return []string{z.ID}
	case "network-interface.availability-zone":
		return []string{in.AZ}
	case "capacity-reservation-specification.capacity-reservation-preference":
		return []string{"capacity-reservations-only"}
	case "dns-name", "ip-address":
		return nil
	case "ebs-optimized", "ena-support", "source-dest-check", "network-interface.source-dest-check":
		return []string{"true"}
	case "hypervisor":
		return []string{"xen"}
	case "instance.group-id", "network-interface.group-id":
		return in.Groups
	case "instance.group-name", "network-interface.group-name":
		if len(in.Groups) > 0 {
			return []string{"default"}
		}
		return nil
	case "key-name":
		return nonEmpty(in.KeyName)
	case "launch-index":
		return []string{strconv.Itoa(in.LaunchIndex)}
	case "launch-time":
		return []string{formatTime(in.Launched)}
	case "monitoring-state":
		return []string{"disabled"}
	case "owner-id", "network-interface.owner-id":
		return []string{s.Account()}
	case "platform-details":
		if r != nil {
			return []string{r.Platform}
		}
		return nil
	case "platform":
		if r != nil && strings.HasPrefix(r.Platform, "Windows") {
			return []string{"windows"}
		}
		return nil
	case "private-dns-name", "network-interface.private-dns-name":
		return []string{"ip-" + strings.ReplaceAll(in.PrivateIP, ".", "-") + ".ec2.internal"}
	case "private-ip-address", "network-interface.private-ip-address", "network-interface.addresses.private-ip-address":
		return []string{in.PrivateIP}
	case "root-device-name":
		return []string{"/dev/sda1"}
	case "root-device-type":
		return []string{"ebs"}
	case "tenancy":
		return []string{tenancy(in.Tenancy)}
	case "virtualization-type":
		return []string{"hvm"}
	case "network-interface.subnet-id":
		return []string{in.SubnetID}
	case "network-interface.vpc-id":
		return []string{in.VpcID}
	}
	switch name {
	case "capacity-reservation-id", "capacity-reservation-specification.capacity-reservation-target.capacity-reservation-id":
		return []string{in.ReservationID}
	case "instance-state-name":
		return []string{st.name}
	case "instance-state-code":
		return []string{strconv.Itoa(st.code)}
	case "instance-lifecycle":
		return []string{"capacity-block"}
	case "instance-id":
		return []string{in.ID}
	case "client-token":
		return nonEmpty(in.ClientToken)
	case "instance-type":
		return []string{in.InstanceType}
	case "availability-zone":
		return []string{in.AZ}
	case "subnet-id":
		return []string{in.SubnetID}
	case "vpc-id":
		return []string{in.VpcID}
	case "image-id":
		return []string{in.ImageID}
	case "reservation-id":
		return []string{in.LaunchID}
	}
	return nil
}

func terminateInstances(s *Server, c *call) (*xmlBody, *apiError) {
	ids, e := c.form.list("InstanceId")
	if e != nil {
		return nil, e
	}
	if len(ids) == 0 {
		return nil, missingParam("InstanceId")
	}
	rs := s.region(c.region)
	ins, e := lookupInstances(rs, ids, c.now)
	if e != nil {
		return nil, e
	}
	if c.dryRun {
		return nil, errDryRun
	}
	var x xmlBody
	x.open("instancesSet")
	for _, in := range ins {
		r := rs.reservation(in.ReservationID)
		prev := in.state(r, c.now)
		if in.TerminateAt.IsZero() || in.TerminateAt.After(c.now) {
			in.TerminateAt = c.now
		}
		cur := in.state(r, c.now)
		x.open("item")
		x.str("instanceId", in.ID)
		writeState(&x, "currentState", cur)
		writeState(&x, "previousState", prev)
		x.close("item")
	}
	x.close("instancesSet")
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	return &x, nil
}

func writeState(x *xmlBody, elem string, st instanceState) {
	x.open(elem)
	x.int("code", st.code)
	x.str("name", st.name)
	x.close(elem)
}
