package ec2sim

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// activeBlock buys a p5.48xlarge block and moves the clock into it.
func activeBlock(t *testing.T, s *Server, c *ec2.Client) (id, subnet string) {
	t.Helper()
	o, cr := buy(t, c, p5Search(2, 24))
	s.SetTime(aws.ToTime(o.StartDate).Add(time.Minute))
	return aws.ToString(cr.CapacityReservationId), subnetIn(t, c, aws.ToString(o.AvailabilityZone))
}

// RunInstances refuses, through the SDK, what AWS refuses: no instance type, an image,
// key pair or security group that does not exist, an image of another architecture or
// platform; and launches with the account's own.
func TestRunInstancesRefusals(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	id, subnet := activeBlock(t, s, c)
	for _, tc := range []struct {
		name, code, mention string
		edit                func(*ec2.RunInstancesInput)
	}{
		{"no instance type", "InvalidParameterValue", "m1.small", func(in *ec2.RunInstancesInput) { in.InstanceType = "" }},
		{"another type", "InvalidParameterValue", "p5.48xlarge", func(in *ec2.RunInstancesInput) { in.InstanceType = types.InstanceTypeP4d24xlarge }},
		{"unknown image", "InvalidAMIID.NotFound", "ami-0fffffffffffffff0", func(in *ec2.RunInstancesInput) { in.ImageId = aws.String("ami-0fffffffffffffff0") }},
		{"malformed image", "InvalidAMIID.Malformed", "ami-nope", func(in *ec2.RunInstancesInput) { in.ImageId = aws.String("ami-nope") }},
		{"arm64 image", "InvalidParameterValue", "arm64", func(in *ec2.RunInstancesInput) { in.ImageId = aws.String("ami-0a1b2c3d4e5f60718") }},
		{"Windows image", "InvalidParameterCombination", "Windows", func(in *ec2.RunInstancesInput) { in.ImageId = aws.String("ami-0d4e5f60718293a41") }},
		{"unknown key pair", "InvalidKeyPair.NotFound", "nobody", func(in *ec2.RunInstancesInput) { in.KeyName = aws.String("nobody") }},
		{"unknown group", "InvalidGroup.NotFound", "sg-0fffffffffffffff0", func(in *ec2.RunInstancesInput) { in.SecurityGroupIds = []string{"sg-0fffffffffffffff0"} }},
		{"malformed group", "InvalidGroupId.Malformed", "web", func(in *ec2.RunInstancesInput) { in.SecurityGroupIds = []string{"web"} }},
		{"unknown group name", "InvalidGroup.NotFound", "web", func(in *ec2.RunInstancesInput) { in.SecurityGroups = []string{"web"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := launchInput(id, subnet, 1)
			tc.edit(in)
			_, err := c.RunInstances(ctx, in)
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("message does not name %q: %v", tc.mention, err)
			}
		})
	}
	if n := len(instanceStates(t, c, id)); n != 0 {
		t.Fatalf("%d instances started by refused launches", n)
	}

	// With the account's own key pair, default group and an Amazon image, it launches.
	if _, err := c.CreateKeyPair(ctx, &ec2.CreateKeyPairInput{KeyName: aws.String("ml-team")}); err != nil {
		t.Fatal(err)
	}
	_, err := c.CreateKeyPair(ctx, &ec2.CreateKeyPairInput{KeyName: aws.String("ml-team")})
	wantCode(t, err, "InvalidKeyPair.Duplicate")
	groups, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{Filters: []types.Filter{{Name: aws.String("group-name"), Values: []string{"default"}}}})
	if err != nil || len(groups.SecurityGroups) != 1 {
		t.Fatalf("default group: %+v, %v", groups, err)
	}
	sg := aws.ToString(groups.SecurityGroups[0].GroupId)
	imgs, err := c.DescribeImages(ctx, &ec2.DescribeImagesInput{Owners: []string{"amazon"}, Filters: []types.Filter{
		{Name: aws.String("architecture"), Values: []string{"x86_64"}}, {Name: aws.String("is-public"), Values: []string{"true"}},
		{Name: aws.String("name"), Values: []string{"Deep Learning Base*"}}}})
	if err != nil || len(imgs.Images) != 1 {
		t.Fatalf("images: %+v, %v", imgs, err)
	}
	in := launchInput(id, subnet, 1)
	in.ImageId, in.KeyName, in.SecurityGroupIds = imgs.Images[0].ImageId, aws.String("ml-team"), []string{sg}
	out, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Instances[0]
	if aws.ToString(got.KeyName) != "ml-team" || len(got.SecurityGroups) != 1 || aws.ToString(got.SecurityGroups[0].GroupId) != sg {
		t.Errorf("instance key %q, groups %+v", aws.ToString(got.KeyName), got.SecurityGroups)
	}
	keys, err := c.DescribeKeyPairs(ctx, &ec2.DescribeKeyPairsInput{KeyNames: []string{"ml-team"}})
	if err != nil || len(keys.KeyPairs) != 1 || !strings.HasPrefix(aws.ToString(keys.KeyPairs[0].KeyPairId), "key-") {
		t.Errorf("key pairs: %+v, %v", keys, err)
	}
	_, err = c.DescribeKeyPairs(ctx, &ec2.DescribeKeyPairsInput{KeyNames: []string{"nobody"}})
	wantCode(t, err, "InvalidKeyPair.NotFound")
	_, err = c.DescribeImages(ctx, &ec2.DescribeImagesInput{ImageIds: []string{"ami-0fffffffffffffff0"}})
	wantCode(t, err, "InvalidAMIID.NotFound")
	_, err = c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{GroupIds: []string{"sg-0fffffffffffffff0"}})
	wantCode(t, err, "InvalidGroup.NotFound")
}

