package ec2sim

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

func prefs(names ...string) []types.CapacityBlockInstanceTypePreference {
	out := make([]types.CapacityBlockInstanceTypePreference, len(names))
	for i, n := range names {
		out[i] = types.CapacityBlockInstanceTypePreference{InstanceType: aws.String(n)}
	}
	return out
}

func prefSearch(count, hours int32, names ...string) *ec2.DescribeCapacityBlockOfferingsInput {
	return &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceTypePreferences: prefs(names...),
		InstanceCount:           aws.Int32(count),
		CapacityDurationHours:   aws.Int32(hours),
	}
}

func offeringIDs(offs []types.CapacityBlockOffering) []string {
	var out []string
	for _, o := range offs {
		out = append(out, aws.ToString(o.CapacityBlockOfferingId))
	}
	return out
}

func TestInstanceTypePreferencesSearchSeveralTypes(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	// A narrow window, so that neither type's answer is cut.
	from := testStart.Add(10 * 24 * time.Hour)
	narrow := func(in *ec2.DescribeCapacityBlockOfferingsInput) *ec2.DescribeCapacityBlockOfferingsInput {
		in.StartDateRange, in.EndDateRange = aws.Time(from), aws.Time(from.Add(48*time.Hour))
		return in
	}
	both := mustSearch(t, c, narrow(prefSearch(2, 24, "p5.48xlarge", "p5en.48xlarge")))
	if len(both) >= maxOfferings {
		t.Fatalf("the narrow window should not fill the cap: %d offerings", len(both))
	}
	var union []string
	for _, typ := range []string{"p5.48xlarge", "p5en.48xlarge"} {
		one := mustSearch(t, c, narrow(&ec2.DescribeCapacityBlockOfferingsInput{
			InstanceType: aws.String(typ), InstanceCount: aws.Int32(2), CapacityDurationHours: aws.Int32(24)}))
		for _, o := range one {
			if aws.ToString(o.InstanceType) != typ {
				t.Fatalf("search of %s answered %s", typ, aws.ToString(o.InstanceType))
			}
		}
		union = append(union, offeringIDs(one)...)
	}
	got := offeringIDs(both)
	slices.Sort(got)
	slices.Sort(union)
	if !slices.Equal(got, union) {
		t.Fatalf("an uncut search of two types = the two searches of one:\n got %v\nwant %v", got, union)
	}
	types := map[string]bool{}
	for _, o := range both {
		types[aws.ToString(o.InstanceType)] = true
	}
	if len(types) != 2 {
		t.Fatalf("want offerings of both types, got %v", types)
	}
}

func TestInstanceTypePreferencesCutAtTheCap(t *testing.T) {
	wide := []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge", "trn1.32xlarge"}
	alone := func(t *testing.T, c *ec2.Client) []string {
		var ids []string
		for _, typ := range wide {
			ids = append(ids, offeringIDs(mustSearch(t, c, prefSearch(1, 24, typ)))...)
		}
		if len(ids) <= maxOfferings {
			t.Fatalf("the four types alone answer %d offerings; the test needs more than %d", len(ids), maxOfferings)
		}
		return ids
	}
	t.Run("per type (the default)", func(t *testing.T) {
		_, url := newTestServer(t, Options{})
		c := ec2Client(url, "us-east-1")
		got := offeringIDs(mustSearch(t, c, prefSearch(1, 24, wide...)))
		want := alone(t, c)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("a search of four types answers what each alone does:\n got %v\nwant %v", got, want)
		}
	})
	t.Run("across types", func(t *testing.T) {
		_, url := newTestServer(t, Options{CapAcrossTypes: true})
		c := ec2Client(url, "us-east-1")
		all := mustSearch(t, c, prefSearch(1, 24, wide...))
		if len(all) != maxOfferings {
			t.Fatalf("a wide search of four types is cut at %d offerings, got %d", maxOfferings, len(all))
		}
		alone(t, c)
		// The cut keeps the earliest.
		for i := 1; i < len(all); i++ {
			if all[i].StartDate.Before(*all[i-1].StartDate) {
				t.Fatalf("offerings not by start: %v then %v", all[i-1].StartDate, all[i].StartDate)
			}
		}
	})
}

