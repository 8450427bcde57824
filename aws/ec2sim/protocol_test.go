package ec2sim

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

type rawResponse struct {
	status int
	header http.Header
	body   string
}

// post sends a form as the SDK would, optionally signed for a region.
func post(t *testing.T, base, body, region string) rawResponse {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if region != "" {
		sign(req, region)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return rawResponse{resp.StatusCode, resp.Header, string(b)}
}

// sign gives a request a SigV4 Authorization header for region (the emulator reads the
// credential scope; it does not check the signature).
func sign(req *http.Request, region string) {
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/"+region+"/ec2/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc")
}

type errorXML struct {
	XMLName   xml.Name `xml:"Response"`
	Code      string   `xml:"Errors>Error>Code"`
	Message   string   `xml:"Errors>Error>Message"`
	RequestID string   `xml:"RequestID"`
}

// wantError checks the status and the full EC2 error shape of a response.
func wantError(t *testing.T, r rawResponse, status int, code string) errorXML {
	t.Helper()
	var e errorXML
	if err := xml.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("error body is not <Response><Errors>: %v\n%s", err, r.body)
	}
	if r.status != status || e.Code != code {
		t.Fatalf("got %d %s (%s), want %d %s", r.status, e.Code, e.Message, status, code)
	}
	if e.Message == "" || e.RequestID == "" || r.header.Get("X-Amzn-Requestid") != e.RequestID {
		t.Fatalf("error message %q, body request id %q, header %q", e.Message, e.RequestID, r.header.Get("X-Amzn-Requestid"))
	}
	if ct := r.header.Get("Content-Type"); ct != "text/xml;charset=UTF-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	return e
}

const offeringsForm = "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=2&CapacityDurationHours=48"

func TestProtocolErrors(t *testing.T) {
	_, base := newTestServer(t, Options{})
	for _, tc := range []struct {
		name, body string
		status     int
		code       string
		mention    string
	}{
		{"unknown action", "Action=LaunchRocket&Version=2016-11-15", 400, "InvalidAction", "LaunchRocket"},
		{"no action", "Version=2016-11-15", 400, "MissingParameter", "Action"},
		{"no version", "Action=DescribeRegions", 400, "MissingParameter", "Version"},
		{"old version", "Action=DescribeRegions&Version=2014-01-01", 400, "InvalidParameterValue", "2014-01-01"},
		{"missing duration", "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=2", 400, "MissingParameter", "CapacityDurationHours"},
		{"malformed number", "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&InstanceCount=two&CapacityDurationHours=48", 400, "InvalidParameterValue", "two"},
		{"number overflow", offeringsForm + "&MaxResults=99999999999999999999", 400, "InvalidParameterValue", "MaxResults"},
		{"malformed date", offeringsForm + "&StartDateRange=2026-12-03+11%3A30", 400, "InvalidParameterValue", "StartDateRange"},
		{"malformed bool", offeringsForm + "&DryRun=yes", 400, "InvalidParameterValue", "DryRun"},
		{"repeated key", offeringsForm + "&InstanceCount=3", 400, "InvalidParameterValue", "InstanceCount"},
		{"bad list index", "Action=DescribeCapacityReservations&Version=2016-11-15&CapacityReservationId.0=cr-0123456789abcdef0", 400, "InvalidParameterValue", "CapacityReservationId.0"},
		{"filter without name", "Action=DescribeCapacityReservations&Version=2016-11-15&Filter.1.Value.1=active", 400, "MissingParameter", "Filter.1.Name"},
		{"unknown filter", "Action=DescribeCapacityReservations&Version=2016-11-15&Filter.1.Name=colour&Filter.1.Value.1=red", 400, "InvalidParameterValue", "colour"},
		{"missing offering id", "Action=PurchaseCapacityBlock&Version=2016-11-15&InstancePlatform=Linux%2FUNIX", 400, "MissingParameter", "CapacityBlockOfferingId"},
		{"missing platform", "Action=PurchaseCapacityBlock&Version=2016-11-15&CapacityBlockOfferingId=cbr-0123456789abcdef0", 400, "MissingParameter", "InstancePlatform"},
		{"missing extension hours", "Action=DescribeCapacityBlockExtensionOfferings&Version=2016-11-15&CapacityReservationId=cr-0123456789abcdef0", 400, "MissingParameter", "CapacityBlockExtensionDurationHours"},
		{"missing image", "Action=RunInstances&Version=2016-11-15&MinCount=1&MaxCount=1", 400, "MissingParameter", "ImageId"},
		{"missing instance ids", "Action=TerminateInstances&Version=2016-11-15", 400, "MissingParameter", "InstanceId"},
		{"bad pagination token", offeringsForm + "&MaxResults=1&NextToken=bm9wZQ", 400, "InvalidPaginationToken", "bm9wZQ"},
		{"unknown parameter", offeringsForm + "&InstanceCnt=2", 400, "UnknownParameter", "InstanceCnt"},
		{"misspelt template member", "Action=RunInstances&Version=2016-11-15&LaunchTemplate.LaunchTemplateNmae=x", 400, "UnknownParameter", "LaunchTemplateNmae"},
		{"not a form", "%zz", 400, "MalformedQueryString", "form"},
		{"DryRun after validation", "Action=DescribeCapacityBlockOfferings&Version=2016-11-15&InstanceType=p5.48xlarge&DryRun=true&CapacityDurationHours=48", 400, "MissingParameter", "InstanceCount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := wantError(t, post(t, base, tc.body, "us-east-1"), tc.status, tc.code)
			if !strings.Contains(e.Message, tc.mention) {
				t.Errorf("message %q does not mention %q", e.Message, tc.mention)
			}
		})
	}
}

