package capacityblocks

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/smithy-go"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// DefaultPlatform is the instance platform used when none is given.
const DefaultPlatform = "Linux/UNIX"

// noRetries turns the SDK's retries off for one call. Purchases have no idempotency
// token: a retried 5xx could buy twice.
func noRetries(o *ec2.Options) {
	o.Retryer = aws.NopRetryer{}
	o.RetryMaxAttempts = 1
}

// sentOption marks m when an EC2 call reaches the network.
func sentOption(m *source.SentMark) func(*ec2.Options) {
	return func(o *ec2.Options) { o.APIOptions = append(o.APIOptions, awsapi.MarkSent(m)) }
}

func validPlatform(p string) bool { return slices.Contains(Platforms(), p) }

// notSent marks the error of a call that never left this machine (no credentials, a
// signing failure): it was certainly not carried out.
func notSent(err error, sent bool, what string) error {
	if err == nil || sent {
		return err
	}
	return &source.ActionError{Outcome: source.NotBought, Err: err, Explanation: source.Explanation{
		Summary: "Not sent: the " + what + " never left this machine (" + strings.TrimSuffix(awsapi.ExplainError(err).Summary, ".") + ").",
		Hint:    awsapi.ExplainError(err).Hint}}
}

// dryRun interprets the error of a DryRun call: DryRunOperation means allowed,
// UnauthorizedOperation means not allowed; anything else is returned as an error.
func dryRun(err error, action string) (source.Permission, error) {
	if err == nil {
		// A DryRun must fail one way or the other; a success means the endpoint ignored the
		// flag, and the real call might do the same thing for real.
		return source.Permission{}, fmt.Errorf("%s: the dry run was answered as a real call; refusing to continue", action)
	}
	var apiErr smithy.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.ErrorCode() {
		case "DryRunOperation":
			return source.Permission{Allowed: true, Action: action}, nil
		case "UnauthorizedOperation", "AccessDenied":
			return source.Permission{Allowed: false, Action: action,
				Message: "not allowed: this identity lacks " + action}, nil
		}
	}
	return source.Permission{}, err
}

// CheckPurchase asks AWS, with a DryRun, whether this identity may buy the offering.
func (c *Client) CheckPurchase(ctx context.Context, o model.Offering, platform string) (source.Permission, error) {
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return source.Permission{}, err
	}
	var mark source.SentMark
	_, err := c.api.EC2(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
		CapacityBlockOfferingId: aws.String(o.ID),
		InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
		DryRun:                  aws.Bool(true),
	}, sentOption(&mark))
	return dryRun(notSent(err, mark.Sent(), "permission check"), "ec2:PurchaseCapacityBlock")
}

func checkOffering(o model.Offering, platform string) error {
	switch {
	case strings.TrimSpace(o.ID) == "":
		return awsapi.NotBoughtError("The offering has no id.", "Pick an offering from a search.", nil)
	case o.Region == "":
		return awsapi.NotBoughtError("The offering has no region.", "Pick an offering from a search.", nil)
	case !validPlatform(platform):
		return awsapi.NotBoughtError(fmt.Sprintf("Platform %q is not one AWS accepts.", platform), "Use Linux/UNIX, Windows, Red Hat Enterprise Linux, SUSE Linux, Ubuntu Pro…", nil)
	case o.SegmentsProblem() != "":
		return awsapi.NotBoughtError("Not bought: "+o.SegmentsProblem()+".", "Search again; if AWS lists it the same way, ask AWS support which fee applies.", nil)
	}
	return nil
}

// Purchase buys an offering through the one spend path (Prepare, then Commit): it never
// buys twice. The error, when not nil, is a *source.ActionError.
func (c *Client) Purchase(ctx context.Context, o model.Offering, platform string, tags map[string]string, opts ...spend.SpendOption) (source.PurchaseResult, error) {
	return c.spend(ctx, source.Intent{Kind: source.SpendPurchase, Offering: o, Platform: platform, Tags: tags}, opts)
}

// spend is the one spend path's Prepare then Commit, for the callers that agreed
// beforehand. It knows this source alone, so it settles only the blocks' open intents.
func (c *Client) spend(ctx context.Context, in source.Intent, opts []spend.SpendOption) (source.SpendResult, error) {
	return spend.New(c.api, c).SpendWith(ctx, in, func(in source.Intent) (source.SpendCall, error) { return c.SpendCall(ctx, in) }, opts...)
}

