package trainingplans

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Source is the training plans as a source.Source over c: the capacity source beside the
// Capacity Blocks.
func Source(c *Client) source.Source { return plans{c} }

type plans struct{ tp *Client }

// Caps are what sets the training plans apart, known without a client.
var Caps = source.Caps{Source: model.SourceTrainingPlan, Noun: Noun, Targets: Targets(),
	NoDryRun:       "there is no dry run for training plans (SageMaker has none): the permission is learnt only by buying",
	PurchaseAction: "sagemaker:CreateTrainingPlan", ExtendAction: "sagemaker:ExtendTrainingPlan",
	// AWS's examples name offerings tpo-<hash>; the hash's form is not documented.
	OfferingPrefix: "tpo-", Parts: true}

func (plans) Caps() source.Caps { return Caps }

// Intents are the plans' journal actions, settled by the plan's name (its request id).
func (s plans) Intents() source.IntentSource {
	return source.IntentSource{Source: model.SourceTrainingPlan, Purchase: ActionCreate, Extend: ActionExtend, Noun: Noun,
		Settle: func(ctx context.Context, e source.JournalEntry) (source.Settled, error) {
			var st source.Settled
			bought, result, err := s.tp.SettleIntent(ctx, e)
			if bought {
				st.Outcome, st.Result = source.Bought, result
			}
			return st, err
		}}
}

func (s plans) Explain(err error) source.Explanation { return explain(err, s.tp.base.ExplainError) }

// Search sweeps every length of q's range that plans last (any whole number of days up to
// 182, not the blocks' lengths), with q's targets.
func (s plans) Search(ctx context.Context, q model.Query) <-chan source.SearchEvent {
	pq := QueryFrom(q, q.Targets...)
	pq.Days = model.SourceTrainingPlan.DurationDays(q.Durations.MinDays, q.Durations.MaxDays)
	in, out := s.tp.Search(ctx, pq), make(chan source.SearchEvent, 16)
	go func() {
		defer close(out)
		for ev := range in {
			e := source.SearchEvent{Region: ev.Region, Status: ev.Status, CallsDone: ev.CallsDone, CallsTotal: ev.CallsTotal, Progress: ev.Progress}
			for _, o := range ev.Offerings {
				e.Offerings = append(e.Offerings, ModelOffering(o))
			}
			select {
			case out <- e:
			case <-ctx.Done():
				for range in { // let the search finish and close its channel
				}
				return
			}
		}
	}()
	return out
}

// SpendCall is a plan's part of a purchase or an extension; a platform does not apply to
// plans, and gpublock launches nothing into them (SageMaker's jobs use them).
func (s plans) SpendCall(_ context.Context, in source.Intent) (source.SpendCall, error) {
	switch in.Kind {
	case source.SpendPurchase:
		return s.tp.purchaseCall(OfferingFromModel(in.Offering), in.Tags, new(Plan))
	case source.SpendExtend:
		return s.tp.extendCall(PlanFromBlock(in.Block), in.Block, extensionOffering(in.Block, in.Extension), new(Extension))
	}
	return source.SpendCall{}, &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{
		Summary: "gpublock does not launch instances into a " + model.SourceTrainingPlan.Label() + "."}}
}

// List lists the plans of every region asked; SageMaker lists a plan's fee, unlike EC2's
// reservations, so the fees are the plans' own.
func (s plans) List(ctx context.Context, regions []string) (source.Listing, error) {
	ps, err := s.tp.Plans(ctx, regions)
	l := source.Listing{Listed: regions}
	for _, p := range ps {
		b := ModelBlock(p)
		l.Blocks = append(l.Blocks, b)
		if l.Fees == nil {
			l.Fees = map[string]model.Money{}
		}
		l.Fees[source.FeeKey(b)] = p.Fee
	}
	s.tp.base.FillAccount(ctx, l.Blocks)
	return l, err
}

// planName is TrainingPlanName's pattern.
var planName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}$`) })

// Owns accepts a plan's name. A Capacity Reservation's id has that form too, so the
// sources are asked in model.Sources' order, the blocks first.
func (plans) Owns(id string) bool { return planName().MatchString(id) || planARN().MatchString(id) }

// planARN is TrainingPlanArn's pattern: DescribeTrainingPlan takes an ARN as well as a name.
var planARN = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:training-plan/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}$`)
})

