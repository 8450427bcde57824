package ec2sim

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/model"
)

func TestParsePaymentDelay(t *testing.T) {
	for in, want := range map[string]PaymentDelay{
		"12h": {Min: 12 * time.Hour, Max: 12 * time.Hour}, "5m-12h": {Min: 5 * time.Minute, Max: 12 * time.Hour},
		"aws": {Min: 5 * time.Minute, Max: 12 * time.Hour}, " 30s - 2m ": {Min: 30 * time.Second, Max: 2 * time.Minute}, "0s": {},
	} {
		got, err := ParsePaymentDelay(in)
		if err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "soon", "13h", "2h-1h", "-5m", "1m-", "1m-13h"} {
		if d, err := ParsePaymentDelay(bad); err == nil {
			t.Errorf("%q accepted as %v", bad, d)
		}
	}
	if _, err := New(Options{PaymentDelay: PaymentDelay{Min: time.Hour, Max: 13 * time.Hour}}); err == nil {
		t.Error("New accepted a payment delay beyond AWS's 12 hours")
	}
}

// With AWS's longest delay a block stays payment-pending for 12 hours (no caller may
// assume minutes), then is scheduled; a block that starts sooner is paid by 5 minutes
// before its start, as AWS's deadline has it.
func TestLongPaymentDelay(t *testing.T) {
	s, url := newTestServer(t, Options{PaymentDelay: PaymentDelay{Min: 12 * time.Hour, Max: 12 * time.Hour}})
	c := ec2Client(url, "us-east-1")
	_, far := buy(t, c, farSearch())
	id := aws.ToString(far.CapacityReservationId)
	s.Advance(maxPaymentDelay + time.Second)
	if st := reservationState(t, c, id).State; st != types.CapacityReservationStatePaymentPending {
		t.Fatalf("after the default delay: %s, want payment-pending still", st)
	}
	s.Advance(12*time.Hour - maxPaymentDelay - 2*time.Second)
	if st := reservationState(t, c, id).State; st != types.CapacityReservationStatePaymentPending {
		t.Fatalf("a second before 12 hours: %s, want payment-pending", st)
	}
	_, err := c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "IncorrectState")
	s.Advance(2 * time.Second)
	if st := reservationState(t, c, id).State; st != types.CapacityReservationStateScheduled {
		t.Fatalf("after 12 hours: %s, want scheduled", st)
	}

	// A near-term block (starting within the hour) is paid 5 minutes before its start.
	// Some hours of the seeded market have one: look through a day of hours.
	var near types.CapacityBlockOffering
	base := s.Now()
	for h := 0; h < 24 && near.CapacityBlockOfferingId == nil; h++ {
		s.SetTime(base.Add(time.Duration(h) * time.Hour))
		for _, o := range mustSearch(t, c, p5Search(1, 24)) {
			if aws.ToTime(o.StartDate).Before(s.Now().Add(time.Hour)) && aws.ToTime(o.StartDate).After(s.Now().Add(5*time.Minute)) {
				near = o
				break
			}
		}
	}
	if near.CapacityBlockOfferingId == nil {
		t.Fatal("no near-term offering starting in 5 to 60 minutes in 24 hours")
	}
	out, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: near.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	if err != nil {
		t.Fatal(err)
	}
	nid := aws.ToString(out.CapacityReservation.CapacityReservationId)
	s.SetTime(aws.ToTime(near.StartDate).Add(-5*time.Minute - time.Second))
	if st := reservationState(t, c, nid).State; st != types.CapacityReservationStatePaymentPending {
		t.Errorf("just before the payment deadline: %s", st)
	}
	s.SetTime(aws.ToTime(near.StartDate).Add(time.Second))
	if st := reservationState(t, c, nid).State; st != types.CapacityReservationStateActive {
		t.Errorf("at its start a near-term block bought with a 12-hour delay is %s, want active", st)
	}
}

func TestParsePayFailFault(t *testing.T) {
	var f Faults
	if err := ParseFault("payfail=2", &f); err != nil || f.PayFail != 2 {
		t.Errorf("payfail=2: %d, %v", f.PayFail, err)
	}
	if err := ParseFault("payment-failed=0", &f); err != nil || f.PayFail != 0 {
		t.Errorf("payment-failed=0: %d, %v", f.PayFail, err)
	}
	for _, bad := range []string{"payfail=-1", "payfail=0.5", "payfail=all", "payfail="} {
		if err := ParseFault(bad, &f); err == nil {
			t.Errorf("%s accepted: %d", bad, f.PayFail)
		}
	}
}

// farSearch asks for blocks starting 4 to 5 weeks ahead, where the market's prices do not
// move with the minutes that payment takes.
func farSearch() *ec2.DescribeCapacityBlockOfferingsInput {
	in := p5Search(4, 48)
	in.StartDateRange = aws.Time(testStart.Add(28 * 24 * time.Hour))
	in.EndDateRange = aws.Time(testStart.Add(35 * 24 * time.Hour))
	return in
}