func TestInstanceTypePreferencesValidation(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	tooMany := make([]string, maxTypePreferences+1)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf("p5.%dxlarge", i)
	}
	for _, tc := range []struct {
		name string
		in   *ec2.DescribeCapacityBlockOfferingsInput
		code string
	}{
		{"both", func() *ec2.DescribeCapacityBlockOfferingsInput {
			in := prefSearch(1, 24, "p5.48xlarge")
			in.InstanceType = aws.String("p5.48xlarge")
			return in
		}(), "InvalidParameterCombination"},
		{"with an UltraServer type", func() *ec2.DescribeCapacityBlockOfferingsInput {
			in := prefSearch(1, 24, "p5.48xlarge")
			in.InstanceCount, in.UltraserverType = nil, aws.String("u-p6e-gb200x36")
			return in
		}(), "InvalidParameterCombination"},
		{"neither", &ec2.DescribeCapacityBlockOfferingsInput{InstanceCount: aws.Int32(1), CapacityDurationHours: aws.Int32(24)}, "MissingParameter"},
		{"duplicate", prefSearch(1, 24, "p5.48xlarge", "p5en.48xlarge", "p5.48xlarge"), "InvalidParameterValue"},
		{"unknown type", prefSearch(1, 24, "p5.48xlarge", "m5.large"), "InvalidParameterValue"},
		{"UltraServer type as a preference", prefSearch(1, 24, "u-p6e-gb200x72"), "InvalidParameterValue"},
		{"too many", prefSearch(1, 24, tooMany...), "InvalidParameterValue"},
		{"no count", func() *ec2.DescribeCapacityBlockOfferingsInput {
			in := prefSearch(1, 24, "p5.48xlarge")
			in.InstanceCount = nil
			return in
		}(), "MissingParameter"},
		{"count over 64", prefSearch(65, 24, "p5.48xlarge"), "InvalidParameterValue"},
		{"empty type", prefSearch(1, 24, ""), "MissingParameter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.DescribeCapacityBlockOfferings(ctx, tc.in)
			wantCode(t, err, tc.code)
		})
	}
}

func TestInstanceTypePreferencesUnsoldTypeAnswersNothingOfIt(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	// A type the catalog knows but that is not sold in the region answers no offering of
	// it, as a search of it alone does; the other type's are answered.
	var unsold string
	for _, ty := range model.Catalog() {
		if !ty.UltraServer && !ty.Sells("us-east-1") {
			unsold = ty.Name
		}
	}
	if unsold == "" {
		t.Skip("every instance type is sold in us-east-1")
	}
	offs := mustSearch(t, c, prefSearch(1, 24, unsold, "p5.48xlarge"))
	for _, o := range offs {
		if aws.ToString(o.InstanceType) != "p5.48xlarge" {
			t.Fatalf("offering of %s, not sold here", aws.ToString(o.InstanceType))
		}
	}
}

// wantSameFromTheSeed checks that the search is deterministic from the seed: another
// emulator of the seed finds the same offering o.
func wantSameFromTheSeed(t *testing.T, o types.CapacityBlockOffering, search func(*testing.T, *ec2.Client) (*ec2.DescribeCapacityBlockOfferingsInput, types.CapacityBlockOffering)) {
	t.Helper()
	_, url2 := newTestServer(t, Options{})
	_, o2 := search(t, ec2Client(url2, "us-east-1"))
	if aws.ToString(o2.CapacityBlockOfferingId) != aws.ToString(o.CapacityBlockOfferingId) {
		t.Fatalf("same seed, different offering: %s vs %s", aws.ToString(o2.CapacityBlockOfferingId), aws.ToString(o.CapacityBlockOfferingId))
	}
}

