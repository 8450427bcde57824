package aws

import (
	"context"
	"strings"

	"github.com/gpublock/gpublock/model"
)

// CapacityBlocks is the EC2 Capacity Block source over the client: the first Source. Its
// listing is a BlockScanner's, so that the regions found empty are asked again only now
// and then.
func (c *Client) CapacityBlocks() Source {
	return capacityBlocks{c: c, scan: c.NewBlockScanner()}
}

type capacityBlocks struct {
	c    *Client
	scan *BlockScanner
}

var capacityBlockCaps = SourceCaps{Source: model.SourceCapacityBlock, Noun: "Capacity Block", DryRun: true, Launch: true, AllZones: true,
	PurchaseAction: "ec2:PurchaseCapacityBlock", ExtendAction: "ec2:PurchaseCapacityBlockExtension"}

func (capacityBlocks) Caps() SourceCaps { return capacityBlockCaps }

func (capacityBlocks) Explain(err error) Explanation { return ExplainError(err) }

func (s capacityBlocks) Search(ctx context.Context, q model.Query) <-chan SearchEvent {
	return s.c.Search(ctx, q)
}

func (s capacityBlocks) SpendCall(ctx context.Context, in Intent) (SpendCall, error) {
	switch in.Kind {
	case SpendExtend:
		return s.c.extendCall(in)
	case SpendLaunch:
		return s.c.launchCall(ctx, in)
	}
	return s.c.purchaseCall(in)
}

// List is the scanner's: the fees paid are the journal's, since EC2 does not list them.
func (s capacityBlocks) List(ctx context.Context, regions []string) (Listing, error) {
	scan, err := s.scan.Scan(ctx, regions)
	return Listing{Blocks: scan.Blocks, Listed: scan.Listed, Quiet: scan.Quiet, Fees: s.c.FeesPaid(scan.Blocks)}, err
}

func (s capacityBlocks) Forget() { s.scan.Forget() }

// Owns tells an EC2 Capacity Reservation's id: cr- and 17 hex digits.
func (capacityBlocks) Owns(id string) bool {
	rest, ok := strings.CutPrefix(id, "cr-")
	if !ok || len(rest) != 17 {
		return false
	}
	for _, c := range rest {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

func (s capacityBlocks) FindBlock(ctx context.Context, region, id string) (model.Block, bool, error) {
	return s.c.FindBlock(ctx, region, id)
}

func (s capacityBlocks) ExtensionChoices(ctx context.Context, b model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	return s.c.ExtensionChoicesEach(ctx, b, found)
}

func (s capacityBlocks) ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error) {
	return s.c.ExtensionOfferings(ctx, b, days)
}
