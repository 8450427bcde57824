package ec2sim

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
)

func init() {
	ec2Actions["DescribeImages"] = guarded(describeImages)
	ec2Actions["DescribeSecurityGroups"] = guarded(describeSecurityGroups)
	ec2Actions["CreateKeyPair"] = guarded(createKeyPair)
	ec2Actions["DescribeKeyPairs"] = guarded(describeKeyPairs)
	ec2Actions["DeleteKeyPair"] = guarded(deleteKeyPair)
}

// image is an AMI the emulated account can launch: public Amazon images, the same in
// every region. AMI IDs are regional in AWS; one ID everywhere keeps demos and scripts
// short (gpublock's TUI offers ami-0123456789abcdef0 against the emulator).
type image struct {
	ID, Name, Description string
	Arch                  string // x86_64 or arm64
	Platform              string // "windows" or "" (DescribeImages' platform)
	PlatformDetails       string // as a Capacity Reservation's InstancePlatform names it
	UsageOperation        string
	Created               time.Time
}

var images = []image{
	{ID: "ami-0123456789abcdef0", Name: "Deep Learning Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120",
		Description: "Supported EC2 instances: G4dn, G5, G6, Gr6, G6e, P4d, P4de, P5, P5e, P5en, P6-B200",
		Arch:        "x86_64", PlatformDetails: "Linux/UNIX", UsageOperation: "RunInstances"},
	{ID: "ami-0a1b2c3d4e5f60718", Name: "Deep Learning ARM64 Base OSS Nvidia Driver GPU AMI (Ubuntu 22.04) 20261120",
		Description: "Supported EC2 instances: G5g, P6e-GB200", Arch: "arm64", PlatformDetails: "Linux/UNIX", UsageOperation: "RunInstances"},
	{ID: "ami-0b2c3d4e5f6071829", Name: "Deep Learning AMI Neuron (Ubuntu 22.04) 20261118",
		Description: "Supported EC2 instances: Inf2, Trn1, Trn1n, Trn2", Arch: "x86_64", PlatformDetails: "Linux/UNIX", UsageOperation: "RunInstances"},
	{ID: "ami-0c3d4e5f607182930", Name: "RHEL-9.4.0_HVM-20261104-x86_64-0-Hourly2-GP3",
		Description: "Provided by Red Hat, Inc.", Arch: "x86_64", PlatformDetails: "Red Hat Enterprise Linux", UsageOperation: "RunInstances:0010"},
	{ID: "ami-0d4e5f60718293a41", Name: "Windows_Server-2022-English-Full-Base-2026.11.12",
		Description: "Microsoft Windows Server 2022 Full Locale English AMI provided by Amazon", Arch: "x86_64",
		Platform: "windows", PlatformDetails: "Windows", UsageOperation: "RunInstances:0002"},
}

func init() {
	for i := range images {
		images[i].Created = time.Date(2026, 11, 20-i, 8, 0, 0, 0, time.UTC)
	}
}

func lookupImage(id string) (image, *apiError) {
	if !wellFormed("ami", id) {
		return image{}, errf(http.StatusBadRequest, "InvalidAMIID.Malformed", "Invalid id: \"%s\" (expecting \"ami-...\")", id)
	}
	for _, im := range images {
		if im.ID == id {
			return im, nil
		}
	}
	return image{}, errf(http.StatusBadRequest, "InvalidAMIID.NotFound", "The image id '[%s]' does not exist", id)
}