// FindBlock is the plan as it is now, by name, with its extensions, so that a dialog that
// bought one can see it paid. Without the history the plan stands as described.
func (s plans) FindBlock(ctx context.Context, region, name string) (model.Block, bool, error) {
	if r := arnRegion(name); r != "" {
		region = r // the plan is where its ARN says, whatever the listing's region
	}
	p, err := s.tp.Describe(ctx, region, name)
	if err != nil {
		if isCode(err, "ResourceNotFound") {
			return model.Block{}, false, nil
		}
		return model.Block{}, false, err
	}
	blk := ModelBlock(p)
	if hist, err := s.tp.ExtensionHistory(ctx, region, p.ARN); err == nil {
		for _, x := range hist {
			blk.Extensions = append(blk.Extensions, modelExtension(blk, x))
		}
	}
	return blk, true, nil
}

// ExtensionChoices asks for every length a plan's extension could have and keeps the
// cheapest of each, shortest first, as for blocks. A refusal of the plan itself (a
// *source.ActionError) ends the asking; the lengths that could not be asked are named.
func (s plans) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	var (
		out    []model.ExtensionChoice
		failed []int
		last   error
	)
	p := PlanFromBlock(blk)
	// The likely lengths first (model.ExtensionAskOrder), each handed on as it answers.
	for _, days := range model.ExtensionAskOrder(extensionLengths(blk), nil) {
		offs, err := s.tp.ExtensionOfferings(ctx, p, days)
		if err != nil {
			var pe *source.ActionError
			if errors.As(err, &pe) {
				return nil, err
			}
			failed, last = append(failed, days), err
			continue
		}
		if len(offs) > 0 {
			ch := model.ExtensionChoice{Days: days, Offering: model.CheapestExtension(modelExtensionOfferings(blk, offs))}
			out = append(out, ch)
			if found != nil {
				found(ch)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Days < out[j].Days })
	if len(failed) > 0 {
		return out, fmt.Errorf("could not ask for extensions of %v days: %s", failed, Explain(last).String())
	}
	return out, nil
}

// extensionLengths are the lengths SageMaker extends by (1–14 days, then whole weeks), as
// long as the plan, extended, stays within its longest length.
func extensionLengths(blk model.Block) []int {
	var out []int
	hours := blk.Hours()
	for _, d := range model.ValidDurationDays() {
		if model.SourceTrainingPlan.CheckExtensionDays(d) == nil && hours+int64(d)*24 <= model.MaxReservationDays*24 {
			out = append(out, d)
		}
	}
	return out
}

func (s plans) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	offs, err := s.tp.ExtensionOfferings(ctx, PlanFromBlock(blk), days)
	if err != nil {
		return nil, err
	}
	return modelExtensionOfferings(blk, offs), nil
}

func modelExtensionOfferings(blk model.Block, offs []ExtensionOffering) []model.ExtensionOffering {
	out := make([]model.ExtensionOffering, len(offs))
	for i, o := range offs {
		out[i] = model.ExtensionOffering{ID: o.ID, ReservationID: blk.ReservationID, InstanceType: blk.InstanceType, Count: blk.TotalCount,
			AvailabilityZone: o.AvailabilityZone, Start: o.Start, End: o.End, DurationHours: o.Hours, Fee: o.Fee, Currency: o.Currency}
	}
	return out
}

// extensionOffering is the front ends' extension offering back in the plan's terms.
func extensionOffering(blk model.Block, off model.ExtensionOffering) ExtensionOffering {
	return ExtensionOffering{ID: off.ID, PlanARN: blk.ARN, AvailabilityZone: off.AvailabilityZone, Start: off.Start, End: off.End,
		Hours: off.DurationHours, Fee: off.Fee, Currency: off.Currency}
}

func modelExtension(blk model.Block, x Extension) model.Extension {
	return model.Extension{ReservationID: blk.ReservationID, OfferingID: x.OfferingID, InstanceType: blk.InstanceType, Count: blk.TotalCount,
		DurationHours: x.Hours, Status: ExtensionStatus(x.PaymentStatus), PurchaseDate: x.ExtendedAt, Start: x.Start, End: x.End,
		Fee: x.Fee, Currency: x.Currency}
}

// ExtensionStatus is a plan extension's PaymentStatus as the blocks' payment states: AWS
// documents Pending and Completed only (free strings); anything else that says it failed
// is a failure, and an unknown word stays pending, the safer reading, so that a dialog
// keeps watching rather than call it paid.
func ExtensionStatus(s string) model.ExtensionStatus {
	switch strings.ToLower(s) {
	case "completed", "succeeded", "paid":
		return model.ExtensionPaymentSucceeded
	case "failed", "paymentfailed", "payment-failed":
		return model.ExtensionPaymentFailed
	}
	return model.ExtensionPaymentPending
}