// market is what a search shows, without the offering IDs (which change with every purchase).
func market(t *testing.T, c *ec2.Client) []string {
	t.Helper()
	var out []string
	for _, o := range mustSearch(t, c, farSearch()) {
		out = append(out, fmt.Sprintf("%s %s %s %d %s", aws.ToString(o.AvailabilityZone), aws.ToTime(o.StartDate).Format(time.RFC3339),
			aws.ToTime(o.EndDate).Format(time.RFC3339), aws.ToInt32(o.InstanceCount), aws.ToString(o.UpfrontFee)))
	}
	return out
}

func reservationState(t *testing.T, c *ec2.Client, id string) types.CapacityReservation {
	t.Helper()
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{CapacityReservationIds: []string{id}})
	if err != nil || len(out.CapacityReservations) != 1 {
		t.Fatalf("describe %s: %+v, %v", id, out, err)
	}
	return out.CapacityReservations[0]
}

// payfail=1: the next purchase is payment-pending, then payment-failed for good, listed as
// such, not launchable nor extendable, its capacity back on the market; the purchase after
// it is paid as usual.
func TestPaymentFailed(t *testing.T) {
	s, url := newTestServer(t, Options{Faults: Faults{PayFail: 1}})
	c := ec2Client(url, "us-east-1")
	before := market(t, c)

	_, failing := buy(t, c, farSearch())
	if failing.State != types.CapacityReservationStatePaymentPending {
		t.Fatalf("a purchase whose payment will fail answers %s, want payment-pending", failing.State)
	}
	if s.currentFaults().PayFail != 0 {
		t.Errorf("payfail left at %d after one purchase", s.currentFaults().PayFail)
	}
	held := market(t, c)
	if slices.Equal(held, before) {
		t.Fatalf("the market did not change while the payment was pending: %v", held)
	}
	_, paid := buy(t, c, p5Search(1, 24))

	s.Advance(maxPaymentDelay + time.Second)
	id := aws.ToString(failing.CapacityReservationId)
	r := reservationState(t, c, id)
	if r.State != types.CapacityReservationStatePaymentFailed || aws.ToInt32(r.AvailableInstanceCount) != 0 ||
		aws.ToInt32(r.TotalInstanceCount) != 4 || r.ReservationType != types.CapacityReservationTypeCapacityBlock {
		t.Errorf("after the payment failed: state %s, available %d, total %d, type %s", r.State,
			aws.ToInt32(r.AvailableInstanceCount), aws.ToInt32(r.TotalInstanceCount), r.ReservationType)
	}
	if st := reservationState(t, c, aws.ToString(paid.CapacityReservationId)).State; st != types.CapacityReservationStateScheduled {
		t.Errorf("the purchase after the failing one is %s, want scheduled", st)
	}

	blocks, err := c.DescribeCapacityBlocks(ctx, &ec2.DescribeCapacityBlocksInput{
		Filters: []types.Filter{{Name: aws.String("state"), Values: []string{"payment-failed"}}}})
	if err != nil || len(blocks.CapacityBlocks) != 1 || aws.ToString(blocks.CapacityBlocks[0].CapacityBlockId) != aws.ToString(r.CapacityBlockId) ||
		blocks.CapacityBlocks[0].State != types.CapacityBlockResourceStatePaymentFailed {
		t.Errorf("DescribeCapacityBlocks state=payment-failed: %+v, %v", blocks, err)
	}

	if after := market(t, c); !slices.Equal(after, before) {
		t.Errorf("the failed block's capacity did not go back to the market:\nbefore %v\nafter  %v", before, after)
	}

	_, err = c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
	wantCode(t, err, "IncorrectState")

	s.SetTime(aws.ToTime(r.StartDate).Add(time.Hour))
	if st := reservationState(t, c, id).State; st != types.CapacityReservationStatePaymentFailed {
		t.Errorf("at its start the block is %s, want payment-failed still", st)
	}
	_, err = c.RunInstances(ctx, &ec2.RunInstancesInput{
		ImageId: aws.String("ami-0123456789abcdef0"), MinCount: aws.Int32(1), MaxCount: aws.Int32(1),
		InstanceType:          types.InstanceTypeP548xlarge,
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{MarketType: types.MarketTypeCapacityBlock},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String(id)}},
	})
	wantCode(t, err, "InvalidLaunchTargets")

	s.SetTime(aws.ToTime(r.EndDate).Add(24 * time.Hour))
	if st := reservationState(t, c, id).State; st != types.CapacityReservationStatePaymentFailed {
		t.Errorf("after its end the block is %s, want payment-failed: it never ran", st)
	}
}