// purchaseCall is the Capacity Block's part of a purchase: one PurchaseCapacityBlock
// tagged with the request id, found again by that tag.
func (c *Client) purchaseCall(in source.Intent) (source.SpendCall, error) {
	o, platform, tags := in.Offering, in.Platform, in.Tags
	if platform == "" {
		platform = DefaultPlatform
	}
	if err := checkOffering(o, platform); err != nil {
		return source.SpendCall{}, err
	}
	return source.SpendCall{
		Entry: source.JournalEntry{Action: actionPurchase, Region: o.Region, Zone: o.AvailabilityZone, Offering: o.ID, Type: o.InstanceType,
			Count: o.Count, Start: utc(o.Start), End: utc(o.End), Fee: o.Fee.String(), Currency: o.Currency, Platform: platform, Tags: tags,
			Segments: journalSegments(o)},
		DryRun: func(ctx context.Context) (source.Permission, error) { return c.CheckPurchase(ctx, o, platform) },
		Call: func(ctx context.Context, id string, mark *source.SentMark, res *source.SpendResult) (string, error) {
			all := map[string]string{awsapi.RequestIDTag: id}
			maps.Copy(all, tags)
			out, err := c.api.EC2(o.Region).PurchaseCapacityBlock(ctx, &ec2.PurchaseCapacityBlockInput{
				CapacityBlockOfferingId: aws.String(o.ID),
				InstancePlatform:        types.CapacityReservationInstancePlatform(platform),
				TagSpecifications:       []types.TagSpecification{{ResourceType: types.ResourceTypeCapacityReservation, Tags: sdkTags(all)}},
			}, noRetries, sentOption(mark))
			if err != nil {
				return "", err
			}
			return setBlocks(res, purchasedBlocks(o.Region, out)), nil
		},
		Find: func(ctx context.Context, id string, res *source.SpendResult) (string, bool, error) {
			bs, found, err := c.findByRequestID(ctx, o.Region, zonesOf(o), typesOf(o), id)
			return setBlocks(res, bs), found, err
		},
		Lost: func(id string) source.NoAnswer {
			return source.NoAnswer{
				NoAnswer: "PurchaseCapacityBlock answered without a reservation",
				What:     "purchase",
				Unknown: source.Explanation{
					Summary: "The purchase may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
					Hint:    "Do not buy again. Settle it with " + c.api.SettleCommand(o.Region) + " once AWS answers: it looks for the reservation tagged " + awsapi.RequestIDTag + "=" + id + "."},
				NotFound: "No reservation carries this purchase's request id; it is safe to search and try again.",
			}
		},
	}, nil
}

func sdkTags(m map[string]string) []types.Tag {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	out := make([]types.Tag, 0, len(m))
	for _, k := range keys {
		out = append(out, types.Tag{Key: aws.String(k), Value: aws.String(m[k])})
	}
	return out
}

// findByRequestID looks for the reservations tagged with a purchase's request id, asking
// a few times (see confirm).
func (c *Client) findByRequestID(ctx context.Context, region string, zones, instanceTypes []string, requestID string) ([]model.Block, bool, error) {
	return awsapi.Confirm(ctx, c.api, func(ctx context.Context) ([]model.Block, bool, error) {
		return c.lookReservations(ctx, region, zones, instanceTypes, requestID)
	})
}

// purchasedBlocks are the reservations a purchase's reply names: every one of
// CapacityReservations (one per segment), or the single CapacityReservation of a reply
// without the list (an older endpoint's, or a plain offering's).
func purchasedBlocks(region string, out *ec2.PurchaseCapacityBlockOutput) []model.Block {
	var bs []model.Block
	for _, r := range out.CapacityReservations {
		if r.CapacityReservationId != nil {
			bs = append(bs, blockFromReservation(region, r))
		}
	}
	if len(bs) == 0 && out.CapacityReservation != nil && out.CapacityReservation.CapacityReservationId != nil {
		bs = append(bs, blockFromReservation(region, *out.CapacityReservation))
	}
	return bs
}

// setBlocks records a purchase's reservations in res and returns what the journal records
// of them: their ids, comma-separated ("" when there are none).
func setBlocks(res *source.SpendResult, bs []model.Block) string {
	res.Blocks = bs
	if len(bs) == 0 {
		res.Block = model.Block{}
		return ""
	}
	res.Block = bs[0]
	return model.GroupIDs(bs)
}

// zonesOf and typesOf are where and of what a purchase of o makes reservations: its
// segments' zones and types, or its own.
func zonesOf(o model.Offering) []string {
	if !o.Segmented() {
		return nonEmpty(o.AvailabilityZone)
	}
	var out []string
	for _, p := range o.Parts {
		if !slices.Contains(out, p.AvailabilityZone) {
			out = append(out, p.AvailabilityZone)
		}
	}
	return out
}

func typesOf(o model.Offering) []string {
	if !o.Segmented() {
		return nonEmpty(o.InstanceType)
	}
	var out []string
	for _, p := range o.Parts {
		if !slices.Contains(out, p.InstanceType) {
			out = append(out, p.InstanceType)
		}
	}
	return out
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// journalSegments are o's segments as its intent records them.
func journalSegments(o model.Offering) []source.JournalSegment {
	if !o.Segmented() {
		return nil
	}
	out := make([]source.JournalSegment, len(o.Parts))
	for i, p := range o.Parts {
		out[i] = source.JournalSegment{Zone: p.AvailabilityZone, Type: p.InstanceType, Count: p.Count,
			Start: p.Start.UTC(), End: p.End.UTC(), Fee: p.Fee.String()}
	}
	return out
}
