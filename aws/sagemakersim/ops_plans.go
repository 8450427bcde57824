package sagemakersim

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

type createInput struct {
	TrainingPlanName                 *string     `json:"TrainingPlanName"`
	TrainingPlanOfferingId           *string     `json:"TrainingPlanOfferingId"`
	SpareInstanceCountPerUltraServer *int        `json:"SpareInstanceCountPerUltraServer"`
	Tags                             []*tagInput `json:"Tags"`
}

func (h *handler) createPlan(c *call) (any, *apiError) {
	var in createInput
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(
		required("TrainingPlanName", in.TrainingPlanName != nil),
		required("TrainingPlanOfferingId", in.TrainingPlanOfferingId != nil),
		checkString("TrainingPlanName", in.TrainingPlanName, 1, 64, patTrainingPlanName),
		checkString("TrainingPlanOfferingId", in.TrainingPlanOfferingId, 1, 256, patOfferingID),
		checkRange("SpareInstanceCountPerUltraServer", in.SpareInstanceCountPerUltraServer, 0, -1),
	); e != nil {
		return nil, e
	}
	tags, e := readTags(in.Tags)
	if e != nil {
		return nil, e
	}
	name, id := *in.TrainingPlanName, *in.TrainingPlanOfferingId
	if c.rs.plan(name) != nil {
		return nil, errf(http.StatusBadRequest, "ResourceInUse", "Training plan %s already exists in %s.", name, c.region)
	}
	o, ok := c.rs.Offerings[id]
	if !ok || o.Gone {
		return nil, notFound("Training plan offering %s does not exist or is no longer available.", id)
	}
	first := o.Caps[0]
	if in.SpareInstanceCountPerUltraServer != nil && first.UltraType == "" {
		return nil, rule("SpareInstanceCountPerUltraServer applies to UltraServer offerings only.")
	}
	// Spares are taken from the UltraServer's own instances, and at least one must be left
	// to run on (AWS's maximum is UNCONFIRMED; this is the largest that makes sense).
	if n := ultraServers[first.UltraType].instances; in.SpareInstanceCountPerUltraServer != nil && *in.SpareInstanceCountPerUltraServer > n-1 {
		return nil, rule("SpareInstanceCountPerUltraServer %d is too many for %s, whose UltraServers hold %d instances: give 0 to %d.",
			*in.SpareInstanceCountPerUltraServer, first.UltraType, n, n-1)
	}
	held := 0
	for _, p := range c.rs.Plans {
		if p.holds(c.now) && p.Caps[0].InstanceType == first.InstanceType {
			held += p.instances()
		}
	}
	if held+first.Count > instanceQuota {
		return nil, errf(http.StatusBadRequest, "ResourceLimitExceeded",
			"Your reserved-capacity %s instance quota is not sufficient: %d are held in training plans, %d more asked, quota %d.",
			first.InstanceType, held, first.Count, instanceQuota)
	}
	// Capacity bought by someone else since the search (the sold fault), or by this
	// account in another offering that shared the days.
	for _, cp := range o.Caps {
		if h.freeOver(c.rs, c.region, cp.AZ, cp.supply(), cp.Start, cp.End, c.now) < cp.units() {
			o.Gone, c.changed = true, true
			return nil, notFound("Training plan offering %s is no longer available.", id)
		}
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if h.core.Hit(h.core.Faults().Sold) {
		o.Gone, c.changed = true, true
		return nil, notFound("Training plan offering %s is no longer available.", id)
	}
	spare := 0
	if first.UltraType != "" {
		spare = 1 // the documented default
		if in.SpareInstanceCountPerUltraServer != nil {
			spare = *in.SpareInstanceCountPerUltraServer
		}
	}
	p := &plan{Name: name, ARN: planARN(h.core.Account(), c.region, name), OfferingID: id, Targets: o.Targets, Caps: slices.Clone(o.Caps),
		Fee: o.Fee, Created: c.now, Spare: spare, Tags: tags,
		Payment: h.core.Pay(c.now, o.Caps[0].Start.Add(-simcore.PaymentLead), "sm-pay", c.region, name)}
	for _, cp := range o.Caps {
		consume(c.rs, cp.AZ, cp.supply(), cp.Start, cp.End, cp.units())
	}
	o.Gone = true
	c.rs.Plans = append(c.rs.Plans, p)
	c.rs.Generation++
	c.changed = true
	return map[string]string{"TrainingPlanArn": p.ARN}, nil
}

// --- DescribeTrainingPlan, ListTrainingPlans

type capacitySummaryOut struct {
	ReservedCapacityArn  string `json:"ReservedCapacityArn"`
	ReservedCapacityType string `json:"ReservedCapacityType"`
	UltraServerType      string `json:"UltraServerType,omitempty"`
	UltraServerCount     int    `json:"UltraServerCount,omitempty"`
	InstanceType         string `json:"InstanceType"`
	TotalInstanceCount   int    `json:"TotalInstanceCount"`
	Status               string `json:"Status"`
	AvailabilityZone     string `json:"AvailabilityZone"`
	AvailabilityZoneId   string `json:"AvailabilityZoneId"`
	DurationHours        int64  `json:"DurationHours"`
	DurationMinutes      int64  `json:"DurationMinutes"`
	StartTime            *ts    `json:"StartTime"`
	EndTime              *ts    `json:"EndTime"`
}

type planOut struct {
	TrainingPlanArn             string               `json:"TrainingPlanArn"`
	TrainingPlanName            string               `json:"TrainingPlanName"`
	Status                      string               `json:"Status"`
	StatusMessage               string               `json:"StatusMessage,omitempty"`
	DurationHours               int64                `json:"DurationHours"`
	DurationMinutes             int64                `json:"DurationMinutes"`
	StartTime                   *ts                  `json:"StartTime"`
	EndTime                     *ts                  `json:"EndTime"`
	UpfrontFee                  string               `json:"UpfrontFee"`
	CurrencyCode                string               `json:"CurrencyCode"`
	TotalInstanceCount          int                  `json:"TotalInstanceCount"`
	AvailableInstanceCount      int                  `json:"AvailableInstanceCount"`
	InUseInstanceCount          int                  `json:"InUseInstanceCount"`
	UnhealthyInstanceCount      *int                 `json:"UnhealthyInstanceCount,omitempty"`
	AvailableSpareInstanceCount *int                 `json:"AvailableSpareInstanceCount,omitempty"`
	TotalUltraServerCount       int                  `json:"TotalUltraServerCount,omitempty"`
	TargetResources             []string             `json:"TargetResources"`
	ReservedCapacitySummaries   []capacitySummaryOut `json:"ReservedCapacitySummaries"`
}

// planView is a plan as Describe shows it. The fee is the purchase's; extensions carry
// their own fees in the extension history (whether AWS adds them here is UNCONFIRMED).
func planView(region string, p *plan, now time.Time, describe bool) planOut {
	st := p.status(now)
	caps := p.capacities(now)
	v := planOut{TrainingPlanArn: p.ARN, TrainingPlanName: p.Name, Status: st, DurationHours: p.hours(now),
		StartTime: tsp(p.start()), EndTime: tsp(p.end(now)), UpfrontFee: p.Fee.String(), CurrencyCode: currency,
		TotalInstanceCount: p.instances(), TargetResources: p.Targets, ReservedCapacitySummaries: []capacitySummaryOut{}}
	switch st {
	case "Pending":
		v.StatusMessage = "Payment is being processed."
	case "Failed":
		v.StatusMessage = "The payment for the training plan failed."
	case "Active":
		v.AvailableInstanceCount = v.TotalInstanceCount
	}
	if caps[0].UltraType != "" {
		v.TotalUltraServerCount = caps[0].UltraCount
	}
	if describe {
		zero := 0
		v.UnhealthyInstanceCount = &zero
		if caps[0].UltraType != "" {
			spare := p.Spare * caps[0].UltraCount
			if st != "Active" {
				spare = 0
			}
			v.AvailableSpareInstanceCount = &spare
		}
	}
	for i, cp := range caps {
		v.ReservedCapacitySummaries = append(v.ReservedCapacitySummaries, capacitySummaryOut{
			ReservedCapacityArn: capacityARN(region, p, i), ReservedCapacityType: capType(cp),
			UltraServerType: cp.UltraType, UltraServerCount: cp.UltraCount, InstanceType: cp.InstanceType,
			TotalInstanceCount: cp.Count, Status: p.capStatus(cp, now), AvailabilityZone: cp.AZ, AvailabilityZoneId: cp.AZID,
			DurationHours: cp.hours(), StartTime: tsp(cp.Start), EndTime: tsp(cp.End)})
	}
	return v
}

func (h *handler) describePlan(c *call) (any, *apiError) {
	var in struct {
		TrainingPlanName *string `json:"TrainingPlanName"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := required("TrainingPlanName", in.TrainingPlanName != nil); e != nil {
		return nil, e
	}
	// A name or, since S1 v1.280.0, an ARN (its pattern is UNCONFIRMED: the name's, or the
	// plan ARN's).
	var p *plan
	if strings.HasPrefix(*in.TrainingPlanName, "arn:") {
		if e := checkString("TrainingPlanName", in.TrainingPlanName, 50, 2048, patTrainingPlanArn); e != nil {
			return nil, e
		}
		p = c.rs.planByARN(*in.TrainingPlanName)
	} else {
		if e := checkString("TrainingPlanName", in.TrainingPlanName, 1, 64, patTrainingPlanName); e != nil {
			return nil, e
		}
		p = c.rs.plan(*in.TrainingPlanName)
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if p == nil {
		return nil, notFound("Training plan %s does not exist.", *in.TrainingPlanName)
	}
	return planView(c.region, p, c.now, true), nil
}

type listInput struct {
	NextToken       *string `json:"NextToken"`
	MaxResults      *int    `json:"MaxResults"`
	StartTimeAfter  *epoch  `json:"StartTimeAfter"`
	StartTimeBefore *epoch  `json:"StartTimeBefore"`
	SortBy          *string `json:"SortBy"`
	SortOrder       *string `json:"SortOrder"`
	Filters         []*struct {
		Name  *string `json:"Name"`
		Value *string `json:"Value"`
	} `json:"Filters"`
}

// listDefault is ListTrainingPlans' page size when MaxResults is not given (AWS's is
// UNCONFIRMED; a small one makes clients page).
const listDefault = 10

func (h *handler) listPlans(c *call) (any, *apiError) {
	var in listInput
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(checkEnum("SortBy", in.SortBy, sortBys), checkEnum("SortOrder", in.SortOrder, sortOrders)); e != nil {
		return nil, e
	}
	if in.Filters != nil && (len(in.Filters) < 1 || len(in.Filters) > 5) {
		return nil, invalid("Filters", fmt.Sprintf("[%d filters]", len(in.Filters)), "Member must have length between 1 and 5")
	}
	var statuses []string
	for _, f := range in.Filters {
		if f == nil {
			return nil, invalid("Filters", "null", "Member must not be null")
		}
		if e := firstErr(required("Filters.member.Name", f.Name != nil), required("Filters.member.Value", f.Value != nil),
			checkEnum("Filters.member.Name", f.Name, filterNames), checkString("Filters.member.Value", f.Value, 0, 64, nil),
			checkEnum("Filters.member.Value", f.Value, planStatuses)); e != nil {
			return nil, e
		}
		statuses = append(statuses, *f.Value)
	}
	var sel []*plan
	for _, p := range c.rs.Plans {
		st := p.status(c.now)
		// Several filters must all hold (AND, as SageMaker's other list filters; UNCONFIRMED).
		ok := true
		for _, want := range statuses {
			ok = ok && st == want
		}
		if in.StartTimeAfter != nil && !p.start().After(in.StartTimeAfter.Time) {
			ok = false
		}
		if in.StartTimeBefore != nil && !p.start().Before(in.StartTimeBefore.Time) {
			ok = false
		}
		if ok {
			sel = append(sel, p)
		}
	}
	// StartTime, newest first, unless asked otherwise (AWS's default is UNCONFIRMED).
	by, desc := "StartTime", true
	if in.SortBy != nil {
		by = *in.SortBy
	}
	if in.SortOrder != nil {
		desc = *in.SortOrder == "Descending"
	}
	key := func(p *plan) string {
		switch by {
		case "TrainingPlanName":
			return p.Name
		case "Status":
			return p.status(c.now) + "\x00" + p.Name
		}
		return p.start().UTC().Format(time.RFC3339Nano) + "\x00" + p.Name
	}
	sort.SliceStable(sel, func(i, j int) bool {
		if desc {
			return key(sel[i]) > key(sel[j])
		}
		return key(sel[i]) < key(sel[j])
	})
	from, to, next, e := page(in.NextToken, in.MaxResults, listDefault, len(sel))
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	out := struct {
		NextToken             *string   `json:"NextToken,omitempty"`
		TrainingPlanSummaries []planOut `json:"TrainingPlanSummaries"`
	}{NextToken: next, TrainingPlanSummaries: []planOut{}}
	for _, p := range sel[from:to] {
		out.TrainingPlanSummaries = append(out.TrainingPlanSummaries, planView(c.region, p, c.now, false))
	}
	return out, nil
}

// --- ExtendTrainingPlan, DescribeTrainingPlanExtensionHistory