// The failure, and the capacity released, survive a restart from the state file.
func TestPaymentFailedPersists(t *testing.T) {
	file := t.TempDir() + "/state.json"
	s, url := newTestServer(t, Options{StateFile: file, Faults: Faults{PayFail: 1}})
	c := ec2Client(url, "us-east-1")
	before := market(t, c)
	_, r := buy(t, c, farSearch())
	s.Advance(maxPaymentDelay + time.Second)
	if st := reservationState(t, c, aws.ToString(r.CapacityReservationId)).State; st != types.CapacityReservationStatePaymentFailed {
		t.Fatalf("state %s", st)
	}

	_, url2 := newTestServer(t, Options{StateFile: file, Start: s.Now()})
	c2 := ec2Client(url2, "us-east-1")
	if st := reservationState(t, c2, aws.ToString(r.CapacityReservationId)).State; st != types.CapacityReservationStatePaymentFailed {
		t.Errorf("after a restart: %s, want payment-failed", st)
	}
	if after := market(t, c2); !slices.Equal(after, before) {
		t.Errorf("after a restart the capacity is held again:\nbefore %v\nafter  %v", before, after)
	}
}

// A failed block holds no instances: the 256-instance limit leaves it out.
func TestPaymentFailedOutsideInstanceLimit(t *testing.T) {
	s, url := newTestServer(t, Options{Faults: Faults{PayFail: 1}})
	c := ec2Client(url, "us-east-1")
	if n := buyBlocksOf16(t, c, 16); n != 16 {
		t.Fatalf("bought %d", n)
	}
	s.Advance(maxPaymentDelay + time.Second)
	if n := buyBlocksOf16(t, c, model.MaxAccountInstances); n != model.MaxAccountInstances {
		t.Fatalf("with a failed block of 16, could buy only %d more instances", n)
	}
	o := mustSearch(t, c, p5Search(1, 24))[0]
	_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
	wantCode(t, err, "InstanceLimitExceeded")
}

// payfail applies to an extension too: payment-failed in the history, the block's end
// unchanged, its capacity back on the market, and the block can be extended again.
func TestExtensionPaymentFailed(t *testing.T) {
	s, url := newTestServer(t, Options{})
	c := ec2Client(url, "us-east-1")
	o, r := buy(t, c, p5Search(2, 24))
	s.SetTime(aws.ToTime(o.StartDate).Add(time.Hour))
	id := aws.ToString(r.CapacityReservationId)
	end := aws.ToTime(o.EndDate)
	extOffer := func() types.CapacityBlockExtensionOffering {
		t.Helper()
		out, err := c.DescribeCapacityBlockExtensionOfferings(ctx, &ec2.DescribeCapacityBlockExtensionOfferingsInput{
			CapacityReservationId: aws.String(id), CapacityBlockExtensionDurationHours: aws.Int32(24)})
		if err != nil || len(out.CapacityBlockExtensionOfferings) != 1 {
			t.Fatalf("extension offerings: %+v, %v", out, err)
		}
		return out.CapacityBlockExtensionOfferings[0]
	}
	before := extOffer()

	s.SetFaults(Faults{PayFail: 1})
	bought, err := c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionOfferingId: before.CapacityBlockExtensionOfferingId})
	if err != nil || len(bought.CapacityBlockExtensions) != 1 || bought.CapacityBlockExtensions[0].CapacityBlockExtensionStatus != types.CapacityBlockExtensionStatusPaymentPending {
		t.Fatalf("extension purchase: %+v, %v", bought, err)
	}
	s.Advance(maxPaymentDelay + time.Second)
	hist, err := c.DescribeCapacityBlockExtensionHistory(ctx, &ec2.DescribeCapacityBlockExtensionHistoryInput{CapacityReservationIds: []string{id}})
	if err != nil || len(hist.CapacityBlockExtensions) != 1 || hist.CapacityBlockExtensions[0].CapacityBlockExtensionStatus != types.CapacityBlockExtensionStatusPaymentFailed {
		t.Fatalf("history after the payment failed: %+v, %v", hist, err)
	}
	res := reservationState(t, c, id)
	if res.State != types.CapacityReservationStateActive || !aws.ToTime(res.EndDate).Equal(end) {
		t.Errorf("after a failed extension the block is %s until %s, want active until %s", res.State, aws.ToTime(res.EndDate), end)
	}
	again := extOffer()
	if aws.ToString(again.UpfrontFee) != aws.ToString(before.UpfrontFee) || !aws.ToTime(again.CapacityBlockExtensionEndDate).Equal(aws.ToTime(before.CapacityBlockExtensionEndDate)) {
		t.Errorf("the failed extension's capacity is still held: offered %s until %s, before %s until %s", aws.ToString(again.UpfrontFee),
			aws.ToTime(again.CapacityBlockExtensionEndDate), aws.ToString(before.UpfrontFee), aws.ToTime(before.CapacityBlockExtensionEndDate))
	}
	if _, err := c.PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityReservationId: aws.String(id), CapacityBlockExtensionOfferingId: again.CapacityBlockExtensionOfferingId}); err != nil {
		t.Fatal(err)
	}
	s.Advance(maxPaymentDelay + time.Second)
	if got := aws.ToTime(reservationState(t, c, id).EndDate); !got.Equal(end.Add(24 * time.Hour)) {
		t.Errorf("after the second, paid extension the block ends %s, want %s", got, end.Add(24*time.Hour))
	}
}