func describeImages(s *Server, c *call) (*xmlBody, *apiError) {
	f := c.form
	ids, e := f.list("ImageId")
	if e != nil {
		return nil, e
	}
	owners, e := f.list("Owner")
	if e != nil {
		return nil, e
	}
	execBy, e := f.list("ExecutableBy")
	if e != nil {
		return nil, e
	}
	for _, flag := range []string{"IncludeDeprecated", "IncludeDisabled"} {
		if _, e := f.optBool(flag); e != nil {
			return nil, e
		}
	}
	if len(ids) > 0 && f.has("MaxResults") {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "The parameter ImageId cannot be used with the parameter MaxResults")
	}
	fs, e := f.knownFilters(filtersOf("DescribeImages")...)
	if e != nil {
		return nil, e
	}
	var all []image
	for _, id := range ids {
		im, e := lookupImage(id)
		if e != nil {
			return nil, e
		}
		all = append(all, im)
	}
	if len(ids) == 0 {
		all = images
	}
	var hits []image
	for _, im := range all {
		// Every image is Amazon's and public: any account may run it.
		if len(owners) > 0 && !slices.ContainsFunc(owners, func(o string) bool { return o == "amazon" || o == amazonOwner }) {
			continue
		}
		if len(execBy) > 0 && !slices.ContainsFunc(execBy, func(a string) bool { return a == "all" || a == "self" || a == s.Account() }) {
			continue
		}
		if matchFilters(fs, func(name string) []string { return imageField(im, name) }) {
			hits = append(hits, im)
		}
	}
	return pageSet(s, c, hits, 5, "imagesSet", func(x *xmlBody, im image) {
		x.open("item")
		x.str("imageId", im.ID)
		x.str("imageLocation", "amazon/"+im.Name)
		x.str("imageState", "available")
		x.str("imageOwnerId", amazonOwner)
		x.time("creationDate", im.Created)
		x.bool("isPublic", true)
		x.str("architecture", im.Arch)
		x.str("imageType", "machine")
		x.opt("platform", im.Platform)
		x.str("platformDetails", im.PlatformDetails)
		x.str("usageOperation", im.UsageOperation)
		x.str("imageOwnerAlias", "amazon")
		x.str("name", im.Name)
		x.str("description", im.Description)
		x.str("rootDeviceType", "ebs")
		x.str("rootDeviceName", "/dev/sda1")
		x.str("virtualizationType", "hvm")
		x.str("hypervisor", "xen")
		x.bool("enaSupport", true)
		x.str("sriovNetSupport", "simple")
		x.close("item")
	})
}

// amazonOwner is the account that owns Amazon's public images.
const amazonOwner = "898082745236"

func imageField(im image, name string) []string {
	switch name {
	case "architecture":
		return []string{im.Arch}
	case "creation-date":
		return []string{formatTime(im.Created)}
	case "description":
		return []string{im.Description}
	case "ena-support":
		return []string{"true"}
	case "hypervisor":
		return []string{"xen"}
	case "image-id":
		return []string{im.ID}
	case "image-type":
		return []string{"machine"}
	case "is-public":
		return []string{"true"}
	case "manifest-location":
		return []string{"amazon/" + im.Name}
	case "name":
		return []string{im.Name}
	case "owner-alias":
		return []string{"amazon"}
	case "owner-id":
		return []string{amazonOwner}
	case "platform":
		return nonEmpty(im.Platform)
	case "root-device-name":
		return []string{"/dev/sda1"}
	case "root-device-type":
		return []string{"ebs"}
	case "sriov-net-support":
		return []string{"simple"}
	case "state":
		return []string{"available"}
	case "usage-operation":
		return []string{im.UsageOperation}
	case "virtualization-type":
		return []string{"hvm"}
	}
	// The images carry no tags, product codes, kernels, block-device details or sources:
	// such a filter matches none of them.
	return nil
}