func TestProtocolSuccessShape(t *testing.T) {
	_, base := newTestServer(t, Options{})
	r := post(t, base, offeringsForm, "us-east-1")
	if r.status != 200 || r.header.Get("Content-Type") != "text/xml;charset=UTF-8" {
		t.Fatalf("%d %s", r.status, r.header.Get("Content-Type"))
	}
	var ok struct {
		XMLName   xml.Name
		RequestID string   `xml:"requestId"`
		Items     []string `xml:"capacityBlockOfferingSet>item>capacityBlockOfferingId"`
		NextToken *string  `xml:"nextToken"`
	}
	if err := xml.Unmarshal([]byte(r.body), &ok); err != nil {
		t.Fatal(err)
	}
	if ok.XMLName.Local != "DescribeCapacityBlockOfferingsResponse" || ok.XMLName.Space != ec2Namespace {
		t.Errorf("root %v", ok.XMLName)
	}
	if ok.RequestID == "" || ok.RequestID != r.header.Get("X-Amzn-Requestid") {
		t.Errorf("request id body %q header %q", ok.RequestID, r.header.Get("X-Amzn-Requestid"))
	}
	if len(ok.Items) == 0 || ok.NextToken != nil {
		t.Errorf("items %v nextToken %v: want offerings and no nextToken on the only page", ok.Items, ok.NextToken)
	}
	if !strings.HasPrefix(r.body, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration: %.60s", r.body)
	}

	// Paged by hand: nextToken present until the last page.
	r = post(t, base, offeringsForm+"&MaxResults=2", "us-east-1")
	var page struct {
		Items     []string `xml:"capacityBlockOfferingSet>item>capacityBlockOfferingId"`
		NextToken string   `xml:"nextToken"`
	}
	if err := xml.Unmarshal([]byte(r.body), &page); err != nil || len(page.Items) != 2 || page.NextToken == "" {
		t.Fatalf("first page: %v %+v", err, page)
	}
	// A token is bound to its query.
	wantError(t, post(t, base, strings.Replace(offeringsForm, "InstanceCount=2", "InstanceCount=3", 1)+"&MaxResults=2&NextToken="+url.QueryEscape(page.NextToken), "us-east-1"), 400, "InvalidPaginationToken")

	// DryRun: HTTP 412 DryRunOperation with AWS's message, after validation passed.
	e := wantError(t, post(t, base, offeringsForm+"&DryRun=true", "us-east-1"), 412, "DryRunOperation")
	if e.Message != "Request would have succeeded, but DryRun flag is set." {
		t.Errorf("DryRun message %q", e.Message)
	}
	// ISO 8601 without a zone, or a bare date, is read as UTC.
	for _, d := range []string{"2026-12-10T11%3A30%3A00", "2026-12-10", "2026-12-10T11%3A30%3A00.000Z"} {
		r := post(t, base, offeringsForm+"&StartDateRange="+d, "us-east-1")
		if r.status != 200 || strings.Contains(r.body, "<startDate>2026-12-0") {
			t.Errorf("StartDateRange=%s: %d, or an offering before it: %.300s", d, r.status, r.body)
		}
	}
	// GET with a query string is accepted, as EC2 does.
	get, _ := http.NewRequest(http.MethodGet, base+"/?Action=DescribeRegions&Version=2016-11-15", nil)
	sign(get, "us-east-1")
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "<regionName>us-east-1</regionName>") {
		t.Errorf("GET: %d %s", resp.StatusCode, b)
	}
}

