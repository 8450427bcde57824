package ec2sim

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

func TestOfferingRejections(t *testing.T) {
	_, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	p5 := func(mod func(*ec2.DescribeCapacityBlockOfferingsInput)) *ec2.DescribeCapacityBlockOfferingsInput {
		in := p5Search(2, 48)
		mod(in)
		return in
	}
	for _, tc := range []struct {
		name    string
		in      *ec2.DescribeCapacityBlockOfferingsInput
		code    string
		mention []string
	}{
		{"duration not whole days", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.CapacityDurationHours = aws.Int32(25) }), "InvalidParameterValue", []string{"25", "CapacityDurationHours", "504"}},
		{"duration between 14 days and 3 weeks", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.CapacityDurationHours = aws.Int32(360) }), "InvalidParameterValue", []string{"360"}},
		{"duration past 26 weeks", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.CapacityDurationHours = aws.Int32(4536) }), "InvalidParameterValue", []string{"4536"}},
		{"zero duration", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.CapacityDurationHours = aws.Int32(0) }), "InvalidParameterValue", []string{"0"}},
		{"count 0", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceCount = aws.Int32(0) }), "InvalidParameterValue", []string{"InstanceCount", "64"}},
		{"count 65", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceCount = aws.Int32(65) }), "InvalidParameterValue", []string{"65", "64"}},
		{"no count", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceCount = nil }), "MissingParameter", []string{"InstanceCount"}},
		{"unknown type", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceType = aws.String("m5.large") }), "InvalidParameterValue", []string{"m5.large", "p5.48xlarge"}},
		{"UltraServer as InstanceType", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceType = aws.String("u-p6e-gb200x72") }), "InvalidParameterValue", []string{"UltraserverType"}},
		{"no type", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.InstanceType = nil }), "MissingParameter", []string{"InstanceType"}},
		{"both types", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.UltraserverType = aws.String("u-p6e-gb200x36") }), "InvalidParameterCombination", nil},
		{"start past 8 weeks", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) {
			in.StartDateRange = aws.Time(testStart.Add(model.MaxLeadTime + 24*time.Hour))
		}), "InvalidParameterValue", []string{"StartDateRange", "8 weeks"}},
		{"end before start", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) {
			in.StartDateRange = aws.Time(testStart.Add(72 * time.Hour))
			in.EndDateRange = aws.Time(testStart.Add(48 * time.Hour))
		}), "InvalidParameterValue", []string{"EndDateRange"}},
		{"MaxResults 0", p5(func(in *ec2.DescribeCapacityBlockOfferingsInput) { in.MaxResults = aws.Int32(0) }), "InvalidParameterValue", []string{"MaxResults"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.DescribeCapacityBlockOfferings(ctx, tc.in)
			wantCode(t, err, tc.code)
			for _, m := range tc.mention {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("message does not mention %q: %v", m, err)
				}
			}
		})
	}
}

func TestOfferingWindowAndRegions(t *testing.T) {
	_, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	from, to := testStart.Add(10*24*time.Hour), testStart.Add(20*24*time.Hour)
	in := p5Search(2, 72)
	in.StartDateRange, in.EndDateRange = aws.Time(from), aws.Time(to)
	for _, o := range mustSearch(t, c, in) {
		if aws.ToTime(o.StartDate).Before(from) || aws.ToTime(o.EndDate).After(to) {
			t.Errorf("offering %s..%s outside the window %s..%s", aws.ToTime(o.StartDate), aws.ToTime(o.EndDate), from, to)
		}
	}
	// A type is offered only where AWS sells it: p5e is not sold in us-east-1.
	out, err := c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5e.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24)})
	if err != nil || out.CapacityBlockOfferings == nil || len(out.CapacityBlockOfferings) != 0 {
		t.Fatalf("p5e in us-east-1: %v %+v", err, out)
	}
	mustSearch(t, ec2Client(base, "us-east-2"), &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5e.48xlarge"), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24)})
	// Every catalog type finds something somewhere it is sold.
	for _, typ := range model.Catalog() {
		if typ.UltraServer {
			continue
		}
		found := false
		for _, r := range typ.Regions {
			out, err := ec2Client(base, r).DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
				InstanceType: aws.String(typ.Name), InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24)})
			if err != nil {
				t.Fatal(err)
			}
			found = found || len(out.CapacityBlockOfferings) > 0
		}
		if !found {
			t.Errorf("%s: no offering in any of %v", typ.Name, typ.Regions)
		}
	}
	// Large, long, soon: 64 instances for 26 weeks finds nothing.
	out, err = c.DescribeCapacityBlockOfferings(ctx, p5Search(64, 4368))
	if err != nil || len(out.CapacityBlockOfferings) != 0 {
		t.Errorf("64 × 26 weeks: %v %d offerings", err, len(out.CapacityBlockOfferings))
	}
}

