package tuibackend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/backend"
)

// sourceQuery is q as one source searches it: the types it sells, in its own names; ok is
// false when the source sells none of them, or refuses the count or every length (the form
// says so beside the field, and only the other source is searched).
func sourceQuery(q model.Query, s model.Source) (model.Query, bool) {
	var types []string
	for _, t := range q.InstanceTypes {
		if name, err := s.TypeIn(t); err == nil && !slices.Contains(types, name) {
			types = append(types, name)
		}
	}
	q.InstanceTypes = types
	if len(types) == 0 || s.CheckCount(types[0], q.Count) != nil {
		return q, false
	}
	return q, len(s.DurationDays(q.Durations.MinDays, q.Durations.MaxDays)) > 0
}

// searchPlans runs the training-plan part of a search, in the UI's events.
func (b awsBackend) searchPlans(ctx context.Context, q model.Query, out chan<- backend.SearchEvent) {
	pq := trainingplans.QueryFrom(q, q.Targets...)
	// Plans last any whole number of days up to 182: their lengths, not the blocks'.
	pq.Days = model.SourceTrainingPlan.DurationDays(q.Durations.MinDays, q.Durations.MaxDays)
	for ev := range b.tp.Search(ctx, pq) {
		e := backend.SearchEvent{Region: ev.Region, CallsDone: ev.CallsDone, CallsTotal: ev.CallsTotal}
		for _, o := range ev.Offerings {
			e.Offerings = append(e.Offerings, trainingplans.ModelOffering(o))
		}
		e.Status = explainedStatus(ev.Status, explainPlan)
		send(ctx, out, e)
	}
}

// merged joins the events of the sources searched into one stream: the calls are counted
// over both, and a region's status is the two sources' together, so that the UI's one line
// per region says searching until both are done and counts the offerings of both.
type merged struct {
	mu    sync.Mutex
	done  map[model.Source]int
	total map[model.Source]int
	regs  map[string]map[model.Source]backend.RegionStatus
	n     int // sources searched
}

func (m *merged) fold(s model.Source, e backend.SearchEvent) backend.SearchEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done[s], m.total[s] = e.CallsDone, e.CallsTotal
	e.CallsDone, e.CallsTotal = 0, 0
	for _, v := range m.done {
		e.CallsDone += v
	}
	for _, v := range m.total {
		e.CallsTotal += v
	}
	if e.Status == nil || m.n < 2 {
		return e
	}
	r := m.regs[e.Status.Region]
	if r == nil {
		r = map[model.Source]backend.RegionStatus{}
		m.regs[e.Status.Region] = r
	}
	r[s] = *e.Status
	st := combine(e.Status.Region, r)
	e.Status = &st
	return e
}

