package trainingplans

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"

	gaws "github.com/gpublock/gpublock/aws"
)

// Journal actions of this source.
const (
	ActionCreate = "CreateTrainingPlan"
	ActionExtend = "ExtendTrainingPlan"
)

// PurchaseResult is a finished purchase of a plan.
type PurchaseResult struct {
	// RequestID is the purchase's request id, which is also the plan's name: names are
	// unique per account and region, so the name is what finds the plan after a lost reply.
	RequestID string
	Outcome   gaws.Outcome
	Plan      Plan
	// Recovered is true when the reply was lost and the plan was then found by its name.
	Recovered bool
	// Settled are the interrupted purchases and extensions of the region settled first.
	Settled []gaws.Settled
	// JournalErr is why the outcome line could not be written (the plan stands).
	JournalErr error
}

// PlanName is the name of the plan a purchase creates: its request id ("gpb-" and 24 hex
// digits), which fits TrainingPlanName's pattern [a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}.
func PlanName(requestID string) string { return requestID }

func checkOffering(o Offering) error {
	switch {
	case strings.TrimSpace(o.ID) == "":
		return &gaws.PurchaseError{Outcome: gaws.NotBought, Explanation: gaws.Explanation{Summary: "The offering has no id.", Hint: "Pick an offering from a search."}}
	case o.Region == "":
		return &gaws.PurchaseError{Outcome: gaws.NotBought, Explanation: gaws.Explanation{Summary: "The offering has no region.", Hint: "Pick an offering from a search."}}
	case len(o.Capacities) == 0:
		return &gaws.PurchaseError{Outcome: gaws.NotBought, Explanation: gaws.Explanation{Summary: "The offering has no reserved capacity.", Hint: "Pick an offering from a search."}}
	}
	return nil
}

// Purchase buys a training-plan offering, safely: read-only mode and the spending cap are
// checked before any call (there is no dry run for training plans: the API has none), the
// journal's interrupted purchases and extensions of every source in the region are settled
// first (and one that already bought this offering refuses, unless Again), the journal
// records the intent, then one single CreateTrainingPlan, with the SDK's retries
// off, named after the request id. When the reply leaves it unknown whether AWS committed
// (no answer, a 5xx, an unreadable body) the plan is described by that name before
// anything is told. It never buys twice. The error, when not nil, is a *aws.PurchaseError.
func (c *Client) Purchase(ctx context.Context, o Offering, tags map[string]string, opts ...gaws.SpendOption) (PurchaseResult, error) {
	res := PurchaseResult{Outcome: gaws.NotBought}
	if err := c.base.CheckWritable("bought"); err != nil {
		return res, err
	}
	if err := checkOffering(o); err != nil {
		return res, err
	}
	if err := gaws.CheckTags(tags); err != nil {
		return res, &gaws.PurchaseError{Outcome: gaws.NotBought, Err: err, Explanation: gaws.Explanation{Summary: "Bad tags: " + err.Error() + "."}}
	}
	if err := c.base.CheckCap(o.Fee); err != nil {
		return res, err
	}
	var err error
	if res.Settled, err = c.base.SettleOpen(ctx, o.Region); err != nil {
		return res, err
	}
	if e, ok := c.base.EarlierPurchase(ModelOffering(o)); ok && !gaws.WantsAgain(opts) {
		return res, gaws.AlreadyBoughtError(e)
	}
	res.RequestID = gaws.NewRequestID()
	name := PlanName(res.RequestID)
	all := map[string]string{gaws.RequestIDTag: res.RequestID}
	maps.Copy(all, tags)
	first, last := o.Capacities[0], o.Capacities[len(o.Capacities)-1]
	entry := gaws.JournalEntry{Action: ActionCreate, RequestID: res.RequestID, Region: o.Region, Zone: first.AvailabilityZone,
		Offering: o.ID, Type: first.InstanceType, Count: first.Count, Start: utc(first.Start), End: utc(last.End),
		Fee: o.Fee.String(), Currency: o.Currency, Tags: tags}
	if err := c.base.JournalIntent(ctx, &entry); err != nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		c.base.JournalOutcome(entry, gaws.NotBought, false, "", err)
		return res, &gaws.PurchaseError{Outcome: gaws.NotBought, Err: err, Explanation: gaws.Explanation{Summary: "Cancelled before the purchase was sent; nothing was bought."}}
	}

	var mark gaws.SentMark
	out, callErr := c.in(o.Region).CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{
		TrainingPlanName:       sdkaws.String(name),
		TrainingPlanOfferingId: sdkaws.String(o.ID),
		Tags:                   sdkTags(all),
	}, noRetries, func(o *sagemaker.Options) { o.APIOptions = append(o.APIOptions, mark.StackOption) })

	find := func() (Plan, bool, error) { return c.findPlan(ctx, o.Region, name) }
	switch {
	case callErr == nil && sdkaws.ToString(out.TrainingPlanArn) != "":
		res.Outcome = gaws.Bought
		res.Plan = Plan{Name: name, ARN: sdkaws.ToString(out.TrainingPlanArn), Region: o.Region, Status: StatusPending}
		// The describe adds what the reply does not carry; the purchase stands without it.
		if p, err := c.Describe(context.WithoutCancel(ctx), o.Region, name); err == nil {
			res.Plan = p
		}
	case isCode(callErr, "ResourceInUse"):
		// The name is this purchase's own request id: taken means the call went through
		// (a retry by something between us and AWS); describe it to be sure.
		p, found, err := find()
		if err != nil || !found {
			c.base.JournalOutcome(entry, gaws.Unknown, false, "", callErr)
			return res, &gaws.PurchaseError{Outcome: gaws.Unknown, Err: callErr, Explanation: lostExplanation(o.Region, name)}
		}
		res.Outcome, res.Plan, res.Recovered = gaws.Bought, p, true
	default:
		p, outcome, err := gaws.Settle(c.base, entry, callErr, mark.Sent(), gaws.NoAnswer{
			NoAnswer: "CreateTrainingPlan answered without a plan ARN",
			What:     "training plan purchase",
			Unknown:  lostExplanation(o.Region, name),
			NotFound: "No training plan has this purchase's name; it is safe to search and try again.",
		}, find)
		res.Outcome = outcome
		if err != nil {
			return res, err
		}
		res.Plan, res.Recovered = p, true
	}
	res.JournalErr = c.base.JournalOutcome(entry, gaws.Bought, res.Recovered, res.Plan.ARN, nil)
	return res, nil
}