// segmentedSearch finds, by asking a count no single zone holds, a segmented offering.
func segmentedSearch(t *testing.T, c *ec2.Client) (*ec2.DescribeCapacityBlockOfferingsInput, types.CapacityBlockOffering) {
	t.Helper()
	in := &ec2.DescribeCapacityBlockOfferingsInput{InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(60), CapacityDurationHours: aws.Int32(48)}
	out, err := c.DescribeCapacityBlockOfferings(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out.CapacityBlockOfferings {
		if len(o.CapacityBlockOfferingSegments) > 0 {
			return in, o
		}
	}
	t.Fatalf("no segmented offering among %d for 60 p5.48xlarge", len(out.CapacityBlockOfferings))
	return nil, types.CapacityBlockOffering{}
}

func TestSegmentedOfferingForACountNoZoneHolds(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, o := segmentedSearch(t, c)
	segs := o.CapacityBlockOfferingSegments
	if len(segs) < 2 {
		t.Fatalf("a split offering has at least 2 segments, got %d", len(segs))
	}
	var fee model.Money
	count := int32(0)
	zones := map[string]bool{}
	for _, sg := range segs {
		f, err := model.ParseMoney(aws.ToString(sg.UpfrontFee))
		if err != nil {
			t.Fatal(err)
		}
		fee = fee.Add(f)
		count += aws.ToInt32(sg.InstanceCount)
		zones[aws.ToString(sg.AvailabilityZone)] = true
		if aws.ToString(sg.AvailabilityZoneId) == "" || aws.ToString(sg.InstanceType) != "p5.48xlarge" ||
			aws.ToString(sg.CurrencyCode) != "USD" || aws.ToString(sg.ZoneType) == "" {
			t.Fatalf("segment lacks a field: %+v", sg)
		}
		if !sg.StartDate.Equal(*o.StartDate) || !sg.EndDate.Equal(*o.EndDate) {
			t.Fatalf("parallel segment %v–%v, offering %v–%v", sg.StartDate, sg.EndDate, o.StartDate, o.EndDate)
		}
		if d := sg.EndDate.Sub(*sg.StartDate); aws.ToInt32(sg.CapacityBlockDurationHours) != int32(d/time.Hour) ||
			aws.ToInt32(sg.CapacityBlockDurationMinutes) != int32(d%time.Hour/time.Minute) {
			t.Fatalf("segment duration %dh%dm for %v", aws.ToInt32(sg.CapacityBlockDurationHours), aws.ToInt32(sg.CapacityBlockDurationMinutes), d)
		}
	}
	if len(zones) != len(segs) {
		t.Fatalf("parallel segments share a zone: %v", zones)
	}
	top, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil {
		t.Fatal(err)
	}
	if top.Cmp(fee) != 0 {
		t.Fatalf("offering fee %s is not the sum %s of its segments", top, fee)
	}
	if count != aws.ToInt32(o.InstanceCount) || count != 60 {
		t.Fatalf("segments hold %d instances, the offering %d", count, aws.ToInt32(o.InstanceCount))
	}
	if aws.ToString(o.AvailabilityZone) != aws.ToString(segs[0].AvailabilityZone) {
		t.Fatalf("the offering's zone %s is not its first segment's %s", aws.ToString(o.AvailabilityZone), aws.ToString(segs[0].AvailabilityZone))
	}

	wantSameFromTheSeed(t, o, segmentedSearch)
}

func TestOrdinarySearchesArePlain(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	n := 0
	for _, typ := range []string{"p5.48xlarge", "p5en.48xlarge", "p4d.24xlarge", "trn1.32xlarge", "p6-b200.48xlarge"} {
		for _, count := range []int32{1, 2, 4} {
			for _, o := range mustSearch(t, c, prefSearch(count, 72, typ)) {
				n++
				if len(o.CapacityBlockOfferingSegments) > 0 {
					t.Fatalf("a search of %d %s answered a segmented offering", count, typ)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no offerings")
	}
}

func TestPurchaseSegmentedOfferingMakesOneReservationEach(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	s, url := newTestServer(t, Options{StateFile: file})
	c := ec2Client(url, "us-east-1")
	_, o := segmentedSearch(t, c)
	segs := o.CapacityBlockOfferingSegments
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: o.CapacityBlockOfferingId,
		InstancePlatform:        types.CapacityReservationInstancePlatformLinuxUnix,
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation,
			Tags: []types.Tag{{Key: aws.String("team"), Value: aws.String("ml")}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityReservations) != len(segs) || len(out.CapacityBlocks) != len(segs) {
		t.Fatalf("%d segments made %d reservations and %d blocks", len(segs), len(out.CapacityReservations), len(out.CapacityBlocks))
	}
	if aws.ToString(out.CapacityReservation.CapacityReservationId) != aws.ToString(out.CapacityReservations[0].CapacityReservationId) {
		t.Fatal("capacityReservation is not the first segment's reservation")
	}
	var ids, blocks []string
	for i, r := range out.CapacityReservations {
		sg := segs[i]
		if aws.ToString(r.AvailabilityZone) != aws.ToString(sg.AvailabilityZone) || aws.ToInt32(r.TotalInstanceCount) != aws.ToInt32(sg.InstanceCount) {
			t.Fatalf("reservation %d in %s of %d, segment in %s of %d", i, aws.ToString(r.AvailabilityZone), aws.ToInt32(r.TotalInstanceCount), aws.ToString(sg.AvailabilityZone), aws.ToInt32(sg.InstanceCount))
		}
		if r.State != types.CapacityReservationStatePaymentPending {
			t.Fatalf("reservation %d is %s", i, r.State)
		}
		ids = append(ids, aws.ToString(r.CapacityReservationId))
		blocks = append(blocks, aws.ToString(r.CapacityBlockId))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(segs) {
		t.Fatalf("reservation ids repeat: %v", ids)
	}

	// Each is listed, tagged, by the three describe actions.
	crs, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	if len(crs.CapacityReservations) != len(segs) {
		t.Fatalf("DescribeCapacityReservations lists %d of %d", len(crs.CapacityReservations), len(segs))
	}
	for _, r := range crs.CapacityReservations {
		if !hasTag(r.Tags, "team", "ml") {
			t.Fatalf("reservation %s is not tagged: %v", aws.ToString(r.CapacityReservationId), r.Tags)
		}
	}
	cbs, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{CapacityBlockIds: blocks})
	if err != nil {
		t.Fatal(err)
	}
	if len(cbs.CapacityBlocks) != len(segs) {
		t.Fatalf("DescribeCapacityBlocks lists %d of %d", len(cbs.CapacityBlocks), len(segs))
	}
	st, err := c.DescribeCapacityBlockStatus(ctx, &ec2.DescribeCapacityBlockStatusInput{CapacityBlockIds: blocks})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.CapacityBlockStatuses) != len(segs) {
		t.Fatalf("DescribeCapacityBlockStatus lists %d of %d", len(st.CapacityBlockStatuses), len(segs))
	}

	// Each can be extended on its own, once paid.
	s.Advance(maxPaymentDelay)
	extended := 0
	for _, id := range ids {
		ext, err := c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
			CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ext.CapacityBlockExtensionOfferings) == 0 {
			continue // the zone may have nothing more that day
		}
		if _, err := c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
			CapacityReservationId: aws.String(id), CapacityBlockExtensionOfferingId: ext.CapacityBlockExtensionOfferings[0].CapacityBlockExtensionOfferingId}); err != nil {
			t.Fatal(err)
		}
		extended++
	}
	if extended == 0 {
		t.Fatal("no segment's reservation could be extended")
	}

	// The offering is spent; the state file holds every reservation.
	_, err = c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")
	_, url2 := newTestServer(t, Options{StateFile: file, Start: s.Now()})
	again, err := ec2Client(url2, "us-east-1").DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: ids})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.CapacityReservations) != len(segs) {
		t.Fatalf("the state file kept %d of %d reservations", len(again.CapacityReservations), len(segs))
	}
}

