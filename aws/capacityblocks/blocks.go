package capacityblocks

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Blocks lists every Capacity Block of the account in the regions (the home region when
// none is given), merged from DescribeCapacityReservations (capacity-block reservations
// only), DescribeCapacityBlocks, DescribeCapacityBlockStatus, DescribeInstances and
// DescribeCapacityBlockExtensionHistory. Regions are asked concurrently.
//
// The error, when not nil, joins one *RegionFailure per region that failed; the blocks
// of the other regions are still returned. A failure of one of the detail calls leaves
// the region's blocks listed and is reported with Partial set.
func (c *Client) Blocks(ctx context.Context, regions []string) ([]model.Block, error) {
	regions = dedupe(regions)
	if len(regions) == 0 {
		regions = []string{c.api.Region()}
	}
	var (
		mu   sync.Mutex
		all  []model.Block
		errs []error
		wg   sync.WaitGroup
	)
	_, overall := c.api.Concurrency()
	sem := make(chan struct{}, overall)
	for _, r := range regions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !awsapi.Acquire(ctx, sem) {
				mu.Lock()
				errs = append(errs, &source.RegionFailure{Region: r, Err: ctx.Err()})
				mu.Unlock()
				return
			}
			defer func() { <-sem }()
			bs, err := c.blocksIn(ctx, r)
			mu.Lock()
			all = append(all, bs...)
			if err != nil {
				errs = append(errs, err)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if !a.Start.Equal(b.Start) {
			return a.Start.Before(b.Start)
		}
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		return a.ReservationID < b.ReservationID
	})
	sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
	return all, errors.Join(errs...)
}

func (c *Client) blocksIn(ctx context.Context, region string) ([]model.Block, error) {
	cl := c.api.EC2(region)
	var blocks []model.Block
	p := ec2.NewDescribeCapacityReservationsPaginator(cl, &ec2.DescribeCapacityReservationsInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, &source.RegionFailure{Region: region, Err: err}
		}
		for _, r := range page.CapacityReservations {
			// No documented reservation-type filter exists, so the choice is made here.
			if r.ReservationType == types.CapacityReservationTypeCapacityBlock {
				blocks = append(blocks, blockFromReservation(region, r))
			}
		}
	}
	if len(blocks) == 0 {
		return nil, nil
	}
	var details []error
	note := func(what string, err error) {
		if err != nil {
			details = append(details, fmt.Errorf("%s: %w", what, err))
		}
	}
	note("DescribeCapacityBlocks", c.mergeCapacityBlocks(ctx, cl, blocks))
	note("DescribeCapacityBlockStatus", c.mergeBlockStatus(ctx, cl, blocks))
	note("DescribeInstances", c.mergeInstances(ctx, cl, blocks))
	note("DescribeCapacityBlockExtensionHistory", c.mergeExtensions(ctx, cl, blocks))
	if len(details) > 0 {
		return blocks, &source.RegionFailure{Region: region, Partial: true, Err: errors.Join(details...)}
	}
	return blocks, nil
}

func reservationIDs(blocks []model.Block) []string {
	ids := make([]string, len(blocks))
	for i, b := range blocks {
		ids[i] = b.ReservationID
	}
	return ids
}

// mergeCapacityBlocks fills block ids the reservation did not carry, and the state when
// the reservation has none.
func (c *Client) mergeCapacityBlocks(ctx context.Context, cl *ec2.Client, blocks []model.Block) error {
	byRes := map[string]*model.Block{}
	for i := range blocks {
		byRes[blocks[i].ReservationID] = &blocks[i]
	}
	p := ec2.NewDescribeCapacityBlocksPaginator(cl, &ec2.DescribeCapacityBlocksInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, cb := range page.CapacityBlocks {
			for _, rid := range cb.CapacityReservationIds {
				if b, ok := byRes[rid]; ok {
					if b.BlockID == "" {
						b.BlockID = aws.ToString(cb.CapacityBlockId)
					}
					if b.State == "" {
						b.State = model.BlockState(cb.State)
					}
				}
			}
		}
	}
	return nil
}

func (c *Client) mergeBlockStatus(ctx context.Context, cl *ec2.Client, blocks []model.Block) error {
	byBlock := map[string][]*model.Block{}
	var ids []string
	for i := range blocks {
		if id := blocks[i].BlockID; id != "" {
			if len(byBlock[id]) == 0 {
				ids = append(ids, id)
			}
			byBlock[id] = append(byBlock[id], &blocks[i])
		}
	}
	if len(ids) == 0 {
		return nil
	}
	p := ec2.NewDescribeCapacityBlockStatusPaginator(cl, &ec2.DescribeCapacityBlockStatusInput{CapacityBlockIds: ids})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, st := range page.CapacityBlockStatuses {
			for _, b := range byBlock[aws.ToString(st.CapacityBlockId)] {
				b.Interconnect = string(st.InterconnectStatus)
				b.UnavailableCount = unavailableOf(st, b.ReservationID)
			}
		}
	}
	return nil
}

func (c *Client) mergeInstances(ctx context.Context, cl *ec2.Client, blocks []model.Block) error {
	byRes := map[string]*model.Block{}
	for i := range blocks {
		byRes[blocks[i].ReservationID] = &blocks[i]
	}
	ids := reservationIDs(blocks)
	// Filter values are capped by AWS (200 per filter); ask in slices.
	for start := 0; start < len(ids); start += 200 {
		chunk := ids[start:min(start+200, len(ids))]
		p := ec2.NewDescribeInstancesPaginator(cl, &ec2.DescribeInstancesInput{Filters: []types.Filter{
			{Name: aws.String("capacity-reservation-id"), Values: chunk},
			// Terminated ones too: AWS lists them for about an hour, and what ran in a block
			// and when it stopped is what an on-call person asks after its end.
			{Name: aws.String("instance-state-name"), Values: []string{"pending", "running", "shutting-down", "stopping", "stopped", "terminated"}},
		}})
		for p.HasMorePages() {
			page, err := p.NextPage(ctx)
			if err != nil {
				return err
			}
			for _, res := range page.Reservations {
				for _, i := range res.Instances {
					in := instanceFrom(i)
					b, ok := byRes[in.ReservationID]
					if !ok {
						continue // an endpoint that ignores the filter must not add strangers
					}
					b.Instances = append(b.Instances, in)
					if in.State == "running" || in.State == "pending" {
						b.RunningCount++
					}
				}
			}
		}
	}
	return nil
}

func (c *Client) mergeExtensions(ctx context.Context, cl *ec2.Client, blocks []model.Block) error {
	byRes := map[string]*model.Block{}
	for i := range blocks {
		byRes[blocks[i].ReservationID] = &blocks[i]
	}
	p := ec2.NewDescribeCapacityBlockExtensionHistoryPaginator(cl, &ec2.DescribeCapacityBlockExtensionHistoryInput{
		CapacityReservationIds: reservationIDs(blocks),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, e := range page.CapacityBlockExtensions {
			ext := extensionFrom(e)
			if b, ok := byRes[ext.ReservationID]; ok {
				b.Extensions = append(b.Extensions, ext)
			}
		}
	}
	return nil
}

// unavailableOf is the capacity AWS reports unavailable for one reservation of a block: its
// own figure where the status lists it, else the block's (a block of one reservation).
func unavailableOf(st types.CapacityBlockStatus, reservationID string) int {
	for _, r := range st.CapacityReservationStatuses {
		if aws.ToString(r.CapacityReservationId) == reservationID {
			return int(aws.ToInt32(r.TotalUnavailableCapacity))
		}
	}
	return int(aws.ToInt32(st.TotalUnavailableCapacity))
}