func lostExplanation(region, name string) gaws.Explanation {
	return gaws.Explanation{
		Summary: "The training plan purchase may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
		Hint: fmt.Sprintf("Do not buy again. Run `aws sagemaker describe-training-plan --region %s --training-plan-name %s` to see whether it exists.",
			region, name)}
}

// findPlan describes the plan of a purchase by its name, a few times: AWS may take a
// moment to know a plan it has just made. ResourceNotFound is "not there"; other errors
// are failures of the look-up.
func (c *Client) findPlan(ctx context.Context, region, name string) (Plan, bool, error) {
	return gaws.Confirm(ctx, c.base, func(ctx context.Context) (Plan, bool, error) {
		p, err := c.Describe(ctx, region, name)
		switch {
		case isCode(err, "ResourceNotFound"):
			return Plan{}, false, nil
		case err != nil:
			return Plan{}, false, err
		case p.Name != name:
			// An endpoint that ignored the name must not turn another plan into "bought".
			return Plan{}, false, nil
		}
		return p, true, nil
	})
}

// SettleIntent finds out what became of a journalled intent of this source whose outcome
// was never written (a crash between the call and its outcome line): a plan is found by
// its name (the request id), an extension in its plan's extension history. It returns
// whether it was bought and the plan's ARN.
func (c *Client) SettleIntent(ctx context.Context, e gaws.JournalEntry) (bool, string, error) {
	switch e.Action {
	case ActionCreate:
		p, found, err := c.findPlan(ctx, e.Region, PlanName(e.RequestID))
		return found, p.ARN, err
	case ActionExtend:
		_, found, err := c.findExtension(ctx, e.Region, e.Target, e.Offering)
		return found, e.Target, err
	}
	return false, "", fmt.Errorf("journal action %q is not a training-plan purchase", e.Action)
}

func sdkTags(m map[string]string) []types.Tag {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]types.Tag, 0, len(m))
	for _, k := range keys {
		out = append(out, types.Tag{Key: sdkaws.String(k), Value: sdkaws.String(m[k])})
	}
	return out
}

func utc(t time.Time) *time.Time { u := t.UTC(); return &u }
