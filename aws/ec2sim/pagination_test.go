package ec2sim

import (
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// samePages checks that paging with small pages gives exactly the unpaged set, in order,
// and that it took more than one page.
func samePages(t *testing.T, what string, unpaged, paged []string, pages int) {
	t.Helper()
	if len(unpaged) < 2 {
		t.Fatalf("%s: only %d items; the test needs several", what, len(unpaged))
	}
	if pages < 2 {
		t.Errorf("%s: %d page(s), want several", what, pages)
	}
	if !slices.Equal(unpaged, paged) {
		t.Errorf("%s: paged %v, unpaged %v", what, paged, unpaged)
	}
}

func TestPaginationWithSDKPaginators(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")

	// Offerings.
	in := p5Search(1, 24)
	var unpaged, paged []string
	for _, o := range mustSearch(t, c, in) {
		unpaged = append(unpaged, aws.ToString(o.CapacityBlockOfferingId))
	}
	in.MaxResults = aws.Int32(1)
	pages := 0
	for p := ec2.NewDescribeCapacityBlockOfferingsPaginator(c, in); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.CapacityBlockOfferings {
			paged = append(paged, aws.ToString(o.CapacityBlockOfferingId))
		}
	}
	samePages(t, "offerings", unpaged, paged, pages)

	// Buy four blocks and extend one, then page reservations, blocks, statuses, history.
	var crs []string
	var blocks []string
	for i := 0; i < 4; i++ {
		_, cr := buy(t, c, p5Search(1, 24))
		crs = append(crs, aws.ToString(cr.CapacityReservationId))
		blocks = append(blocks, aws.ToString(cr.CapacityBlockId))
	}
	s.Advance(maxPaymentDelay)
	for _, id := range crs[:2] {
		eo := extensionOfferings(t, c, id, 24)
		if len(eo) != 1 {
			t.Fatalf("no extension offering for %s", id)
		}
		if _, err := c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{CapacityBlockExtensionOfferingId: eo[0].CapacityBlockExtensionOfferingId, CapacityReservationId: aws.String(id)}); err != nil {
			t.Fatal(err)
		}
	}

	paged, pages = nil, 0
	for p := ec2.NewDescribeCapacityReservationsPaginator(c, &ec2.DescribeCapacityReservationsInput{MaxResults: aws.Int32(3)}); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.CapacityReservations {
			paged = append(paged, aws.ToString(r.CapacityReservationId))
		}
	}
	samePages(t, "reservations", crs, paged, pages)

	paged, pages = nil, 0
	for p := ec2.NewDescribeCapacityBlocksPaginator(c, &ec2.DescribeCapacityBlocksInput{MaxResults: aws.Int32(1)}); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range out.CapacityBlocks {
			paged = append(paged, aws.ToString(b.CapacityBlockId))
		}
	}
	samePages(t, "blocks", blocks, paged, pages)

	paged, pages = nil, 0
	for p := ec2.NewDescribeCapacityBlockStatusPaginator(c, &ec2.DescribeCapacityBlockStatusInput{MaxResults: aws.Int32(2)}); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range out.CapacityBlockStatuses {
			paged = append(paged, aws.ToString(b.CapacityBlockId))
		}
	}
	samePages(t, "block statuses", blocks, paged, pages)

	paged, pages = nil, 0
	for p := ec2.NewDescribeCapacityBlockExtensionHistoryPaginator(c, &ec2.DescribeCapacityBlockExtensionHistoryInput{MaxResults: aws.Int32(1)}); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range out.CapacityBlockExtensions {
			paged = append(paged, aws.ToString(e.CapacityReservationId))
		}
	}
	samePages(t, "extension history", crs[:2], paged, pages)

	// Instances: eight in three launches into one active block, paged by five.
	o, big := buy(t, c, p5Search(8, 24))
	s.SetTime(aws.ToTime(o.StartDate).Add(time.Minute))
	sub := subnetIn(t, c, aws.ToString(o.AvailabilityZone))
	for _, n := range []int32{3, 3, 2} {
		if _, err := c.RunInstances(ctx, launchInput(aws.ToString(big.CapacityReservationId), sub, n)); err != nil {
			t.Fatal(err)
		}
	}
	var unpagedInst []string
	all, err := c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all.Reservations {
		for _, in := range r.Instances {
			unpagedInst = append(unpagedInst, aws.ToString(in.InstanceId))
		}
	}
	paged, pages = nil, 0
	for p := ec2.NewDescribeInstancesPaginator(c, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(5)}); p.HasMorePages(); pages++ {
		out, err := p.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Reservations {
			for _, in := range r.Instances {
				paged = append(paged, aws.ToString(in.InstanceId))
			}
		}
	}
	if len(unpagedInst) <= 5 {
		t.Fatalf("only %d instances; the test needs more than a page", len(unpagedInst))
	}
	samePages(t, "instances", unpagedInst, paged, pages)
	_, err = c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(4)})
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.DescribeInstances(ctx, &ec2.DescribeInstancesInput{MaxResults: aws.Int32(5), InstanceIds: paged[:1]})
	wantCode(t, err, "InvalidParameterCombination")
}

