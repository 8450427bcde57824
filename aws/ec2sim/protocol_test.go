package ec2sim

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
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