// Every action accepts its documented filters and applies them, and refuses others: a
// documented filter that the old emulator refused (start-date), one it accepted though
// undocumented (reservation-type, tag: on DescribeCapacityReservations).
func TestDocumentedFiltersOnly(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o, cr := buy(t, c, p5Search(1, 24), types.Tag{Key: aws.String("team"), Value: aws.String("ml")})
	s.Advance(maxPaymentDelay)
	start := formatTime(aws.ToTime(o.StartDate))
	count := func(f ...types.Filter) int {
		t.Helper()
		out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: f})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.CapacityReservations)
	}
	flt := func(name string, v ...string) types.Filter { return types.Filter{Name: aws.String(name), Values: v} }
	if n := count(flt("start-date", start)); n != 1 {
		t.Errorf("start-date %s: %d", start, n)
	}
	if n := count(flt("start-date", "2020-01-01T11:30:00.000Z")); n != 0 {
		t.Errorf("another start-date: %d", n)
	}
	if n := count(flt("state", "scheduled"), flt("instance-platform", "Linux/UNIX"), flt("end-date-type", "limited")); n != 1 {
		t.Errorf("state, platform and end-date type: %d", n)
	}
	if n := count(flt("outpost-arn", "*")); n != 0 {
		t.Errorf("outpost-arn: a block is on no Outpost, %d matched", n)
	}
	for _, bad := range []string{"reservation-type", "capacity-reservation-id", "colour"} {
		_, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{flt(bad, "x")}})
		wantCode(t, err, "InvalidParameterValue")
	}
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{Filters: []types.Filter{flt("tags", "team=ml"), flt("start-date", start)}})
	if err != nil || len(blocks.CapacityBlocks) != 1 || aws.ToString(blocks.CapacityBlocks[0].CapacityBlockId) != aws.ToString(cr.CapacityBlockId) {
		t.Errorf("blocks by tags and start-date: %+v, %v", blocks, err)
	}
	_, err = c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{Filters: []types.Filter{flt("instance-type", "p5.48xlarge")}})
	wantCode(t, err, "InvalidParameterValue")
	zones, err := c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{Filters: []types.Filter{flt("group-long-name", "US East (Dallas) 2")}})
	if err != nil || len(zones.AvailabilityZones) != 1 || aws.ToString(zones.AvailabilityZones[0].ZoneName) != "us-east-1-dfw-2a" {
		t.Errorf("zones by group-long-name: %+v, %v", zones, err)
	}
	_, err = c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{Filters: []types.Filter{flt("network-border-group", "us-east-1")}})
	wantCode(t, err, "InvalidParameterValue")
	insts, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{flt("ipv6-address", "*")}})
	if err != nil || len(insts.Reservations) != 0 {
		t.Errorf("ipv6-address: %+v, %v", insts, err)
	}
}

