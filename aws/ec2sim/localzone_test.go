package ec2sim

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

const atlanta = "us-east-1-atl-2a"

// p5 blocks in the Atlanta Local Zone, which the account has not opted in to: offered only
// with AllAvailabilityZones (ZoneType local-zone), listed by DescribeAvailabilityZones only
// then, and launchable only after ModifyAvailabilityZoneGroup opts the account in.
func TestLocalZoneOfferings(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	in := p5Search(1, 24)
	for _, o := range mustSearch(t, c, in) {
		if aws.ToString(o.AvailabilityZone) == atlanta || aws.ToString(o.ZoneType) != "availability-zone" {
			t.Fatalf("without AllAvailabilityZones: %s (%s)", aws.ToString(o.AvailabilityZone), aws.ToString(o.ZoneType))
		}
	}
	// Up to six offerings come per search, the earliest and cheapest: look day by day.
	in.AllAvailabilityZones = aws.Bool(true)
	var lz *types.CapacityBlockOffering
	for d := 0; d < 50 && lz == nil; d++ {
		in.StartDateRange = aws.Time(testStart.Add(time.Duration(d) * 24 * time.Hour))
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.CapacityBlockOfferings {
			if aws.ToString(o.AvailabilityZone) == atlanta {
				lz = &o
				break
			}
		}
	}
	if lz == nil || aws.ToString(lz.ZoneType) != "local-zone" {
		t.Fatalf("with AllAvailabilityZones, no Local Zone offering: %+v", lz)
	}

	zones := func(all bool) map[string]string {
		out, err := c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{AllAvailabilityZones: aws.Bool(all)})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, z := range out.AvailabilityZones {
			m[aws.ToString(z.ZoneName)] = string(z.OptInStatus)
		}
		return m
	}
	if st, ok := zones(false)[atlanta]; ok {
		t.Errorf("Atlanta listed without AllAvailabilityZones (%s)", st)
	}
	if st := zones(true)[atlanta]; st != "not-opted-in" {
		t.Errorf("Atlanta with AllAvailabilityZones: %q, want not-opted-in", st)
	}

	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: lz.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(out.CapacityReservation.CapacityReservationId)
	s.SetTime(aws.ToTime(lz.StartDate).Add(time.Minute))
	_, err = c.RunInstances(ctx, launchInput(id, "", 1))
	wantCode(t, err, "InvalidParameterValue")
	if _, err := c.ModifyAvailabilityZoneGroup(ctx, &ec2.ModifyAvailabilityZoneGroupInput{GroupName: aws.String("us-east-1-atl-2"), OptInStatus: types.ModifyAvailabilityZoneOptInStatusOptedIn}); err != nil {
		t.Fatal(err)
	}
	if st := zones(false)[atlanta]; st != "opted-in" {
		t.Errorf("after opting in: %q", st)
	}
	if _, err := c.RunInstances(ctx, launchInput(id, subnetIn(t, c, atlanta), 1)); err != nil {
		t.Fatalf("launch in the Local Zone after opting in: %v", err)
	}
	_, err = c.ModifyAvailabilityZoneGroup(ctx, &ec2.ModifyAvailabilityZoneGroupInput{GroupName: aws.String("us-east-1-moon-1"), OptInStatus: types.ModifyAvailabilityZoneOptInStatusOptedIn})
	wantCode(t, err, "InvalidParameterValue")
}
