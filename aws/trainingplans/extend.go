package trainingplans

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
	"github.com/gpublock/gpublock/model"
)

// ExtendResult is a finished extension of a plan.
type ExtendResult struct {
	RequestID string
	Outcome   source.Outcome
	Extension Extension
	Recovered bool // the reply was lost and the extension was found in the history
	Settled   []source.Settled
	// JournalErr is why the outcome line could not be written (the extension stands).
	JournalErr error
}

// checkExtendable is the rule of which plans can be extended: paid and not over.
func checkExtendable(p Plan) error {
	switch p.Status {
	case StatusScheduled, StatusActive:
		return nil
	}
	return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{
		Summary: fmt.Sprintf("Training plan %s is %s; only a scheduled or active plan can be extended.", p.Name, p.Status)}}
}

// ExtensionOfferings asks how the plan can be lengthened by days.
func (c *Client) ExtensionOfferings(ctx context.Context, p Plan, days int) ([]ExtensionOffering, error) {
	if err := model.SourceTrainingPlan.CheckExtensionDays(days); err != nil {
		return nil, err
	}
	if err := checkExtendable(p); err != nil {
		return nil, err
	}
	out, err := c.in(p.Region).SearchTrainingPlanOfferings(ctx, &sagemaker.SearchTrainingPlanOfferingsInput{
		TrainingPlanArn: aws.String(p.ARN), DurationHours: aws.Int64(int64(days) * 24)})
	if err != nil {
		return nil, err
	}
	var offs []ExtensionOffering
	for _, o := range out.TrainingPlanExtensionOfferings {
		f, err := model.ParseMoney(aws.ToString(o.UpfrontFee))
		if err != nil {
			return nil, fmt.Errorf("extension offering %s: %w", aws.ToString(o.TrainingPlanExtensionOfferingId), err)
		}
		offs = append(offs, ExtensionOffering{ID: aws.ToString(o.TrainingPlanExtensionOfferingId), PlanARN: p.ARN,
			AvailabilityZone: aws.ToString(o.AvailabilityZone), Start: aws.ToTime(o.StartDate).UTC(), End: aws.ToTime(o.EndDate).UTC(),
			Hours: int(aws.ToInt32(o.DurationHours)), Fee: f, Currency: aws.ToString(o.CurrencyCode)})
	}
	return offs, nil
}

// Extend buys an extension offering through the one spend path (aws Prepare, then
// Commit): after a lost reply the plan's extension history is looked in for this offering
// before anything is told.
func (c *Client) Extend(ctx context.Context, p Plan, off ExtensionOffering, opts ...spend.SpendOption) (ExtendResult, error) {
	var x Extension
	blk := ModelBlock(p)
	in := source.Intent{Kind: source.SpendExtend, Block: blk, Extension: model.ExtensionOffering{ID: off.ID, ReservationID: blk.ReservationID,
		AvailabilityZone: off.AvailabilityZone, Start: off.Start, End: off.End, DurationHours: off.Hours, Fee: off.Fee, Currency: off.Currency}}
	r, err := spend.New(c.base, Source(c)).SpendWith(ctx, in, func(source.Intent) (source.SpendCall, error) { return c.extendCall(p, blk, off, &x) }, opts...)
	res := ExtendResult{RequestID: r.RequestID, Outcome: r.Outcome, Recovered: r.Recovered, Settled: r.Settled, JournalErr: r.JournalErr}
	if err == nil {
		res.Extension = x
	}
	return res, err
}

// extendCall is a plan's part of an extension: one ExtendTrainingPlan, found again in the
// plan's extension history; x receives what was bought.
func (c *Client) extendCall(p Plan, blk model.Block, off ExtensionOffering, x *Extension) (source.SpendCall, error) {
	if err := checkExtendable(p); err != nil {
		return source.SpendCall{}, err
	}
	if off.ID == "" || off.PlanARN != p.ARN {
		return source.SpendCall{}, &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{
			Summary: "The extension offering is not one of this plan's.", Hint: "Ask for the plan's extension offerings again."}}
	}
	bought := func(res *source.SpendResult, e Extension) string {
		*x = e
		res.Extension = modelExtension(blk, e)
		return p.ARN
	}
	return source.SpendCall{
		Entry: source.JournalEntry{Action: ActionExtend, Region: p.Region, Zone: off.AvailabilityZone,
			Offering: off.ID, Start: utc(off.Start), End: utc(off.End), Fee: off.Fee.String(), Currency: off.Currency, Target: p.ARN},
		NoDryRun: Caps.NoDryRun,
		Call: func(ctx context.Context, _ string, mark *source.SentMark, res *source.SpendResult) (string, error) {
			out, err := c.in(p.Region).ExtendTrainingPlan(ctx, &sagemaker.ExtendTrainingPlanInput{
				TrainingPlanExtensionOfferingId: aws.String(off.ID)}, noRetries, func(o *sagemaker.Options) { o.APIOptions = append(o.APIOptions, awsapi.MarkSent(mark)) })
			if err != nil {
				return "", err
			}
			for _, e := range out.TrainingPlanExtensions {
				if aws.ToString(e.TrainingPlanExtensionOfferingId) == off.ID {
					return bought(res, extensionFrom(e)), nil
				}
			}
			return "", nil
		},
		Find: func(ctx context.Context, _ string, res *source.SpendResult) (string, bool, error) {
			e, found, err := c.findExtension(ctx, p.Region, p.ARN, off.ID)
			if !found {
				return "", false, err
			}
			return bought(res, e), true, nil
		},
		Lost: func(string) source.NoAnswer {
			return source.NoAnswer{
				NoAnswer: "ExtendTrainingPlan answered without this extension",
				What:     "extension",
				Unknown: source.Explanation{
					Summary: "The extension may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
					Hint: fmt.Sprintf("Do not extend again. Run `aws sagemaker describe-training-plan-extension-history --region %s --training-plan-arn %s`.",
						p.Region, p.ARN)},
				NotFound: "The plan's extension history does not hold this offering; it is safe to try again.",
			}
		},
	}, nil
}

// findExtension looks for an extension bought from offeringID in the plan's history.
func (c *Client) findExtension(ctx context.Context, region, planARN, offeringID string) (Extension, bool, error) {
	return awsapi.Confirm(ctx, c.base, func(ctx context.Context) (Extension, bool, error) {
		h, err := c.ExtensionHistory(ctx, region, planARN)
		if err != nil {
			return Extension{}, false, err
		}
		for _, e := range h {
			if e.OfferingID == offeringID {
				return e, true, nil
			}
		}
		return Extension{}, false, nil
	})
}