func nonEmpty(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

// The default VPC's default security group: the only group of the emulated account.
func (s *Server) defaultGroupID(region string) string { return s.id("sg", region, "default") }

func groupNotFound(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidGroup.NotFound", "The security group '%s' does not exist", id)
}

// checkGroups resolves the security groups of a launch, by ID or (in the default VPC) by name.
func (s *Server) checkGroups(region string, ids, names []string) *apiError {
	for _, id := range ids {
		if !wellFormed("sg", id) {
			return errf(http.StatusBadRequest, "InvalidGroupId.Malformed", "Invalid id: \"%s\" (expecting \"sg-...\")", id)
		}
		if id != s.defaultGroupID(region) {
			return groupNotFound(id)
		}
	}
	for _, n := range names {
		if n != "default" {
			return errf(http.StatusBadRequest, "InvalidGroup.NotFound", "The security group '%s' does not exist in default VPC '%s'", n, s.vpcID(region))
		}
	}
	return nil
}

func describeSecurityGroups(s *Server, c *call) (*xmlBody, *apiError) {
	ids, e := c.form.list("GroupId")
	if e != nil {
		return nil, e
	}
	names, e := c.form.list("GroupName")
	if e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters(filtersOf("DescribeSecurityGroups")...)
	if e != nil {
		return nil, e
	}
	if (len(ids) > 0 || len(names) > 0) && c.form.has("MaxResults") {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "The parameter groupIds or groupNames cannot be used with the parameter maxResults")
	}
	sg, vpc := s.defaultGroupID(c.region), s.vpcID(c.region)
	for _, id := range ids {
		if id != sg {
			return nil, groupNotFound(id)
		}
	}
	for _, n := range names {
		if n != "default" {
			return nil, errf(http.StatusBadRequest, "InvalidGroup.NotFound", "The security group '%s' does not exist in default VPC '%s'", n, vpc)
		}
	}
	const desc = "default VPC security group"
	vals := map[string][]string{"group-id": {sg}, "group-name": {"default"}, "description": {desc}, "owner-id": {s.Account()}, "vpc-id": {vpc},
		// All traffic from the group itself in, everything out, as a default group has.
		"ip-permission.protocol": {"-1"}, "ip-permission.group-id": {sg}, "ip-permission.user-id": {s.Account()},
		"egress.ip-permission.protocol": {"-1"}, "egress.ip-permission.cidr": {"0.0.0.0/0"}}
	var hits []string
	if matchFilters(fs, func(name string) []string { return vals[name] }) {
		hits = append(hits, sg)
	}
	return pageSet(s, c, hits, 5, "securityGroupInfo", func(x *xmlBody, id string) {
		x.open("item")
		x.str("ownerId", s.Account())
		x.str("groupId", id)
		x.str("groupName", "default")
		x.str("groupDescription", desc)
		x.open("ipPermissions")
		x.open("item")
		x.str("ipProtocol", "-1")
		x.open("groups")
		x.open("item")
		x.str("userId", s.Account())
		x.str("groupId", id)
		x.close("item")
		x.close("groups")
		x.empty("ipRanges")
		x.close("item")
		x.close("ipPermissions")
		x.open("ipPermissionsEgress")
		x.open("item")
		x.str("ipProtocol", "-1")
		x.empty("groups")
		x.open("ipRanges")
		x.open("item")
		x.str("cidrIp", "0.0.0.0/0")
		x.close("item")
		x.close("ipRanges")
		x.close("item")
		x.close("ipPermissionsEgress")
		x.str("vpcId", vpc)
		x.str("securityGroupArn", fmt.Sprintf("arn:aws:ec2:%s:%s:security-group/%s", c.region, s.Account(), id))
		x.close("item")
	})
}

// keyPair is a key pair the account created; the emulator keeps no private key.
type keyPair struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Type        string    `json:"type"`
	Fingerprint string    `json:"fingerprint"`
	Created     time.Time `json:"created"`
	Tags        []tag     `json:"tags,omitempty"`
}

// AWS: key names are ASCII, at most 255 characters.
var keyNamePattern = regexp.MustCompile(`^[\x20-\x7e]{1,255}$`)

func keyPairNotFound(name string) *apiError {
	return errf(http.StatusBadRequest, "InvalidKeyPair.NotFound", "The key pair '%s' does not exist", name)
}

func (rs *regionState) keyPair(name string) *keyPair {
	for _, k := range rs.KeyPairs {
		if k.Name == name {
			return k
		}
	}
	return nil
}