func TestPurchaseSegmentedOfferingConsumesEachZone(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	in, o := segmentedSearch(t, c)
	if _, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}); err != nil {
		t.Fatal(err)
	}
	// The window's supply went to the purchase: the same count is not on offer for it again.
	out, err := c.DescribeCapacityBlockOfferings(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, o2 := range out.CapacityBlockOfferings {
		if o2.StartDate.Equal(*o.StartDate) && o2.EndDate.Equal(*o.EndDate) {
			for _, sg := range o.CapacityBlockOfferingSegments {
				if aws.ToString(o2.AvailabilityZone) == aws.ToString(sg.AvailabilityZone) && len(o2.CapacityBlockOfferingSegments) == 0 {
					t.Fatalf("zone %s still offers 60 for the window bought", aws.ToString(sg.AvailabilityZone))
				}
			}
		}
	}
}

func TestPurchaseSegmentedOfferingLostReplyAndPayFail(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	_, o := segmentedSearch(t, c)
	s.SetFaults(Faults{LostReply: 1, PayFail: 1})
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix,
		TagSpecifications: []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation,
			Tags: []types.Tag{{Key: aws.String("gpublock:request"), Value: aws.String("req-1")}}}},
	})
	wantCode(t, err, "InternalError")
	s.SetFaults(Faults{})
	// Every segment's reservation was made, and is found by its request tag.
	all, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var found []types.CapacityReservation
	for _, r := range all.CapacityReservations {
		if hasTag(r.Tags, "gpublock:request", "req-1") {
			found = append(found, r)
		}
	}
	if len(found) != len(o.CapacityBlockOfferingSegments) {
		t.Fatalf("a lost reply left %d reservations of %d segments", len(found), len(o.CapacityBlockOfferingSegments))
	}
	for _, r := range found {
		if r.State != types.CapacityReservationStatePaymentPending {
			t.Fatalf("%s is %s before its payment", aws.ToString(r.CapacityReservationId), r.State)
		}
	}
	// One payment: under payfail every segment fails together.
	s.Advance(maxPaymentDelay)
	all, err = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range all.CapacityReservations {
		if hasTag(r.Tags, "gpublock:request", "req-1") && r.State != types.CapacityReservationStatePaymentFailed {
			t.Fatalf("%s is %s; the purchase's payment failed", aws.ToString(r.CapacityReservationId), r.State)
		}
	}
}