// combine is one region's status over its sources: searching while one searches, ok when
// one found something, else the worst of the rest; messages name their source.
func combine(region string, r map[model.Source]backend.RegionStatus) backend.RegionStatus {
	out := backend.RegionStatus{Region: region, State: backend.RegionEmpty}
	rank := func(s backend.RegionState) int {
		return map[backend.RegionState]int{backend.RegionSearching: 5, backend.RegionOK: 4, backend.RegionError: 3, backend.RegionThrottled: 2, backend.RegionEmpty: 1}[s]
	}
	var msgs []string
	for _, src := range model.Sources() {
		st, ok := r[src]
		if !ok {
			st = backend.RegionStatus{State: backend.RegionSearching}
		}
		out.Offerings += st.Offerings
		if rank(st.State) > rank(out.State) {
			out.State = st.State
		}
		if st.Message != "" {
			msgs = append(msgs, src.Plural()+": "+st.Message)
		}
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}

func explainPlan(err error) error {
	return explainedError{msg: trainingplans.Explain(err).String(), err: err}
}

// isPlan reports whether the reservation or offering is a training plan's.
func isPlan(s model.Source) bool { return s == model.SourceTrainingPlan }

func (b awsBackend) purchasePlan(ctx context.Context, o model.Offering, tags map[string]string) (backend.PurchaseResult, error) {
	res, err := b.tp.Purchase(ctx, trainingplans.OfferingFromModel(o), tags)
	if err != nil {
		return backend.PurchaseResult{RequestID: res.RequestID}, planActionError(err)
	}
	if res.Outcome != aws.Bought {
		return backend.PurchaseResult{RequestID: res.RequestID}, &backend.ActionError{Outcome: backend.OutcomeUnknown,
			Summary: "The purchase ended without a training plan and without an error.", Hint: "Do not buy again; run `aws sagemaker list-training-plans`."}
	}
	return backend.PurchaseResult{RequestID: res.RequestID, Block: trainingplans.ModelBlock(res.Plan), Recovered: res.Recovered,
		Settled: settledSentences(res.Settled)}, nil
}

// planActionError is actionError with SageMaker's explanations for errors that are not a
// *aws.PurchaseError.
func planActionError(err error) *backend.ActionError {
	var pe *aws.PurchaseError
	if !errors.As(err, &pe) {
		ex := trainingplans.Explain(err)
		return &backend.ActionError{Outcome: backend.NotDone, Summary: ex.Summary, Hint: ex.Hint, Code: ex.Code, Err: err}
	}
	return actionError(err) // its Sold by aws.OfferingSold, which knows SageMaker's code
}

// plan is the training plan as it is now, by name, in the UI's terms.
func (b awsBackend) plan(ctx context.Context, region, name string) (model.Block, bool, error) {
	p, err := b.tp.Describe(ctx, region, name)
	if err != nil {
		var ae interface{ ErrorCode() string }
		if errors.As(err, &ae) && ae.ErrorCode() == "ResourceNotFound" {
			return model.Block{}, false, nil
		}
		return model.Block{}, false, explainPlan(err)
	}
	blk := trainingplans.ModelBlock(p)
	// The extensions, so that a dialog that bought one can see it paid. Without the history
	// the plan stands as described.
	if hist, err := b.tp.ExtensionHistory(ctx, region, p.ARN); err == nil {
		for _, x := range hist {
			blk.Extensions = append(blk.Extensions, model.Extension{ReservationID: blk.ReservationID, OfferingID: x.OfferingID,
				InstanceType: blk.InstanceType, Count: blk.TotalCount, DurationHours: x.Hours, Status: planExtensionStatus(x.PaymentStatus),
				PurchaseDate: x.ExtendedAt, Start: x.Start, End: x.End, Fee: x.Fee, Currency: x.Currency})
		}
	}
	return blk, true, nil
}

// plans lists the training plans of the regions; failed regions are the listing's problems.
func (b awsBackend) plans(ctx context.Context, regions []string, list *backend.BlockList) {
	ps, err := b.tp.Plans(ctx, regions)
	for _, p := range ps {
		list.Blocks = append(list.Blocks, trainingplans.ModelBlock(p))
		if list.Fees == nil {
			list.Fees = map[string]model.Money{}
		}
		list.Fees[p.Name] = p.Fee // SageMaker lists a plan's fee, unlike EC2's reservations
	}
	// A plan's failure leaves the blocks' list standing, so it is only ever partial.
	for _, p := range aws.ClassifyListing(err).Problems {
		list.Problems = append(list.Problems, backend.BlockProblem{Region: p.Region, Partial: true,
			Message: "training plans: " + trainingplans.Explain(p.Err).String()})
	}
}

// planExtensionChoices asks for every length a plan's extension could have and keeps the
// cheapest of each, shortest first, as for blocks.
func (b awsBackend) planExtensionChoices(ctx context.Context, blk model.Block) ([]model.ExtensionChoice, error) {
	var (
		out    []model.ExtensionChoice
		failed []int
		last   error
	)
	p := trainingplans.PlanFromBlock(blk)
	for _, days := range planExtensionLengths(blk) {
		offs, err := b.tp.ExtensionOfferings(ctx, p, days)
		if err != nil {
			var pe *aws.PurchaseError
			if errors.As(err, &pe) {
				return nil, planActionError(err) // the plan cannot be extended at all
			}
			failed, last = append(failed, days), err
			continue
		}
		if len(offs) > 0 {
			out = append(out, model.ExtensionChoice{Days: days, Offering: model.CheapestExtension(planExtensionOfferings(blk, offs))})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Days < out[j].Days })
	if len(failed) > 0 {
		return out, fmt.Errorf("could not ask for extensions of %v days: %s", failed, trainingplans.Explain(last).String())
	}
	return out, nil
}

// planExtensionLengths are the lengths SageMaker extends by (1–14 days, then whole weeks),
// as long as the plan, extended, stays within its longest length.
func planExtensionLengths(blk model.Block) []int {
	var out []int
	hours := blk.Hours()
	for _, d := range model.ValidDurationDays() {
		if model.SourceTrainingPlan.CheckExtensionDays(d) == nil && hours+int64(d)*24 <= model.TrainingPlanMaxDays*24 {
			out = append(out, d)
		}
	}
	return out
}

func planExtensionOfferings(blk model.Block, offs []trainingplans.ExtensionOffering) []model.ExtensionOffering {
	out := make([]model.ExtensionOffering, len(offs))
	for i, o := range offs {
		out[i] = model.ExtensionOffering{ID: o.ID, ReservationID: blk.ReservationID, InstanceType: blk.InstanceType, Count: blk.TotalCount,
			AvailabilityZone: o.AvailabilityZone, Start: o.Start, End: o.End, DurationHours: o.Hours, Fee: o.Fee, Currency: o.Currency}
	}
	return out
}

// planExtensionOffering is the UI's extension offering back in the plan's terms.
func planExtensionOffering(blk model.Block, off model.ExtensionOffering) trainingplans.ExtensionOffering {
	return trainingplans.ExtensionOffering{ID: off.ID, PlanARN: blk.ARN, AvailabilityZone: off.AvailabilityZone, Start: off.Start, End: off.End,
		Hours: off.DurationHours, Fee: off.Fee, Currency: off.Currency}
}

func (b awsBackend) extendPlan(ctx context.Context, blk model.Block, off model.ExtensionOffering) (backend.ExtendResult, error) {
	res, err := b.tp.Extend(ctx, trainingplans.PlanFromBlock(blk), planExtensionOffering(blk, off))
	if err != nil {
		return backend.ExtendResult{RequestID: res.RequestID}, planActionError(err)
	}
	if res.Outcome != aws.Bought {
		return backend.ExtendResult{RequestID: res.RequestID}, &backend.ActionError{Outcome: backend.OutcomeUnknown,
			Summary: "The extension ended without an answer and without an error.", Hint: "Do not extend again; check the plan's extension history."}
	}
	x := res.Extension
	return backend.ExtendResult{RequestID: res.RequestID, Recovered: res.Recovered, Settled: settledSentences(res.Settled),
		Extension: model.Extension{ReservationID: blk.ReservationID, OfferingID: x.OfferingID, InstanceType: blk.InstanceType, Count: blk.TotalCount,
			DurationHours: x.Hours, Status: planExtensionStatus(x.PaymentStatus), PurchaseDate: x.ExtendedAt, Start: x.Start, End: x.End, Fee: x.Fee, Currency: x.Currency}}, nil
}

// errNoDryRun is what CheckPurchase says of a training plan: SageMaker has no DryRun, and
// the purchase dialog says so instead of asking.
var errNoDryRun = errors.New("there is no dry run for training plans: SageMaker's CreateTrainingPlan has none")

// isCapacityReservationID tells an EC2 Capacity Reservation's id (cr- and 17 hex digits)
// from a training plan's name, which is how Block knows which source to ask.
func isCapacityReservationID(id string) bool {
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

// planExtensionStatus is a plan extension's PaymentStatus as the blocks' payment states:
// AWS documents Pending and Completed only (free strings); anything else that says it
// failed is a failure, and an unknown word stays pending, the safer reading, so that the
// dialog keeps watching rather than call it paid.
func planExtensionStatus(s string) model.ExtensionStatus {
	switch strings.ToLower(s) {
	case "completed", "succeeded", "paid":
		return model.ExtensionPaymentSucceeded
	case "failed", "paymentfailed", "payment-failed":
		return model.ExtensionPaymentFailed
	}
	return model.ExtensionPaymentPending
}