func TestNearTermOffering(t *testing.T) {
	// Some hours have a near-term offering: look through a day of hours for one.
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "eu-north-1")
	for h := 0; h < 24; h++ {
		s.SetTime(testStart.Add(time.Duration(h) * time.Hour))
		now := s.Now()
		for _, o := range mustSearch(t, c, p5Search(1, 24)) {
			if aws.ToInt32(o.CapacityBlockDurationMinutes) == 0 {
				continue
			}
			start, end := aws.ToTime(o.StartDate), aws.ToTime(o.EndDate)
			if start.Before(now) || start.After(now.Add(time.Hour)) || end.UTC().Format("15:04") != "11:30" {
				t.Fatalf("near-term offering %s..%s at %s", start, end, now)
			}
			if d := end.Sub(start); d != time.Duration(aws.ToInt32(o.CapacityBlockDurationHours))*time.Hour+time.Duration(aws.ToInt32(o.CapacityBlockDurationMinutes))*time.Minute {
				t.Fatalf("near-term duration fields do not match %v", d)
			}
			return
		}
	}
	t.Fatal("no near-term offering in 24 hours")
}

func TestUltraServer(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	var offs []types.CapacityBlockOffering
	for d := 0; d < 40 && len(offs) == 0; d += 7 {
		out, err := c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
			UltraserverType: aws.String("u-p6e-gb200x36"), UltraserverCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24),
			StartDateRange: aws.Time(testStart.Add(time.Duration(d) * 24 * time.Hour)),
		})
		if err != nil {
			t.Fatal(err)
		}
		offs = out.CapacityBlockOfferings
	}
	if len(offs) == 0 {
		t.Fatal("no UltraServer offering")
	}
	o := offs[0]
	if aws.ToString(o.AvailabilityZone) != "us-east-1-dfw-2a" || aws.ToString(o.ZoneType) != "local-zone" ||
		aws.ToString(o.UltraserverType) != "u-p6e-gb200x36" || aws.ToInt32(o.UltraserverCount) != 1 ||
		aws.ToInt32(o.InstanceCount) != 9 || aws.ToString(o.InstanceType) != "p6e-gb200.36xlarge" {
		t.Fatalf("UltraServer offering = %+v", o)
	}
	p, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.CapacityBlocks) != 1 || aws.ToString(p.CapacityBlocks[0].UltraserverType) != "u-p6e-gb200x36" || aws.ToInt32(p.CapacityReservation.TotalInstanceCount) != 9 {
		t.Fatalf("UltraServer purchase = %+v", p)
	}
	s.SetTime(aws.ToTime(o.StartDate))
	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{Filters: []types.Filter{{Name: aws.String("ultraserver-type"), Values: []string{"ultraservers"}}}})
	if err != nil || len(blocks.CapacityBlocks) != 1 || blocks.CapacityBlocks[0].State != types.CapacityBlockResourceStateActive {
		t.Fatalf("UltraServer block: %v %+v", err, blocks)
	}
	_, err = c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		UltraserverType: aws.String("u-p6e-gb200x36"), UltraserverCount: aws.Int32(9), CapacityDurationHours: aws.Int32(24)})
	wantCode(t, err, "InvalidParameterValue")
	_, err = c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		UltraserverType: aws.String("p5.48xlarge"), CapacityDurationHours: aws.Int32(24)})
	wantCode(t, err, "InvalidParameterValue")
}