func TestPlainPurchaseAnswersItsReservationInTheSet(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o := mustSearch(t, c, p5Search(1, 24))[0]
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityReservations) != 1 || aws.ToString(out.CapacityReservations[0].CapacityReservationId) != aws.ToString(out.CapacityReservation.CapacityReservationId) {
		t.Fatalf("a plain purchase answers its one reservation in capacityReservationSet: %+v", out.CapacityReservations)
	}
}

func hasTag(tags []types.Tag, k, v string) bool {
	for _, t := range tags {
		if aws.ToString(t.Key) == k && aws.ToString(t.Value) == v {
			return true
		}
	}
	return false
}

// consecutiveSearch finds, by asking long windows, an offering made of consecutive
// segments: the count held by one zone after another.
func consecutiveSearch(t *testing.T, c *ec2.Client) (*ec2.DescribeCapacityBlockOfferingsInput, types.CapacityBlockOffering) {
	t.Helper()
	for _, days := range []int32{21, 28, 35, 42, 56} {
		for _, count := range []int32{1, 2, 4, 8, 16} {
			in := &ec2.DescribeCapacityBlockOfferingsInput{InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(count), CapacityDurationHours: aws.Int32(days * 24)}
			for _, o := range mustSearch(t, c, in) {
				if segs := o.CapacityBlockOfferingSegments; len(segs) > 1 && !segs[1].StartDate.Equal(*segs[0].StartDate) {
					return in, o
				}
			}
		}
	}
	t.Fatal("no offering of consecutive segments for long windows of p5.48xlarge in us-east-1")
	return nil, types.CapacityBlockOffering{}
}

