package aws

import (
	"context"
	"fmt"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"

	"github.com/gpublock/gpublock/model"
)

// ExtendResult is a finished purchase of an extension.
type ExtendResult struct {
	RequestID  string // the journal's id of this purchase (extensions take no tags)
	Permission Permission
	Outcome    Outcome
	Extension  model.Extension // when bought
	Recovered  bool            // the reply was lost and the extension found in the history
	// Settled are the interrupted purchases and extensions settled before this one.
	Settled []Settled
	// JournalErr is why the outcome line could not be written (the extension stands).
	JournalErr error
}

func checkExtendable(b model.Block) error {
	switch {
	case b.ReservationID == "" || b.Region == "":
		return notBought("The block has no reservation id or region.", "Pick a block from `gpublock blocks`.", nil)
	}
	if r := model.ExtendBlocker(b); r != nil {
		return notBought(r.Summary(), r.Hint, nil)
	}
	return nil
}

// ExtensionOfferings lists the ways to lengthen a block by the given number of days.
func (c *Client) ExtensionOfferings(ctx context.Context, b model.Block, days int) ([]model.ExtensionOffering, error) {
	if err := checkExtendable(b); err != nil {
		return nil, err
	}
	if !model.ValidDuration(days) {
		return nil, fmt.Errorf("an extension of %d days is not sold; 1–14 days, or 3–26 weeks", days)
	}
	var out []model.ExtensionOffering
	p := ec2.NewDescribeCapacityBlockExtensionOfferingsPaginator(c.ec2In(b.Region), &ec2.DescribeCapacityBlockExtensionOfferingsInput{
		CapacityReservationId:               sdkaws.String(b.ReservationID),
		CapacityBlockExtensionDurationHours: sdkaws.Int32(int32(days * 24)),
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
func (c *Client) CheckExtend(ctx context.Context, b model.Block, off model.ExtensionOffering) (Permission, error) {
	var mark sentMark
	_, err := c.ec2In(b.Region).PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: sdkaws.String(off.ID),
		CapacityReservationId:            sdkaws.String(b.ReservationID),
		DryRun:                           sdkaws.Bool(true),
	}, mark.option)
	return dryRun(notSent(err, mark.sent.Load(), "permission check"), "ec2:PurchaseCapacityBlockExtension")
}

// Extend buys an extension with the same safety as Purchase: cap, the journal's
// interrupted attempts settled (one that already extended b this way refuses, unless
// Again), DryRun, journal, one call without retries, and after an ambiguous failure a look
// in the block's extension history for this offering before anything is reported. The
// error is a *PurchaseError.
func (c *Client) Extend(ctx context.Context, b model.Block, off model.ExtensionOffering, opts ...SpendOption) (ExtendResult, error) {
	res := ExtendResult{Outcome: NotBought}
	if err := c.checkWritable("bought"); err != nil {
		return res, err
	}
	if err := checkExtendable(b); err != nil {
		return res, err
	}
	if off.ID == "" {
		return res, notBought("The extension offering has no id.", "Pick one from the block's extension offerings.", nil)
	}
	if off.ReservationID != "" && off.ReservationID != b.ReservationID {
		return res, notBought(fmt.Sprintf("The extension offering is for %s, not for this block (%s).", off.ReservationID, b.ReservationID), "", nil)
	}
	if err := c.checkCap(off.Fee); err != nil {
		return res, err
	}
	var err error
	if res.Settled, err = c.SettleOpen(ctx, b.Region); err != nil {
		return res, err
	}
	if e, ok := c.EarlierExtension(b, off.DurationHours); ok && !spendOpts(opts).again {
		return res, alreadyBought(e, "extend by", "--again")
	}
	if res.Permission, err = c.mayBuy(off.Fee, func() (Permission, error) { return c.CheckExtend(ctx, b, off) }); err != nil {
		return res, err
	}
	res.RequestID = newRequestID()
	ctx = withExtensionRequestID(ctx, res.RequestID)
	entry := JournalEntry{Action: "PurchaseCapacityBlockExtension", RequestID: res.RequestID, Region: b.Region,
		Zone: b.AvailabilityZone, Offering: off.ID, Type: b.InstanceType, Count: off.Count, Start: utc(off.Start), End: utc(off.End),
		Fee: off.Fee.String(), Currency: off.Currency, Target: b.ReservationID, Hours: off.DurationHours}
	if err := c.journalIntent(ctx, &entry); err != nil {
		return res, err
	}
	var mark sentMark
	out, callErr := c.ec2In(b.Region).PurchaseCapacityBlockExtension(ctx, &ec2.PurchaseCapacityBlockExtensionInput{
		CapacityBlockExtensionOfferingId: sdkaws.String(off.ID),
		CapacityReservationId:            sdkaws.String(b.ReservationID),
	}, noRetries, mark.option)
	if callErr == nil && len(out.CapacityBlockExtensions) > 0 {
		res.Outcome, res.Extension = Bought, extensionFrom(out.CapacityBlockExtensions[0])
	} else {
		res.Extension, res.Outcome, err = settle(c, entry, callErr, mark.sent.Load(), lostReply{
			noAnswer: "PurchaseCapacityBlockExtension answered without an extension",
			what:     "extension",
			unknown: Explanation{
				Summary: "The extension may or may not have been bought: AWS did not answer, and the check afterwards failed too.",
				Hint:    fmt.Sprintf("Do not extend %s again. Settle it with %s once AWS answers: it looks in the block's extension history.", b.ReservationID, c.SettleCommand(b.Region))},
			notFound: "The block's extension history does not list it; it is safe to try again.",
		}, func() (model.Extension, bool, error) { return c.findExtension(ctx, b, off.ID) })
		if err != nil {
			return res, err
		}
		res.Recovered = true
	}
	res.JournalErr = c.journalOutcome(entry, Bought, res.Recovered, b.ReservationID, nil)
	return res, nil
}

// findExtension looks for the extension offering in the block's history; an offering id
// is bought at most once, so finding it means this purchase went through.
func (c *Client) findExtension(ctx context.Context, b model.Block, offeringID string) (model.Extension, bool, error) {
	return confirm(ctx, c, func(ctx context.Context) (model.Extension, bool, error) {
		return c.lookExtension(ctx, b, offeringID, 0, time.Time{})
	})
}
