package ec2sim

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// Racing buyers of one offering: exactly one gets it, the others are told it is gone.
func TestConcurrentPurchaseOfOneOffering(t *testing.T) {
	s, base := newTestServer(t, Options{})
	c := ec2Client(base, "us-east-1")
	o := mustSearch(t, c, p5Search(2, 24))[0]
	var won, expired atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: o.CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix})
			if err == nil {
				won.Add(1)
			} else if apiCode(t, err) == "InvalidCapacityBlockOfferingIdExpired" {
				expired.Add(1)
			}
		}()
	}
	// Meanwhile the clock moves and others read.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			s.Advance(0)
			s.SetFaults(Faults{})
			_, _ = c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		}
	}()
	wg.Wait()
	if won.Load() != 1 || expired.Load() != 7 {
		t.Fatalf("%d purchases succeeded, %d expired; want 1 and 7", won.Load(), expired.Load())
	}
	out, err := c.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
	if err != nil || len(out.CapacityReservations) != 1 {
		t.Fatalf("%v %d reservations", err, len(out.CapacityReservations))
	}
}

func TestConcurrentRegions(t *testing.T) {
	s, base := newTestServer(t, Options{Faults: Faults{Throttle: 0.2}})
	var wg sync.WaitGroup
	regionsUsed := []string{"us-east-1", "us-east-2", "us-west-2", "eu-north-1", "ap-northeast-1", "ap-south-1"}
	bought := make([]int, len(regionsUsed))
	for i, r := range regionsUsed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := retryingClient(base, r)
			for j := 0; j < 3; j++ {
				out, err := c.DescribeCapacityBlockOfferings(ctx, p5Search(1, 24))
				if err != nil || len(out.CapacityBlockOfferings) == 0 {
					continue
				}
				if _, err := c.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{CapacityBlockOfferingId: out.CapacityBlockOfferings[0].CapacityBlockOfferingId, InstancePlatform: types.CapacityReservationInstancePlatformLinuxUnix}); err == nil {
					bought[i]++
				}
			}
		}()
	}
	wg.Wait()
	s.SetFaults(Faults{})
	total := 0
	for i, r := range regionsUsed {
		out, err := ec2Client(base, r).DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{})
		if err != nil {
			t.Fatal(err)
		}
		total += bought[i]
		// Throttling is decided before a call runs, so a purchase is answered iff it committed.
		if len(out.CapacityReservations) != bought[i] {
			t.Errorf("%s: %d reservations, %d purchases answered", r, len(out.CapacityReservations), bought[i])
		}
		for _, cr := range out.CapacityReservations {
			if az := aws.ToString(cr.AvailabilityZone); az[:len(r)] != r {
				t.Errorf("%s holds a reservation in %s", r, az)
			}
		}
	}
	if total == 0 {
		t.Fatal("no purchase went through")
	}
}
