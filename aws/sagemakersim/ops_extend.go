package sagemakersim

import (
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

type extensionOut struct {
	TrainingPlanExtensionOfferingId string `json:"TrainingPlanExtensionOfferingId"`
	ExtendedAt                      *ts    `json:"ExtendedAt"`
	StartDate                       *ts    `json:"StartDate"`
	EndDate                         *ts    `json:"EndDate"`
	Status                          string `json:"Status"`
	PaymentStatus                   string `json:"PaymentStatus"`
	AvailabilityZone                string `json:"AvailabilityZone"`
	AvailabilityZoneId              string `json:"AvailabilityZoneId"`
	DurationHours                   int    `json:"DurationHours"`
	UpfrontFee                      string `json:"UpfrontFee"`
	CurrencyCode                    string `json:"CurrencyCode"`
}

func extensionViews(p *plan, now time.Time) []extensionOut {
	out := []extensionOut{}
	for _, e := range p.Extensions {
		st, pay := e.statuses(now)
		out = append(out, extensionOut{TrainingPlanExtensionOfferingId: e.OfferingID, ExtendedAt: tsp(e.Purchased),
			StartDate: tsp(e.Start), EndDate: tsp(e.End), Status: st, PaymentStatus: pay, AvailabilityZone: e.AZ,
			AvailabilityZoneId: e.AZID, DurationHours: e.Hours, UpfrontFee: e.Fee.String(), CurrencyCode: currency})
	}
	return out
}

func (h *handler) extendPlan(c *call) (any, *apiError) {
	var in struct {
		TrainingPlanExtensionOfferingId *string `json:"TrainingPlanExtensionOfferingId"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	// The model gives TrainingPlanExtensionOfferingId no length or pattern: any other id
	// is simply not found.
	if e := required("TrainingPlanExtensionOfferingId", in.TrainingPlanExtensionOfferingId != nil); e != nil {
		return nil, e
	}
	id := *in.TrainingPlanExtensionOfferingId
	o, ok := c.rs.ExtOfferings[id]
	if !ok || o.Gone {
		return nil, notFound("Training plan extension offering %s does not exist or is no longer available.", id)
	}
	p := c.rs.plan(o.PlanName)
	if p == nil {
		return nil, notFound("Training plan %s does not exist.", o.PlanName)
	}
	if e := extendable(p, c.now); e != nil {
		return nil, e
	}
	caps := p.capacities(c.now)
	last := caps[len(caps)-1]
	if !last.End.Equal(o.Start) {
		o.Gone, c.changed = true, true
		return nil, notFound("Training plan extension offering %s is no longer available: the plan's end has moved.", id)
	}
	if h.freeOver(c.rs, c.region, o.AZ, last.supply(), o.Start, o.End, c.now) < last.units() {
		o.Gone, c.changed = true, true
		return nil, notFound("Training plan extension offering %s is no longer available.", id)
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if h.core.Hit(h.core.Faults().Sold) {
		o.Gone, c.changed = true, true
		return nil, notFound("Training plan extension offering %s is no longer available.", id)
	}
	e := &extension{AZ: o.AZ, AZID: o.AZID,
		Extension: o.Bought(c.now, h.core.Pay(c.now, o.Start.Add(-simcore.ExtensionPaymentLead), "sm-ext-pay", c.region, id))}
	consume(c.rs, o.AZ, last.supply(), o.Start, o.End, last.units())
	o.Gone = true
	p.Extensions = append(p.Extensions, e)
	c.changed = true
	return map[string]any{"TrainingPlanExtensions": extensionViews(p, c.now)}, nil
}

const historyDefault = 10

func (h *handler) extensionHistory(c *call) (any, *apiError) {
	var in struct {
		TrainingPlanArn *string `json:"TrainingPlanArn"`
		NextToken       *string `json:"NextToken"`
		MaxResults      *int    `json:"MaxResults"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("TrainingPlanArn", in.TrainingPlanArn != nil),
		checkString("TrainingPlanArn", in.TrainingPlanArn, 50, 2048, patTrainingPlanArn)); e != nil {
		return nil, e
	}
	p := c.rs.planByARN(*in.TrainingPlanArn)
	var all []extensionOut
	if p != nil {
		all = extensionViews(p, c.now)
	}
	from, to, next, e := page(in.NextToken, in.MaxResults, historyDefault, len(all))
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if p == nil {
		return nil, notFound("Training plan %s does not exist.", *in.TrainingPlanArn)
	}
	return struct {
		TrainingPlanExtensions []extensionOut `json:"TrainingPlanExtensions"`
		NextToken              *string        `json:"NextToken,omitempty"`
	}{append([]extensionOut{}, all[from:to]...), next}, nil
}

// --- DescribeReservedCapacity, ListUltraServersByReservedCapacity