func TestRegionIsolation(t *testing.T) {
	_, base := newTestServer(t, Options{})
	east2 := ec2Client(base, "us-east-2")
	east1 := ec2Client(base, "us-east-1")
	_, cr := buy(t, east2, p5Search(2, 24))
	id := aws.ToString(cr.CapacityReservationId)
	if az := aws.ToString(cr.AvailabilityZone); az[:len("us-east-2")] != "us-east-2" {
		t.Errorf("bought in us-east-2, AZ %s", az)
	}
	if got := reservationByID(t, east2, id); aws.ToString(got.CapacityReservationId) != id {
		t.Fatalf("us-east-2 does not see its reservation")
	}
	out, err := east1.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("us-east-1 sees %+v (%v)", out, err)
	}
	_, err = east1.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: []string{id}})
	wantCode(t, err, "InvalidCapacityReservationId.NotFound")
	b, err := east1.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{})
	if err != nil || len(b.CapacityBlocks) != 0 {
		t.Fatalf("us-east-1 blocks %+v (%v)", b, err)
	}
}

func TestDescribeRegionsZonesSubnets(t *testing.T) {
	_, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	regs, err := c.DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range regs.Regions {
		names = append(names, aws.ToString(r.RegionName))
	}
	for _, want := range []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "eu-west-2", "ap-northeast-1", "ap-south-1", "ap-southeast-2"} {
		if !slices.Contains(names, want) {
			t.Errorf("DescribeRegions lacks %s: %v", want, names)
		}
	}
	one, err := c.DescribeRegions(ctx, &ec2.DescribeRegionsInput{RegionNames: []string{"eu-north-1"}})
	if err != nil || len(one.Regions) != 1 || aws.ToString(one.Regions[0].Endpoint) != "ec2.eu-north-1.amazonaws.com" {
		t.Fatalf("one region: %v %+v", err, one)
	}

	zones, err := c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]types.AvailabilityZone{}
	for _, z := range zones.AvailabilityZones {
		byName[aws.ToString(z.ZoneName)] = z
	}
	if z := byName["us-east-1a"]; aws.ToString(z.ZoneId) != "use1-az4" || aws.ToString(z.ZoneType) != "availability-zone" || z.State != types.AvailabilityZoneStateAvailable {
		t.Errorf("us-east-1a = %+v", z)
	}
	if z := byName["us-east-1-dfw-2a"]; aws.ToString(z.ZoneType) != "local-zone" || aws.ToString(z.ParentZoneName) == "" {
		t.Errorf("Dallas Local Zone = %+v", z)
	}
	lz, err := c.DescribeAvailabilityZones(ctx, &ec2.DescribeAvailabilityZonesInput{Filters: []types.Filter{{Name: aws.String("zone-type"), Values: []string{"local-zone"}}}})
	if err != nil || len(lz.AvailabilityZones) != 1 {
		t.Fatalf("local zones: %v %+v", err, lz)
	}

	subs, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(subs.Subnets) != len(zones.AvailabilityZones) {
		t.Errorf("%d subnets for %d zones", len(subs.Subnets), len(zones.AvailabilityZones))
	}
	vpcs := map[string]bool{}
	for _, sn := range subs.Subnets {
		vpcs[aws.ToString(sn.VpcId)] = true
		if !aws.ToBool(sn.DefaultForAz) || !wellFormed("subnet", aws.ToString(sn.SubnetId)) || aws.ToString(sn.CidrBlock) == "" {
			t.Errorf("subnet = %+v", sn)
		}
	}
	if len(vpcs) != 1 {
		t.Errorf("subnets in %d VPCs, want the one default VPC", len(vpcs))
	}
	id := aws.ToString(subs.Subnets[0].SubnetId)
	one2, err := c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{id}})
	if err != nil || len(one2.Subnets) != 1 || aws.ToString(one2.Subnets[0].SubnetId) != id {
		t.Fatalf("subnet by id: %v %+v", err, one2)
	}
	_, err = c.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{"subnet-0000000000000000a"}})
	wantCode(t, err, "InvalidSubnetID.NotFound")
	other, err := ec2Client(base, "us-west-2").DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{})
	if err != nil || len(other.Subnets) != 4 || aws.ToString(other.Subnets[0].SubnetId) == id {
		t.Fatalf("us-west-2 subnets: %v %+v", err, other)
	}
}

func TestDeterminism(t *testing.T) {
	ids := func(seed int64) []string {
		_, base := newTestServer(t, Options{Seed: seed})
		var out []string
		for _, region := range []string{"us-east-1", "us-west-2", "ap-northeast-1"} {
			for _, o := range mustSearch(t, ec2Client(base, region), p5Search(2, 72)) {
				out = append(out, aws.ToString(o.CapacityBlockOfferingId)+" "+aws.ToString(o.AvailabilityZone)+" "+aws.ToString(o.UpfrontFee)+" "+aws.ToTime(o.StartDate).String())
			}
		}
		return out
	}
	a, b, c := ids(7), ids(7), ids(8)
	if !slices.Equal(a, b) {
		t.Errorf("same seed and clock, different offerings:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("different seeds gave the same offerings")
	}
}