func TestPurchaseRejections(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o := mustSearch(t, c, p5Search(1, 24))[0]
	purchase := func(id string, platform types.CapacityReservationInstancePlatform, specs ...types.TagSpecification) error {
		_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: aws.String(id), InstancePlatform: platform, TagSpecifications: specs})
		return err
	}
	id := aws.ToString(o.CapacityBlockOfferingId)
	wantCode(t, purchase("cbr-xyz", types.CapacityReservationInstancePlatformLinuxUnix), "InvalidCapacityBlockOfferingIdMalformed")
	wantCode(t, purchase("cbr-0000000000000000a", types.CapacityReservationInstancePlatformLinuxUnix), "InvalidCapacityBlockOfferingIdNotFound")
	wantCode(t, purchase(id, "BeOS"), "InvalidParameterValue")
	wantCode(t, purchase(id, types.CapacityReservationInstancePlatformLinuxUnix, types.TagSpecification{ResourceType: types.ResourceTypeInstance,
		Tags: []types.Tag{{Key: aws.String("a"), Value: aws.String("b")}}}), "InvalidParameterValue")
	wantCode(t, purchase(id, types.CapacityReservationInstancePlatformLinuxUnix, types.TagSpecification{ResourceType: types.ResourceTypeCapacityBlock,
		Tags: []types.Tag{{Key: aws.String("aws:mine"), Value: aws.String("b")}}}), "InvalidParameterValue")
	// An offering from another region is unknown here.
	wantCode(t, func() error {
		_, err := ec2Client(base, "us-west-2").PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: aws.String(id), InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
		return err
	}(), "InvalidCapacityBlockOfferingIdNotFound")
	// DryRun validates, answers 412 DryRunOperation, and buys nothing.
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: aws.String(id), InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix, DryRun: aws.Bool(true)})
	wantCode(t, err, "DryRunOperation")
	_, err = c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: aws.String("cbr-0000000000000000a"), InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix, DryRun: aws.Bool(true)})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdNotFound")
	if out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{}); err != nil || len(out.CapacityReservations) != 0 {
		t.Fatalf("rejected purchases bought something: %v %+v", err, out)
	}
	// An offering whose start has passed is gone.
	s.SetTime(aws.ToTime(o.StartDate))
	wantCode(t, purchase(id, types.CapacityReservationInstancePlatformLinuxUnix), "InvalidCapacityBlockOfferingIdExpired")
}

func TestPurchaseConsumesSupply(t *testing.T) {
	_, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	// Buy the same AZ and day until it runs out: supply is finite.
	in := p5Search(4, 24)
	in.StartDateRange = aws.Time(testStart.Add(20 * 24 * time.Hour))
	first := mustSearch(t, c, in)[0]
	az, start := aws.ToString(first.AvailabilityZone), aws.ToTime(first.StartDate)
	bought := 0
	for ; bought < 40; bought++ {
		var next *types.CapacityBlockOffering
		out, err := c.DescribeCapacityBlockOfferings(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out.CapacityBlockOfferings {
			if aws.ToString(o.AvailabilityZone) == az && aws.ToTime(o.StartDate).Equal(start) {
				next = &o
				break
			}
		}
		if next == nil {
			break
		}
		if _, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: next.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}); err != nil {
			t.Fatal(err)
		}
	}
	if bought == 0 || bought >= 40 {
		t.Fatalf("bought %d blocks of 4 in %s on %s; want supply to run out", bought, az, start)
	}
}

func TestAccountInstanceLimit(t *testing.T) {
	_, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	held := buyBlocksOf16(t, c, model.MaxAccountInstances)
	if held != model.MaxAccountInstances {
		t.Fatalf("could only buy %d instances", held)
	}
	o := mustSearch(t, c, p5Search(1, 24))[0]
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InstanceLimitExceeded")
	if !strings.Contains(err.Error(), "256") {
		t.Errorf("limit message: %v", err)
	}
	// Other regions have their own quota.
	if _, cr := buy(t, ec2Client(base, "us-west-2"), p5Search(1, 24)); cr == nil {
		t.Fatal("no purchase in us-west-2")
	}
}

// buyBlocksOf16 buys blocks of 16 instances, a day long and a week out, of one type after
// another, for as long as limit allows another 16 and the type is offered; it returns how
// many instances it bought.
func buyBlocksOf16(t *testing.T, c *ec2.Client, limit int) int {
	t.Helper()
	held := 0
	for _, typ := range []string{"p4d.24xlarge", "p5.4xlarge", "trn1.32xlarge", "p5.48xlarge", "p5en.48xlarge"} {
		for held+16 <= limit {
			out, err := c.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
				InstanceType: aws.String(typ), InstanceCount: aws.Int32(16), CapacityDurationHours: aws.Int32(24),
				StartDateRange: aws.Time(testStart.Add(7 * 24 * time.Hour))})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.CapacityBlockOfferings) == 0 {
				break
			}
			if _, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: out.CapacityBlockOfferings[0].CapacityBlockOfferingId,
				InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}); err != nil {
				t.Fatalf("after %d instances: %v", held, err)
			}
			held += 16
		}
	}
	return held
}

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
