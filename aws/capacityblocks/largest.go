package capacityblocks

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/model"
)

// LargestCount finds the largest count from 1 to 64 for which the region has any
// offering of the type, duration and window; 0 when even one is not on offer. It
// bisects, on the fact that capacity for n instances is also capacity for fewer, so it
// makes at most 8 calls.
func (c *Client) LargestCount(ctx context.Context, region, instanceType string, days int, start, end time.Time) (int, error) {
	t, ok := model.LookupType(instanceType)
	switch {
	case !ok:
		return 0, fmt.Errorf("instance type %q is not one Capacity Blocks sell", instanceType)
	case region == "":
		return 0, fmt.Errorf("no region")
	case !model.ValidDuration(days):
		return 0, fmt.Errorf("%d days is not a duration AWS sells", days)
	case start.IsZero() || !end.After(start):
		return 0, fmt.Errorf("the window %s – %s is empty", start.Format(time.RFC3339), end.Format(time.RFC3339))
	}
	has := func(n int) (bool, error) {
		in := &ec2.DescribeCapacityBlockOfferingsInput{
			CapacityDurationHours: aws.Int32(int32(days * 24)),
			StartDateRange:        utc(start),
			EndDateRange:          utc(end),
		}
		if t.UltraServer {
			in.UltraserverType, in.UltraserverCount = aws.String(instanceType), aws.Int32(int32(n))
		} else {
			in.InstanceType, in.InstanceCount = aws.String(instanceType), aws.Int32(int32(n))
		}
		p := ec2.NewDescribeCapacityBlockOfferingsPaginator(c.api.EC2(region), in)
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return false, err
			}
			if len(page.CapacityBlockOfferings) > 0 {
				return true, nil
			}
		}
		return false, nil
	}
	ok, err := has(model.MinCount)
	if err != nil || !ok {
		return 0, err
	}
	if ok, err := has(model.MaxCount); err != nil || ok {
		if ok {
			return model.MaxCount, nil
		}
		return 0, err
	}
	lo, hi := model.MinCount, model.MaxCount // has(lo), !has(hi)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		ok, err := has(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}