func TestSignedRegion(t *testing.T) {
	_, base := newTestServer(t, Options{DefaultRegion: "eu-west-2"})
	zones := func(region string) string {
		r := post(t, base, "Action=DescribeAvailabilityZones&Version=2016-11-15", region)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", region, r.status, r.body)
		}
		return r.body
	}
	if b := zones("eu-west-2"); !strings.Contains(b, "<zoneName>eu-west-2a</zoneName>") {
		t.Errorf("signed request not in its region: %s", b)
	}
	if b := zones("ap-south-1"); !strings.Contains(b, "<zoneName>ap-south-1a</zoneName>") || strings.Contains(b, "eu-west-2") {
		t.Errorf("signed request not in its region: %s", b)
	}
	e := wantError(t, post(t, base, "Action=DescribeAvailabilityZones&Version=2016-11-15", "mars-north-1"), 400, "UnsupportedOperation")
	if !strings.Contains(e.Message, "mars-north-1") || !strings.Contains(e.Message, "us-east-1") {
		t.Errorf("unknown region message %q", e.Message)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/", strings.NewReader("Action=DescribeRegions&Version=2016-11-15"))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=garbage")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("malformed credential scope: %d", resp.StatusCode)
	}
	if _, err := New(Options{DefaultRegion: "moon-1"}); err == nil {
		t.Error("New accepted an unknown default region")
	}
}

