package ec2sim

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// dedicatedOffering finds a dedicated-tenancy offering of p5.48xlarge, searching day by day.
func dedicatedOffering(t *testing.T, c *ec2.Client) types.CapacityBlockOffering {
	t.Helper()
	for d := 7; d < 56; d++ {
		from := testStart.Add(time.Duration(d) * 24 * time.Hour)
		in := p5Search(1, 24)
		in.StartDateRange, in.EndDateRange = aws.Time(from), aws.Time(from.Add(72*time.Hour))
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.CapacityBlockOfferings {
			if o.Tenancy == types.CapacityReservationTenancyDedicated {
				return o
			}
		}
	}
	t.Fatal("the market sells no dedicated p5.48xlarge block in eight weeks")
	return types.CapacityBlockOffering{}
}

func launchInto(c *ec2.Client, id *string, tenancy types.Tenancy) error {
	in := &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), InstanceType: types.InstanceTypeP548xlarge, MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: id}},
	}
	if tenancy != "" {
		in.Placement = &types.Placement{Tenancy: tenancy}
	}
	_, err := c.RunInstances(ctx, in)
	return err
}

func TestDedicatedBlockTakesOnlyDedicatedInstances(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o := dedicatedOffering(t, c)
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	r := out.CapacityReservation
	if r.Tenancy != types.CapacityReservationTenancyDedicated {
		t.Fatalf("the reservation of a dedicated offering is %s", r.Tenancy)
	}
	byTenancy, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{Filters: []types.Filter{filterOf("tenancy", "dedicated")}})
	if err != nil || len(byTenancy.CapacityReservations) != 1 {
		t.Fatalf("tenancy filter: %v %d", err, len(byTenancy.CapacityReservations))
	}
	s.SetTime(o.StartDate.Add(time.Minute))
	wantCode(t, launchInto(c, r.CapacityReservationId, ""), "ReservationCapacityExceeded")
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyDefault), "ReservationCapacityExceeded")
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyHost), "InvalidParameterCombination")
	if err := launchInto(c, r.CapacityReservationId, types.TenancyDedicated); err != nil {
		t.Fatal(err)
	}
	insts, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{Filters: []types.Filter{filterOf("tenancy", "dedicated")}})
	if err != nil || len(insts.Reservations) != 1 || insts.Reservations[0].Instances[0].Placement.Tenancy != types.TenancyDedicated {
		t.Fatalf("the dedicated instance: %v %+v", err, insts)
	}
}

func TestDefaultBlockRefusesDedicatedInstances(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(1, 24))
	if o.Tenancy != types.CapacityReservationTenancyDefault || r.Tenancy != types.CapacityReservationTenancyDefault {
		t.Fatalf("a near block is default-tenancy: %s %s", o.Tenancy, r.Tenancy)
	}
	s.SetTime(o.StartDate.Add(time.Minute))
	wantCode(t, launchInto(c, r.CapacityReservationId, types.TenancyDedicated), "ReservationCapacityExceeded")
	if err := launchInto(c, r.CapacityReservationId, types.TenancyDefault); err != nil {
		t.Fatal(err)
	}
}

// Most offerings are of the default tenancy: a few days a week ahead or more are dedicated.
func TestDedicatedOfferingsAreFew(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	dedicated, all := 0, 0
	for d := 0; d < 56; d += 3 {
		in := p5Search(1, 24)
		in.StartDateRange = aws.Time(testStart.Add(time.Duration(d) * 24 * time.Hour))
		for _, o := range mustSearch(t, c, in) {
			all++
			if o.Tenancy == types.CapacityReservationTenancyDedicated {
				dedicated++
			}
		}
	}
	if dedicated == 0 || dedicated*4 > all {
		t.Fatalf("%d of %d offerings dedicated; want a few", dedicated, all)
	}
}