func createKeyPair(s *Server, c *call) (*xmlBody, *apiError) {
	name, e := c.form.required("KeyName")
	if e != nil {
		return nil, e
	}
	if !keyNamePattern.MatchString(name) || strings.TrimSpace(name) != name {
		return nil, badParam("Value (%s) for parameter KeyName is invalid. Key names are 1 to 255 ASCII characters, without leading or trailing spaces.", name)
	}
	typ := c.form.str("KeyType")
	switch typ {
	case "":
		typ = "rsa"
	case "rsa", "ed25519":
	default:
		return nil, badParam("Value (%s) for parameter KeyType is invalid. Allowed: rsa, ed25519.", typ)
	}
	format := c.form.str("KeyFormat")
	switch format {
	case "", "pem", "ppk":
	default:
		return nil, badParam("Value (%s) for parameter KeyFormat is invalid. Allowed: pem, ppk.", format)
	}
	tags, e := readTags(c.form, "key-pair")
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	if rs.keyPair(name) != nil {
		return nil, errf(http.StatusBadRequest, "InvalidKeyPair.Duplicate", "The keypair '%s' already exists.", name)
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs.Counter++
	sum := sha256.Sum256([]byte(fmt.Sprint(c.region, name, rs.Counter, s.opts.Seed)))
	var fp strings.Builder
	for i, b := range sum[:20] {
		if i > 0 {
			fp.WriteString(":")
		}
		fmt.Fprintf(&fp, "%02x", b)
	}
	k := &keyPair{ID: s.id("key", c.region, "key-pair", rs.Counter), Name: name, Type: typ, Fingerprint: fp.String(), Created: c.now, Tags: tags}
	rs.KeyPairs = append(rs.KeyPairs, k)
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	var x xmlBody
	x.str("keyName", k.Name)
	x.str("keyFingerprint", k.Fingerprint)
	// Not a key: the emulator launches nothing one could log in to.
	x.str("keyMaterial", "-----BEGIN PRIVATE KEY-----\nZW11bGF0b3Iga2V5OyBub3QgYSByZWFsIHByaXZhdGUga2V5\n-----END PRIVATE KEY-----")
	x.str("keyPairId", k.ID)
	x.tags("tagSet", k.Tags)
	return &x, nil
}

func describeKeyPairs(s *Server, c *call) (*xmlBody, *apiError) {
	names, e := c.form.list("KeyName")
	if e != nil {
		return nil, e
	}
	ids, e := c.form.list("KeyPairId")
	if e != nil {
		return nil, e
	}
	if _, e := c.form.optBool("IncludePublicKey"); e != nil {
		return nil, e
	}
	fs, e := c.form.knownFilters(filtersOf("DescribeKeyPairs")...)
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	for _, n := range names {
		if rs.keyPair(n) == nil {
			return nil, keyPairNotFound(n)
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(rs.KeyPairs, func(k *keyPair) bool { return k.ID == id }) {
			return nil, errf(http.StatusBadRequest, "InvalidKeyPair.NotFound", "The key pair ID '%s' does not exist", id)
		}
	}
	if c.dryRun {
		return nil, errDryRun
	}
	var x xmlBody
	x.open("keySet")
	for _, k := range rs.KeyPairs {
		if len(names) > 0 && !slices.Contains(names, k.Name) || len(ids) > 0 && !slices.Contains(ids, k.ID) {
			continue
		}
		ok := matchFilters(fs, func(name string) []string {
			if v, ok := tagValues(k.Tags, name); ok {
				return v
			}
			return map[string][]string{"key-pair-id": {k.ID}, "key-name": {k.Name}, "fingerprint": {k.Fingerprint}, "key-type": {k.Type}}[name]
		})
		if !ok {
			continue
		}
		x.open("item")
		x.str("keyPairId", k.ID)
		x.str("keyType", k.Type)
		x.tags("tagSet", k.Tags)
		x.str("keyName", k.Name)
		x.str("keyFingerprint", k.Fingerprint)
		x.time("createTime", k.Created)
		x.close("item")
	}
	x.close("keySet")
	return &x, nil
}

// deleteKeyPair answers true whether or not the key pair existed, as EC2 does.
func deleteKeyPair(s *Server, c *call) (*xmlBody, *apiError) {
	name, id := c.form.str("KeyName"), c.form.str("KeyPairId")
	if name == "" && id == "" {
		return nil, missingParam("KeyName or KeyPairId")
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs := s.region(c.region)
	n := len(rs.KeyPairs)
	rs.KeyPairs = slices.DeleteFunc(rs.KeyPairs, func(k *keyPair) bool { return k.Name == name || k.ID == id })
	var x xmlBody
	x.bool("return", true)
	if len(rs.KeyPairs) != n {
		if e := s.core.Commit(); e != nil {
			return nil, e
		}
	}
	return &x, nil
}
