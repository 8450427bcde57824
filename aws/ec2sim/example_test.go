package ec2sim_test

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/gpublock/gpublock/aws/ec2sim"
)

// The emulator is reached only through the real SDK: serve it, point BaseEndpoint at it,
// and sign for the region to act in.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sim, _ := ec2sim.New(ec2sim.Options{Seed: 1, Start: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)})
	url, _ := ec2sim.Listen(ctx, "127.0.0.1:0", sim)

	client := ec2.NewFromConfig(aws.Config{
		Region:      "us-east-2",
		Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "dummy", ""),
	}, func(o *ec2.Options) { o.BaseEndpoint = aws.String(url) })

	offers, _ := client.DescribeCapacityBlockOfferings(ctx, &ec2.DescribeCapacityBlockOfferingsInput{
		InstanceType: aws.String("p5.48xlarge"), InstanceCount: aws.Int32(2), CapacityDurationHours: aws.Int32(48),
	})
	o := offers.CapacityBlockOfferings[0]
	bought, _ := client.PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: o.CapacityBlockOfferingId,
		InstancePlatform:        types.CapacityReservationInstancePlatformLinuxUnix,
	})
	fmt.Println(bought.CapacityReservation.State)

	sim.SetTime(*o.StartDate) // or: curl -d set=... URL/_sim/clock
	got, _ := client.DescribeCapacityReservations(ctx, &ec2.DescribeCapacityReservationsInput{
		CapacityReservationIds: []string{*bought.CapacityReservation.CapacityReservationId},
	})
	r := got.CapacityReservations[0]
	fmt.Println(r.State, *r.AvailableInstanceCount)
	// Output:
	// payment-pending
	// active 2
}