// The same refusals in raw HTTP: the EC2 error shape and status, and the parameter or
// filter named in the message.
func TestStrictRefusalsRaw(t *testing.T) {
	_, base := newTestServer(t, Options{})
	run := "Action=RunInstances&Version=2016-11-15&MinCount=1&MaxCount=1&InstanceType=p5.48xlarge&InstanceMarketOptions.MarketType=capacity-block" +
		"&CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId=cr-0123456789abcdef0"
	for _, tc := range []struct{ name, body, code, mention string }{
		{"unknown image", run + "&ImageId=ami-0fffffffffffffff0", "InvalidAMIID.NotFound", "ami-0fffffffffffffff0"},
		{"unknown key pair", run + "&ImageId=ami-0123456789abcdef0&KeyName=nobody", "InvalidKeyPair.NotFound", "nobody"},
		{"unknown group", run + "&ImageId=ami-0123456789abcdef0&SecurityGroupId.1=sg-0fffffffffffffff0", "InvalidGroup.NotFound", "sg-0fffffffffffffff0"},
		{"RunInstances unknown parameter", run + "&ImageId=ami-0123456789abcdef0&InstanceTyp=p5.48xlarge", "UnknownParameter", "InstanceTyp"},
		{"DescribeInstances unknown parameter", "Action=DescribeInstances&Version=2016-11-15&InstanceIds.1=i-0123456789abcdef0", "UnknownParameter", "InstanceIds.1"},
		{"DescribeRegions unknown parameter", "Action=DescribeRegions&Version=2016-11-15&Region=us-east-1", "UnknownParameter", "Region"},
		{"undocumented filter", "Action=DescribeCapacityReservations&Version=2016-11-15&Filter.1.Name=reservation-type&Filter.1.Value.1=capacity-block", "InvalidParameterValue", "reservation-type"},
		{"filter of another action", "Action=DescribeCapacityReservations&Version=2016-11-15&Filter.1.Name=" + url.QueryEscape("capacity-block-id") + "&Filter.1.Value.1=x", "InvalidParameterValue", "capacity-block-id"},
		{"CreateTags without resources", "Action=CreateTags&Version=2016-11-15&Tag.1.Key=k&Tag.1.Value=v", "MissingParameter", "ResourceId"},
		{"CreateTags without tags", "Action=CreateTags&Version=2016-11-15&ResourceId.1=cr-0123456789abcdef0", "MissingParameter", "Tag"},
		{"unknown version", "Action=DescribeRegions&Version=2010-01-01", "InvalidParameterValue", "Version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := wantError(t, post(t, base, tc.body, "us-east-1"), 400, tc.code)
			if !strings.Contains(e.Message, tc.mention) {
				t.Errorf("message %q does not name %q", e.Message, tc.mention)
			}
		})
	}
	// A documented filter, refused before, is accepted.
	r := post(t, base, "Action=DescribeCapacityReservations&Version=2016-11-15&Filter.1.Name=start-date&Filter.1.Value.1=2026-12-02T11%3A30%3A00.000Z", "us-east-1")
	if r.status != 200 || !strings.Contains(r.body, "<capacityReservationSet") {
		t.Errorf("start-date filter: %d %s", r.status, r.body)
	}
}

// Every action the emulator serves has its parameters listed, so none accepts an unknown one.
func TestEveryActionKnowsItsParameters(t *testing.T) {
	for _, a := range actionNames() {
		if _, ok := knownParams[a]; !ok {
			t.Errorf("%s has no parameter list", a)
		}
		if e := checkParams(a, form{url.Values{"Bogus": {"1"}}}); e == nil || e.Code() != "UnknownParameter" {
			t.Errorf("%s accepted an unknown parameter: %v", a, e)
		}
	}
}
