package ec2sim

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
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