// A long window no single zone holds the count over is offered as consecutive segments:
// the same type and count throughout, each segment starting where the one before ends,
// in whole market days, possibly in other zones; the top-level fields describe the whole
// (start of the first, end of the last, the fee and the length their sums).
func TestConsecutiveSegmentsForALongWindow(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	in, o := consecutiveSearch(t, c)
	segs := o.CapacityBlockOfferingSegments
	var fee model.Money
	var minutes int32
	for i, sg := range segs {
		f, err := model.ParseMoney(aws.ToString(sg.UpfrontFee))
		if err != nil {
			t.Fatal(err)
		}
		fee = fee.Add(f)
		minutes += aws.ToInt32(sg.CapacityBlockDurationHours)*60 + aws.ToInt32(sg.CapacityBlockDurationMinutes)
		if aws.ToString(sg.InstanceType) != "p5.48xlarge" || aws.ToInt32(sg.InstanceCount) != aws.ToInt32(in.InstanceCount) ||
			aws.ToString(sg.AvailabilityZoneId) == "" || aws.ToString(sg.CurrencyCode) != "USD" {
			t.Fatalf("segment %d: %+v", i+1, sg)
		}
		d := sg.EndDate.Sub(*sg.StartDate)
		if d <= 0 || d%(24*time.Hour) != 0 || int32(d/time.Hour) != aws.ToInt32(sg.CapacityBlockDurationHours) {
			t.Fatalf("segment %d lasts %v (%dh): want whole days", i+1, d, aws.ToInt32(sg.CapacityBlockDurationHours))
		}
		if sg.StartDate.UTC().Hour() != model.BoundaryHour || sg.StartDate.UTC().Minute() != model.BoundaryMinute {
			t.Fatalf("segment %d starts at %v, not at 11:30 UTC", i+1, sg.StartDate)
		}
		if i > 0 {
			if !sg.StartDate.Equal(*segs[i-1].EndDate) {
				t.Fatalf("segment %d starts %v, the one before ends %v", i+1, sg.StartDate, segs[i-1].EndDate)
			}
			if aws.ToString(sg.AvailabilityZone) == aws.ToString(segs[i-1].AvailabilityZone) {
				t.Fatalf("segments %d and %d in one zone %s: one block would do", i, i+1, aws.ToString(sg.AvailabilityZone))
			}
		}
	}
	if !segs[0].StartDate.Equal(*o.StartDate) || !segs[len(segs)-1].EndDate.Equal(*o.EndDate) {
		t.Fatalf("offering %v–%v, segments %v–%v", o.StartDate, o.EndDate, segs[0].StartDate, segs[len(segs)-1].EndDate)
	}
	top, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
	if err != nil || top.Cmp(fee) != 0 {
		t.Fatalf("offering fee %s (%v), the segments' sum %s", aws.ToString(o.UpfrontFee), err, fee)
	}
	if got := aws.ToInt32(o.CapacityBlockDurationHours)*60 + aws.ToInt32(o.CapacityBlockDurationMinutes); got != minutes ||
		got != aws.ToInt32(in.CapacityDurationHours)*60 {
		t.Fatalf("offering of %d minutes, segments %d, asked %dh", got, minutes, aws.ToInt32(in.CapacityDurationHours))
	}
	if aws.ToInt32(o.InstanceCount) != aws.ToInt32(in.InstanceCount) || aws.ToString(o.AvailabilityZone) != aws.ToString(segs[0].AvailabilityZone) {
		t.Fatalf("offering of %d in %s; want the count asked, in the first segment's zone", aws.ToInt32(o.InstanceCount), aws.ToString(o.AvailabilityZone))
	}

	// gpublock's model reads it as the one window, each segment losing its own 30 minutes.
	var parts []model.Part
	for _, sg := range segs {
		f, _ := model.ParseMoney(aws.ToString(sg.UpfrontFee))
		parts = append(parts, model.Part{AvailabilityZone: aws.ToString(sg.AvailabilityZone), InstanceType: aws.ToString(sg.InstanceType),
			Count: int(aws.ToInt32(sg.InstanceCount)), Start: sg.StartDate.UTC(), End: sg.EndDate.UTC(), Fee: f, Currency: "USD",
			Hours: int64(aws.ToInt32(sg.CapacityBlockDurationHours)), Minutes: int(aws.ToInt32(sg.CapacityBlockDurationMinutes))})
	}
	mo := model.Offering{Source: model.SourceCapacityBlock, Count: int(aws.ToInt32(o.InstanceCount)), Start: o.StartDate.UTC(), End: o.EndDate.UTC(),
		DurationHours: int(aws.ToInt32(o.CapacityBlockDurationHours)), Fee: top, Currency: "USD", Parts: parts}
	whole := int64(mo.Count) * int64(o.EndDate.Sub(*o.StartDate)/time.Minute)
	if got := mo.InstanceMinutes(); got != whole {
		t.Errorf("instance-minutes over the segments %d, the whole window's %d", got, whole)
	}
	if got, want := mo.UsableInstanceMinutes(30), whole-int64(mo.Count*30*len(segs)); got != want {
		t.Errorf("usable instance-minutes %d, want %d (30 minutes lost per segment)", got, want)
	}
	if p := mo.SegmentsProblem(); p != "" {
		t.Errorf("model refuses it: %s", p)
	}

	wantSameFromTheSeed(t, o, consecutiveSearch)
}

// Buying consecutive segments makes one reservation per segment, each with its own window,
// and takes each segment's days from its own zone only.
func TestPurchaseConsecutiveSegmentsMakesOneReservationEach(t *testing.T) {
	_, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	in, o := consecutiveSearch(t, c)
	segs := o.CapacityBlockOfferingSegments
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId,
		InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.CapacityReservations) != len(segs) {
		t.Fatalf("%d segments made %d reservations", len(segs), len(out.CapacityReservations))
	}
	for i, r := range out.CapacityReservations {
		sg := segs[i]
		if aws.ToString(r.AvailabilityZone) != aws.ToString(sg.AvailabilityZone) || aws.ToInt32(r.TotalInstanceCount) != aws.ToInt32(in.InstanceCount) ||
			!r.StartDate.Equal(*sg.StartDate) || !r.EndDate.Equal(*sg.EndDate) {
			t.Fatalf("reservation %d: %s × %d, %v–%v; segment %s, %v–%v", i+1, aws.ToString(r.AvailabilityZone), aws.ToInt32(r.TotalInstanceCount),
				r.StartDate, r.EndDate, aws.ToString(sg.AvailabilityZone), sg.StartDate, sg.EndDate)
		}
	}
	_, err = c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InvalidCapacityBlockOfferingIdExpired")
}
