package ec2sim

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/simcore"
)

var fuzzSeeds = []string{
	offeringsForm,
	offeringsForm + "&StartDateRange=2026-12-03T11%3A30%3A00Z&EndDateRange=2026-12-20T11%3A30%3A00Z&MaxResults=2",
	"Action=DescribeCapacityBlockOfferings&Version=2016-11-15&UltraserverType=u-p6e-gb200x72&UltraserverCount=1&CapacityDurationHours=24",
	"Action=PurchaseCapacityBlock&CapacityBlockOfferingId=cbr-0123456789abcdef0&InstancePlatform=Linux%2FUNIX&TagSpecification.1.ResourceType=capacity-reservation&TagSpecification.1.Tag.1.Key=team&TagSpecification.1.Tag.1.Value=ml&Version=2016-11-15",
	"Action=DescribeCapacityReservations&CapacityReservationId.1=cr-0123456789abcdef0&Filter.1.Name=reservation-type&Filter.1.Value.1=capacity-block&Filter.2.Name=state&Filter.2.Value.1=active&MaxResults=50&Version=2016-11-15",
	"Action=RunInstances&CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId=cr-0123456789abcdef0&ClientToken=x&ImageId=ami-0123456789abcdef0&InstanceMarketOptions.MarketType=capacity-block&MaxCount=2&MinCount=1&Version=2016-11-15",
	"Action=DescribeInstances&Filter.1.Name=capacity-reservation-id&Filter.1.Value.1=cr-0123456789abcdef0&Filter.2.Name=instance-state-name&Filter.2.Value.1=pending&Version=2016-11-15",
	"Action=DescribeCapacityBlockExtensionOfferings&CapacityBlockExtensionDurationHours=24&CapacityReservationId=cr-0123456789abcdef0&Version=2016-11-15",
	"Action=TerminateInstances&InstanceId.1=i-0123456789abcdef0&Version=2016-11-15",
	"Action=GetCallerIdentity&Version=2011-06-15",
	"Action=RunInstances&ImageId=ami-0a1b2c3d4e5f60718&InstanceType=p5.48xlarge&KeyName=k&SecurityGroupId.1=sg-x&SecurityGroup.1=web&MinCount=1&MaxCount=1&Version=2016-11-15",
	"Action=CreateKeyPair&KeyName=ml&KeyType=ed25519&TagSpecification.1.ResourceType=key-pair&TagSpecification.1.Tag.1.Key=a&Version=2016-11-15",
	"Action=DescribeKeyPairs&KeyName.1=ml&KeyPairId.1=key-x&Filter.1.Name=tag:a&Filter.1.Value.1=b&Version=2016-11-15",
	"Action=DescribeImages&ImageId.1=ami-0123456789abcdef0&Owner.1=amazon&Filter.1.Name=name&Filter.1.Value.1=Deep*&Version=2016-11-15",
	"Action=DescribeSecurityGroups&GroupId.1=sg-0123456789abcdef0&GroupName.1=default&Version=2016-11-15",
	"Action=ModifyAvailabilityZoneGroup&GroupName=us-east-1-atl-2&OptInStatus=opted-in&Version=2016-11-15",
	"Action=DescribeCapacityBlockOfferings&AllAvailabilityZones=true&InstanceType=p5.48xlarge&InstanceCount=1&CapacityDurationHours=24&Version=2016-11-15",
	"Action=RunInstances&LaunchTemplate.LaunchTemplateName=cb&LaunchTemplate.Version=%24Latest&MinCount=1&MaxCount=1&SecurityGroupId.1=sg-0123456789abcdef0&Version=2016-11-15",
	"Action=RunInstances&ImageId=ami-0123456789abcdef0&MinCount=1&MaxCount=1&NetworkInterface.1.DeviceIndex=0&NetworkInterface.1.SubnetId=subnet-0123456789abcdef0&NetworkInterface.1.SecurityGroupId.1=sg-x&NetworkInterface.2.DeviceIndex=0&NetworkInterface.2.NetworkInterfaceId=eni-1&TagSpecification.1.ResourceType=volume&TagSpecification.1.Tag.1.Key=a&Version=2016-11-15",
	"Filter.99999999999999999999.Name=x", "%", "a=%zz", "Filter.1.Value.1=x&Filter.1.Name=", "TagSpecification.1.Tag.2.Value=v",
}

// FuzzDecodeForm: the form decoder and its accessors never panic, whatever the body.
func FuzzDecodeForm(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		fm, err := decodeForm([]byte(body))
		if err != nil {
			if err.Status() != 400 || err.Code() == "" {
				t.Fatalf("decode error %+v", err)
			}
			return
		}
		for name := range fm.v {
			fm.str(name)
			fm.optInt(name, 1, 64)
			fm.optBool(name)
			fm.optTime(name)
			fm.list(name)
			if i := strings.IndexByte(name, '.'); i > 0 {
				fm.list(name[:i])
				fm.indices(name[:i])
			}
		}
		fm.filters()
		fm.tagSpecs()
	})
}

// FuzzServeForm: whatever body arrives, the emulator answers with a well-formed EC2 (or
// STS) response or error and a request id, and never panics.
func FuzzServeForm(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "us-east-1")
	}
	f.Add(offeringsForm, "")
	s, err := New(Options{Seed: 1, Start: testStart})
	if err != nil {
		f.Fatal(err)
	}
	simcore.SetLogf(func(string, ...any) {})
	f.Fuzz(func(t *testing.T, body, region string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if region != "" {
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKID/20261201/"+region+"/ec2/aws4_request, Signature=x")
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		id := w.Header().Get("X-Amzn-Requestid")
		if id == "" {
			t.Fatalf("no request id: %d %s", w.Code, w.Body)
		}
		if w.Code == 200 {
			if !bytes.Contains(w.Body.Bytes(), []byte(id)) {
				t.Fatalf("body lacks its request id: %s", w.Body)
			}
		} else if w.Code < 400 || w.Code > 599 {
			t.Fatalf("status %d", w.Code)
		}
		// Every body is well-formed XML.
		d := xml.NewDecoder(w.Body)
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("malformed XML (%v): %s", err, w.Body)
				}
				break
			}
		}
	})
}
