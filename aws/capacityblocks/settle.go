package capacityblocks

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// lookReservations lists the region's reservations of these types in these zones
// (filters DescribeCapacityReservations documents; several values of one filter are any
// of them) and keeps those carrying the request tag in the reply: every reservation one
// purchase made, one per segment of a segmented offering.
func (c *Client) lookReservations(ctx context.Context, region string, zones, instanceTypes []string, requestID string) ([]model.Block, bool, error) {
	var filters []types.Filter
	if len(instanceTypes) > 0 {
		filters = append(filters, types.Filter{Name: aws.String("instance-type"), Values: instanceTypes})
	}
	if len(zones) > 0 {
		filters = append(filters, types.Filter{Name: aws.String("availability-zone"), Values: zones})
	}
	ctx = awsapi.WithLookupRequestID(ctx, requestID)
	p := ec2.NewDescribeCapacityReservationsPaginator(c.api.EC2(region), &ec2.DescribeCapacityReservationsInput{Filters: filters})
	var out []model.Block
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, false, err
		}
		for _, r := range page.CapacityReservations {
			if tagMap(r.Tags)[awsapi.RequestIDTag] == requestID {
				out = append(out, blockFromReservation(region, r))
			}
		}
	}
	return out, len(out) > 0, nil
}

// intentZonesTypes are where and of what an intent's purchase makes reservations: its
// segments' zones and types, or its own.
func intentZonesTypes(e source.JournalEntry) (zones, instanceTypes []string) {
	if len(e.Segments) == 0 {
		return nonEmpty(e.Zone), nonEmpty(e.Type)
	}
	for _, sg := range e.Segments {
		if !slices.Contains(zones, sg.Zone) {
			zones = append(zones, sg.Zone)
		}
		if !slices.Contains(instanceTypes, sg.Type) {
			instanceTypes = append(instanceTypes, sg.Type)
		}
	}
	return zones, instanceTypes
}

// lookExtension looks in b's extension history for the extension offering, or, when the
// offering is not listed by id, for an extension of b of this length purchased after the
// intent (a minute's leeway for clocks).
func (c *Client) lookExtension(ctx context.Context, b model.Block, offeringID string, hours int, after time.Time) (model.Extension, bool, error) {
	p := ec2.NewDescribeCapacityBlockExtensionHistoryPaginator(c.api.EC2(b.Region), &ec2.DescribeCapacityBlockExtensionHistoryInput{
		CapacityReservationIds: []string{b.ReservationID},
	})
	var byLength *model.Extension
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return model.Extension{}, false, err
		}
		for _, h := range page.CapacityBlockExtensions {
			if aws.ToString(h.CapacityReservationId) != b.ReservationID {
				continue
			}
			e := extensionFrom(h)
			if offeringID != "" && e.OfferingID == offeringID {
				return e, true, nil
			}
			if byLength == nil && hours > 0 && e.DurationHours == hours && !after.IsZero() && !e.PurchaseDate.Before(after.Add(-time.Minute)) {
				byLength = &e
			}
		}
	}
	if byLength != nil {
		return *byLength, true, nil
	}
	return model.Extension{}, false, nil
}

// settleIntent asks what became of an intent a crash left open: a purchase by its
// request tag, an extension in its block's history.
func (c *Client) settleIntent(ctx context.Context, e source.JournalEntry) (source.Settled, error) {
	var s source.Settled
	// A young intent may be of a call AWS has not finished listing: it is asked a few
	// times, as after a lost reply. An old one is asked once.
	tries := 1
	if time.Since(e.Time) < 5*time.Minute {
		tries = c.api.ConfirmTries()
	}
	if e.Action == actionExtend {
		b := model.Block{ReservationID: e.Target, Region: e.Region}
		after := e.Time
		if e.BackendTime != nil {
			after = *e.BackendTime
		}
		ext, found, err := awsapi.ConfirmN(ctx, c.api, tries, func(ctx context.Context) (model.Extension, bool, error) {
			return c.lookExtension(awsapi.WithExtensionRequestID(ctx, e.RequestID), b, e.Offering, e.DurationHours(), after)
		})
		if err != nil {
			return s, err
		}
		if found {
			s.Outcome, s.Extension, s.Result = source.Bought, ext, e.Target
		}
		return s, nil
	}
	zones, instanceTypes := intentZonesTypes(e)
	bs, found, err := awsapi.ConfirmN(ctx, c.api, tries, func(ctx context.Context) ([]model.Block, bool, error) {
		return c.lookReservations(ctx, e.Region, zones, instanceTypes, e.RequestID)
	})
	if err != nil {
		return s, err
	}
	if found {
		s.Outcome, s.Block, s.Blocks, s.Result = source.Bought, bs[0], bs, model.GroupIDs(bs)
	}
	return s, nil
}

// askAgain is the Lookup of a listed offering that is too old: the one search call that
// can list it, in its own region, type, count, length and window.
func (c *Client) askAgain(ctx context.Context, in *source.Intent) error {
	o := in.Offering
	// A block whose start has passed is sold no more, and its window is no question to ask
	// (AWS refuses a range that has ended with InvalidParameterValue).
	if o.Started(c.api.Now(ctx)) {
		return awsapi.NotBoughtError(o.StartedSentence(nil), "", nil)
	}
	days := int((o.Minutes() + 24*60 - 1) / (24 * 60))
	q := model.Query{InstanceTypes: []string{o.InstanceType}, Count: o.Count, Regions: []string{o.Region},
		Durations: model.DurationRange{MinDays: days, MaxDays: days}, Start: o.Start, End: o.End, AllZones: true}
	fresh, _, err := c.FindOffering(ctx, q, o.ID)
	if errors.Is(err, awsapi.ErrNotListed) {
		return awsapi.NotBoughtError("Offering "+o.ID+" is no longer offered: AWS did not list it when asked again. Search again.", "", err)
	}
	if err != nil {
		return awsapi.NotBoughtError("Could not ask AWS again for offering "+o.ID+": "+strings.TrimSuffix(c.api.ExplainError(err).Summary, ".")+".", c.api.ExplainError(err).Hint, err)
	}
	in.Offering = fresh
	return nil
}