// A request without a SigV4 Authorization header is refused as AWS refuses it, whatever
// it asks (EC2 in its <Response><Errors> shape, STS in its <ErrorResponse>), and so is
// the SDK with anonymous credentials; the emulator's own /_sim/ endpoints need none.
func TestUnsignedRequestRefused(t *testing.T) {
	_, base := newTestServer(t, Options{})
	for _, body := range []string{offeringsForm, "Action=DescribeRegions&Version=2016-11-15", "Action=PurchaseCapacityBlock&Version=2016-11-15"} {
		e := wantError(t, post(t, base, body, ""), 403, "MissingAuthenticationToken")
		if !strings.Contains(e.Message, "access key ID") {
			t.Errorf("message %q", e.Message)
		}
	}
	get, _ := http.NewRequest(http.MethodGet, base+"/?Action=DescribeRegions&Version=2016-11-15", nil)
	resp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 {
		t.Errorf("unsigned GET: %d", resp.StatusCode)
	}
	sts := post(t, base, "Action=GetCallerIdentity&Version=2011-06-15", "")
	if sts.status != 403 || !strings.Contains(sts.body, "<ErrorResponse") || !strings.Contains(sts.body, "<Code>MissingAuthenticationToken</Code>") {
		t.Errorf("unsigned STS: %d %s", sts.status, sts.body)
	}
	anon := ec2Client(base, "us-east-1", func(o *ec2.Options) { o.Credentials = aws.AnonymousCredentials{} })
	_, err = anon.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
	wantCode(t, err, "MissingAuthenticationToken")
	clock, err := http.Get(base + "/_sim/clock")
	if err != nil {
		t.Fatal(err)
	}
	clock.Body.Close()
	if clock.StatusCode != 200 {
		t.Errorf("/_sim/clock unsigned: %d", clock.StatusCode)
	}
}

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
		{"tags of a host", "InvalidParameterValue", "dedicated-host", func(in *ec2.RunInstancesInput) {
			in.TagSpecifications = append(in.TagSpecifications, types.TagSpecification{ResourceType: types.ResourceTypeDedicatedHost, Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("v")}}})
		}},
		{"a volume's key twice", "InvalidParameterValue", "more than once", func(in *ec2.RunInstancesInput) {
			in.TagSpecifications = append(in.TagSpecifications, types.TagSpecification{ResourceType: types.ResourceTypeVolume,
				Tags: []types.Tag{{Key: aws.String("k"), Value: aws.String("1")}, {Key: aws.String("k"), Value: aws.String("2")}}})
		}},
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
	// The volumes and network interfaces a launch makes may be tagged too, with the keys the
	// instance has; the instance keeps its own.
	for _, rt := range []types.ResourceType{types.ResourceTypeVolume, types.ResourceTypeNetworkInterface} {
		in.TagSpecifications = append(in.TagSpecifications, types.TagSpecification{ResourceType: rt, Tags: []types.Tag{{Key: aws.String("Name"), Value: aws.String(string(rt))}}})
	}
	out, err := c.RunInstances(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got := out.Instances[0]
	if aws.ToString(got.KeyName) != "ml-team" || len(got.SecurityGroups) != 1 || aws.ToString(got.SecurityGroups[0].GroupId) != sg {
		t.Errorf("instance key %q, groups %+v", aws.ToString(got.KeyName), got.SecurityGroups)
	}
	if len(got.Tags) != 1 || aws.ToString(got.Tags[0].Key) != "Name" || aws.ToString(got.Tags[0].Value) != "trainer" {
		t.Errorf("instance tags %+v, want only its own Name=trainer", got.Tags)
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

// A launch may name its network through interfaces, as launch templates for EFA do: the
// primary one's subnet must be in the block's zone and every interface's groups exist; an
// instance-level subnet or group beside them, and an existing interface, are refused.
func TestRunInstancesThroughNetworkInterfaces(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	id, subnet := activeBlock(t, s, c)
	subnets, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{})
	if err != nil {
		t.Fatal(err)
	}
	other := ""
	for _, sn := range subnets.Subnets {
		if aws.ToString(sn.SubnetId) != subnet {
			other = aws.ToString(sn.SubnetId)
		}
	}
	groups, err := c.DescribeSecurityGroups(ctx, &ec2.DescribeSecurityGroupsInput{})
	if err != nil || len(groups.SecurityGroups) == 0 || other == "" {
		t.Fatalf("groups %+v, another subnet %q: %v", groups, other, err)
	}
	sg := aws.ToString(groups.SecurityGroups[0].GroupId)
	through := func(subnet string, groups ...string) *ec2.RunInstancesInput {
		in := launchInput(id, "", 1)
		in.SubnetId = nil
		in.NetworkInterfaces = []types.InstanceNetworkInterfaceSpecification{
			{DeviceIndex: aws.Int32(0), SubnetId: aws.String(subnet), Groups: groups, InterfaceType: aws.String("efa")},
			{DeviceIndex: aws.Int32(1), NetworkCardIndex: aws.Int32(1), SubnetId: aws.String(subnet), Groups: groups, InterfaceType: aws.String("efa-only")},
		}
		return in
	}
	for _, tc := range []struct {
		name, code, mention string
		in                  *ec2.RunInstancesInput
	}{
		{"beside an instance subnet", "InvalidParameterCombination", "subnet", func() *ec2.RunInstancesInput {
			in := through(subnet, sg)
			in.SubnetId = aws.String(subnet)
			return in
		}()},
		{"beside instance groups", "InvalidParameterCombination", "security groups", func() *ec2.RunInstancesInput {
			in := through(subnet)
			in.SecurityGroupIds = []string{sg}
			return in
		}()},
		{"a subnet of another zone", "InvalidParameterValue", other, through(other, sg)},
		{"a second interface in another zone", "InvalidParameterValue", other, func() *ec2.RunInstancesInput {
			in := through(subnet, sg)
			in.NetworkInterfaces[1].SubnetId = aws.String(other)
			return in
		}()},
		{"an unknown group", "InvalidGroup.NotFound", "sg-0fffffffffffffff0", through(subnet, "sg-0fffffffffffffff0")},
		{"no primary interface", "InvalidParameterValue", "DeviceIndex 0", func() *ec2.RunInstancesInput {
			in := through(subnet, sg)
			in.NetworkInterfaces = in.NetworkInterfaces[1:]
			return in
		}()},
		{"an existing interface", "InvalidNetworkInterfaceID.NotFound", "eni-0123456789abcdef0", func() *ec2.RunInstancesInput {
			in := through(subnet, sg)
			in.NetworkInterfaces[1] = types.InstanceNetworkInterfaceSpecification{DeviceIndex: aws.Int32(1), NetworkInterfaceId: aws.String("eni-0123456789abcdef0")}
			return in
		}()},
	} {
		_, err := c.RunInstances(ctx, tc.in)
		wantCode(t, err, tc.code)
		if err != nil && !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("%s: the message does not name %q: %v", tc.name, tc.mention, err)
		}
	}
	if n := len(instanceStates(t, c, id)); n != 0 {
		t.Fatalf("%d instances started by refused launches", n)
	}
	out, err := c.RunInstances(ctx, through(subnet, sg))
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Instances[0]; aws.ToString(got.SubnetId) != subnet || len(got.SecurityGroups) != 1 || aws.ToString(got.SecurityGroups[0].GroupId) != sg {
		t.Errorf("launched into %s with groups %+v, want %s and %s", aws.ToString(got.SubnetId), got.SecurityGroups, subnet, sg)
	}
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
