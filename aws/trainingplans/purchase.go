package trainingplans

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/spend"
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
	Outcome   source.Outcome
	Plan      Plan
	// Recovered is true when the reply was lost and the plan was then found by its name.
	Recovered bool
	// Settled are the interrupted purchases and extensions of the region settled first.
	Settled []source.Settled
	// JournalErr is why the outcome line could not be written (the plan stands).
	JournalErr error
}

// PlanName is the name of the plan a purchase creates: its request id ("gpb-" and 24 hex
// digits), which fits TrainingPlanName's pattern [a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}.
func PlanName(requestID string) string { return requestID }

func checkOffering(o Offering) error {
	switch {
	case strings.TrimSpace(o.ID) == "":
		return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: "The offering has no id.", Hint: "Pick an offering from a search."}}
	case o.Region == "":
		return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: "The offering has no region.", Hint: "Pick an offering from a search."}}
	case len(o.Capacities) == 0:
		return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: "The offering has no reserved capacity.", Hint: "Pick an offering from a search."}}
	}
	return nil
}

// Purchase buys a training-plan offering through the one spend path (Prepare, then
// Commit): there is no dry run for training plans (the API has none), and the plan is
// named after the request id, so that a lost reply is settled by describing that name.
// It never buys twice. The path knows this source alone, so it settles only the plans'
// open intents (the front ends use one over every source). The error, when not nil, is a
// *source.ActionError.
func (c *Client) Purchase(ctx context.Context, o Offering, tags map[string]string, opts ...spend.SpendOption) (PurchaseResult, error) {
	var plan Plan
	in := source.Intent{Kind: source.SpendPurchase, Offering: ModelOffering(o), Tags: tags}
	r, err := spend.New(c.base, Source(c)).SpendWith(ctx, in, func(source.Intent) (source.SpendCall, error) { return c.purchaseCall(o, tags, &plan) }, opts...)
	res := PurchaseResult{RequestID: r.RequestID, Outcome: r.Outcome, Recovered: r.Recovered, Settled: r.Settled, JournalErr: r.JournalErr}
	if err == nil {
		res.Plan = plan
	}
	return res, err
}

// purchaseCall is a plan's part of a purchase: one CreateTrainingPlan named after the
// request id, found again by that name; plan receives what was bought.
func (c *Client) purchaseCall(o Offering, tags map[string]string, plan *Plan) (source.SpendCall, error) {
	if err := checkOffering(o); err != nil {
		return source.SpendCall{}, err
	}
	first, last := o.Capacities[0], o.Capacities[len(o.Capacities)-1]
	bought := func(res *source.SpendResult, p Plan) string {
		*plan = p
		res.Block = ModelBlock(p)
		return p.ARN
	}
	return source.SpendCall{
		Entry: source.JournalEntry{Action: ActionCreate, Region: o.Region, Zone: first.AvailabilityZone,
			Offering: o.ID, Type: first.InstanceType, Count: first.Count, Start: utc(first.Start), End: utc(last.End),
			Fee: o.Fee.String(), Currency: o.Currency, Tags: tags},
		NoDryRun: Caps.NoDryRun,
		Call: func(ctx context.Context, id string, mark *source.SentMark, res *source.SpendResult) (string, error) {
			name := PlanName(id)
			all := map[string]string{awsapi.RequestIDTag: id}
			maps.Copy(all, tags)
			out, err := c.in(o.Region).CreateTrainingPlan(ctx, &sagemaker.CreateTrainingPlanInput{
				TrainingPlanName:       aws.String(name),
				TrainingPlanOfferingId: aws.String(o.ID),
				Tags:                   sdkTags(all),
			}, noRetries, func(o *sagemaker.Options) { o.APIOptions = append(o.APIOptions, awsapi.MarkSent(mark)) })
			if err != nil || aws.ToString(out.TrainingPlanArn) == "" {
				return "", err
			}
			p := Plan{Name: name, ARN: aws.ToString(out.TrainingPlanArn), Region: o.Region, Status: StatusPending}
			// The describe adds what the reply does not carry; the purchase stands without it.
			if d, err := c.Describe(context.WithoutCancel(ctx), o.Region, name); err == nil {
				p = d
			}
			return bought(res, p), nil
		},
		Find: func(ctx context.Context, id string, res *source.SpendResult) (string, bool, error) {
			p, found, err := c.findPlan(ctx, o.Region, PlanName(id))
			if !found {
				return "", false, err
			}
			return bought(res, p), true, nil
		},
		// The name is this purchase's own request id: taken means the call went through
		// (a retry by something between us and AWS).
		Taken: func(err error) bool { return isCode(err, "ResourceInUse") },
		Lost: func(id string) source.NoAnswer {
			return source.NoAnswer{
				NoAnswer: "CreateTrainingPlan answered without a plan ARN",
				What:     "training plan purchase",
				Unknown:  lostExplanation(o.Region, PlanName(id)),
				NotFound: "No training plan has this purchase's name; it is safe to search and try again.",
			}
		},
	}, nil
}

func lostExplanation(region, name string) source.Explanation {
	return source.Explanation{
		Summary: "The training plan purchase may or may not have gone through: AWS did not answer, and the check afterwards failed too.",
		Hint: fmt.Sprintf("Do not buy again. Run `aws sagemaker describe-training-plan --region %s --training-plan-name %s` to see whether it exists.",
			region, name)}
}

// findPlan describes the plan of a purchase by its name, a few times: AWS may take a
// moment to know a plan it has just made. ResourceNotFound is "not there"; other errors
// are failures of the look-up.
func (c *Client) findPlan(ctx context.Context, region, name string) (Plan, bool, error) {
	return awsapi.Confirm(ctx, c.base, func(ctx context.Context) (Plan, bool, error) {
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
func (c *Client) SettleIntent(ctx context.Context, e source.JournalEntry) (bool, string, error) {
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
		out = append(out, types.Tag{Key: aws.String(k), Value: aws.String(m[k])})
	}
	return out
}

func utc(t time.Time) *time.Time { u := t.UTC(); return &u }
