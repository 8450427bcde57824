package capacityblocks

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

func (c *Client) checkExtendable(b model.Block) error {
	switch {
	case b.ReservationID == "" || b.Region == "":
		return awsapi.NotBoughtError("The block has no reservation id or region.", "Pick a block from `"+c.api.NextStep("blocks", b.Region)+"`.", nil)
	}
	if r := model.ExtendBlocker(b); r != nil {
		return awsapi.NotBoughtError(r.Summary(), r.Hint, nil)
	}
	return nil
}

// ExtensionOfferings lists the ways to lengthen a block by the given number of days.
func (c *Client) ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error) {
	if err := c.checkExtendable(b); err != nil {
		return nil, err
	}
	if err := model.SourceCapacityBlock.CheckExtensionDays(days); err != nil {
		return nil, err
	}
	var out []model.ExtensionOffering
	p := ec2.NewDescribeCapacityBlockExtensionOfferingsPaginator(c.api.EC2(b.Region), &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId:               aws.String(b.ReservationID),
		CapacityBlockExtensionDurationHours: aws.Int32(int32(days * 24)),
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, o := range page.CapacityBlockExtensionOfferings {
			off, err := extensionOfferingFrom(b.ReservationID, o)
			if err != nil {
				return nil, fmt.Errorf("extension offering %s: unreadable upfront fee: %w", off.ID, err)
			}
			out = append(out, off)
		}
	}
	return out, nil
}

// CheckExtend asks AWS, with a DryRun, whether this identity may buy the extension.
func (c *Client) CheckExtend(ctx context.Context, b model.Block, off model.ExtensionOffering) (source.Permission, error) {
	var mark source.SentMark
	_, err := c.api.EC2(b.Region).PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: aws.String(off.ID),
		CapacityReservationId:            aws.String(b.ReservationID),
		DryRun:                           aws.Bool(true),
	}, sentOption(&mark))
	return dryRun(notSent(err, mark.Sent(), "permission check"), "ec2:PurchaseCapacityBlockExtension")
}

// Extend buys an extension through the one spend path (Prepare, then Commit). The error
// is a *source.ActionError.
func (c *Client) Extend(ctx context.Context, b model.Block, off model.ExtensionOffering, opts ...spend.SpendOption) (source.ExtendResult, error) {
	return c.spend(ctx, source.Intent{Kind: source.SpendExtend, Block: b, Extension: off}, opts)
}

// extendCall is the Capacity Block's part of an extension: one
// PurchaseCapacityBlockExtension, found again in the block's extension history.
func (c *Client) extendCall(in source.Intent) (source.SpendCall, error) {
	b, off := in.Block, in.Extension
	if err := c.checkExtendable(b); err != nil {
		return source.SpendCall{}, err
	}
	if off.ID == "" {
		return source.SpendCall{}, awsapi.NotBoughtError("The extension offering has no id.", "Pick one from the block's extension offerings.", nil)
	}
	if off.ReservationID != "" && off.ReservationID != b.ReservationID {
		return source.SpendCall{}, awsapi.NotBoughtError(fmt.Sprintf("The extension offering is for %s, not for this block (%s).", off.ReservationID, b.ReservationID), "", nil)
	}
	return source.SpendCall{
		Entry: source.JournalEntry{Action: actionExtend, Region: b.Region, Zone: b.AvailabilityZone, Offering: off.ID, Type: b.InstanceType,
			Count: off.Count, Start: utc(off.Start), End: utc(off.End), Fee: off.Fee.String(), Currency: off.Currency, Target: b.ReservationID, Hours: off.DurationHours},
		DryRun: func(ctx context.Context) (source.Permission, error) { return c.CheckExtend(ctx, b, off) },
		Call: func(ctx context.Context, _ string, mark *source.SentMark, res *source.SpendResult) (string, error) {
			out, err := c.api.EC2(b.Region).PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
				CapacityBlockExtensionOfferingId: aws.String(off.ID),
				CapacityReservationId:            aws.String(b.ReservationID),
			}, noRetries, sentOption(mark))
			if err != nil || len(out.CapacityBlockExtensions) == 0 {
				return "", err
			}
			res.Extension = extensionFrom(out.CapacityBlockExtensions[0])
			return b.ReservationID, nil
		},
		Find: func(ctx context.Context, _ string, res *source.SpendResult) (string, bool, error) {
			e, found, err := c.findExtension(ctx, b, off.ID)
			res.Extension = e
			return b.ReservationID, found, err
		},
		Lost: func(string) source.NoAnswer {
			return source.NoAnswer{
				NoAnswer: "PurchaseCapacityBlockExtension answered without an extension",
				What:     "extension",
				Unknown: source.Explanation{
					Summary: "The extension may or may not have been bought: AWS did not answer, and the check afterwards failed too.",
					Hint:    fmt.Sprintf("Do not extend %s again. Settle it with %s once AWS answers: it looks in the block's extension history.", b.ReservationID, c.api.SettleCommand(b.Region))},
				NotFound: "The block's extension history does not list it; it is safe to try again.",
			}
		},
	}, nil
}

// findExtension looks for the extension offering in the block's history; an offering id
// is bought at most once, so finding it means this purchase went through.
func (c *Client) findExtension(ctx context.Context, b model.Block, offeringID string) (model.Extension, bool, error) {
	return awsapi.Confirm(ctx, c.api, func(ctx context.Context) (model.Extension, bool, error) {
		return c.lookExtension(ctx, b, offeringID, 0, time.Time{})
	})
}
