package sagemakersim

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

const currency = "USD"

func planARN(region, name string) string {
	return "arn:aws:sagemaker:" + region + ":" + simcore.DemoAccount + ":training-plan/" + name
}

func capacityARN(region, plan string, i int) string {
	return fmt.Sprintf("arn:aws:sagemaker:%s:%s:reserved-capacity/%s-rc%d", region, simcore.DemoAccount, plan, i+1)
}

// --- SearchTrainingPlanOfferings

type searchInput struct {
	InstanceType     *string  `json:"InstanceType"`
	InstanceCount    *int     `json:"InstanceCount"`
	UltraServerType  *string  `json:"UltraServerType"`
	UltraServerCount *int     `json:"UltraServerCount"`
	StartTimeAfter   *epoch   `json:"StartTimeAfter"`
	EndTimeBefore    *epoch   `json:"EndTimeBefore"`
	DurationHours    *int64   `json:"DurationHours"`
	TargetResources  []string `json:"TargetResources"`
	TrainingPlanArn  *string  `json:"TrainingPlanArn"`
}

type capacityOfferingOut struct {
	ReservedCapacityType string `json:"ReservedCapacityType"`
	UltraServerType      string `json:"UltraServerType,omitempty"`
	UltraServerCount     int    `json:"UltraServerCount,omitempty"`
	InstanceType         string `json:"InstanceType"`
	InstanceCount        int    `json:"InstanceCount"`
	AvailabilityZone     string `json:"AvailabilityZone"`
	DurationHours        int64  `json:"DurationHours"`
	DurationMinutes      int64  `json:"DurationMinutes"`
	StartTime            *ts    `json:"StartTime"`
	EndTime              *ts    `json:"EndTime"`
}

type offeringOut struct {
	TrainingPlanOfferingId    string                `json:"TrainingPlanOfferingId"`
	TargetResources           []string              `json:"TargetResources"`
	RequestedStartTimeAfter   *ts                   `json:"RequestedStartTimeAfter,omitempty"`
	RequestedEndTimeBefore    *ts                   `json:"RequestedEndTimeBefore,omitempty"`
	DurationHours             int64                 `json:"DurationHours"`
	DurationMinutes           int64                 `json:"DurationMinutes"`
	UpfrontFee                string                `json:"UpfrontFee"`
	CurrencyCode              string                `json:"CurrencyCode"`
	ReservedCapacityOfferings []capacityOfferingOut `json:"ReservedCapacityOfferings"`
}

type extOfferingOut struct {
	TrainingPlanExtensionOfferingId string `json:"TrainingPlanExtensionOfferingId"`
	AvailabilityZone                string `json:"AvailabilityZone"`
	StartDate                       *ts    `json:"StartDate"`
	EndDate                         *ts    `json:"EndDate"`
	DurationHours                   int    `json:"DurationHours"`
	UpfrontFee                      string `json:"UpfrontFee"`
	CurrencyCode                    string `json:"CurrencyCode"`
}

type searchOutput struct {
	TrainingPlanOfferings          []offeringOut    `json:"TrainingPlanOfferings"`
	TrainingPlanExtensionOfferings []extOfferingOut `json:"TrainingPlanExtensionOfferings,omitempty"`
}

func capType(c capacity) string {
	if c.UltraType != "" {
		return "UltraServer"
	}
	return "Instance"
}

func (h *handler) searchOfferings(c *call) (any, *apiError) {
	var in searchInput
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(
		checkEnum("InstanceType", in.InstanceType, instanceTypes),
		checkRange("InstanceCount", in.InstanceCount, 0, 256),
		checkString("UltraServerType", in.UltraServerType, 1, 64, patUltraServerType),
		checkRange("UltraServerCount", in.UltraServerCount, 1, -1),
		checkRange("DurationHours", in.DurationHours, 1, 87600),
	); e != nil {
		return nil, e
	}
	if in.TargetResources != nil && len(in.TargetResources) < 1 {
		return nil, invalid("TargetResources", "[]", "Member must have length greater than or equal to 1")
	}
	for _, t := range in.TargetResources {
		if e := checkEnum("TargetResources", &t, targetResources); e != nil {
			return nil, e
		}
	}
	if in.TrainingPlanArn != nil {
		return h.searchExtensions(c, in)
	}
	// DurationHours is required server-side (S1 CHANGELOG v1.182.0), and so are a type
	// and the target resources here: whether AWS accepts a search without them is
	// UNCONFIRMED, and the stricter reading is the safer one.
	if e := firstErr(required("DurationHours", in.DurationHours != nil), required("TargetResources", in.TargetResources != nil)); e != nil {
		return nil, e
	}
	q, e := h.wantedFrom(c, in)
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	out := searchOutput{TrainingPlanOfferings: []offeringOut{}}
	for _, o := range h.offerings(c.rs, c.region, q, c.now) {
		out.TrainingPlanOfferings = append(out.TrainingPlanOfferings, offeringView(o))
	}
	c.changed = true // offerings issued are remembered, so that they can be bought
	return out, nil
}

func offeringView(o *offering) offeringOut {
	v := offeringOut{TrainingPlanOfferingId: o.ID, TargetResources: o.Targets, UpfrontFee: o.Fee.String(), CurrencyCode: currency,
		RequestedStartTimeAfter: tsp(o.ReqStart), RequestedEndTimeBefore: tsp(o.ReqEnd)}
	for _, cp := range o.Caps {
		v.DurationHours += cp.hours()
		v.ReservedCapacityOfferings = append(v.ReservedCapacityOfferings, capacityOfferingOut{
			ReservedCapacityType: capType(cp), UltraServerType: cp.UltraType, UltraServerCount: cp.UltraCount,
			InstanceType: cp.InstanceType, InstanceCount: cp.Count, AvailabilityZone: cp.AZ,
			DurationHours: cp.hours(), StartTime: tsp(cp.Start), EndTime: tsp(cp.End)})
	}
	return v
}

// wantedFrom applies the business rules of a plan search: the type sold in the region,
// the allowed counts, whole days of 1 to 182.
func (h *handler) wantedFrom(c *call, in searchInput) (wanted, *apiError) {
	q := wanted{targets: slices.Clone(in.TargetResources)}
	if in.StartTimeAfter != nil {
		q.from = in.StartTimeAfter.Time
	}
	if in.EndTimeBefore != nil {
		q.to = in.EndTimeBefore.Time
	}
	if !q.to.IsZero() && !q.to.After(q.from) {
		return q, rule("EndTimeBefore (%s) must be after StartTimeAfter (%s).", q.to.Format(time.RFC3339), q.from.Format(time.RFC3339))
	}
	switch {
	case in.UltraServerType != nil:
		u, ok := ultraServers[*in.UltraServerType]
		if !ok {
			return q, rule("Invalid UltraServer type %s", *in.UltraServerType)
		}
		if in.InstanceType != nil && *in.InstanceType != u.member {
			return q, rule("Instance type %s does not match UltraServer type %s (its instances are %s).", *in.InstanceType, *in.UltraServerType, u.member)
		}
		n := 1
		if in.UltraServerCount != nil {
			n = *in.UltraServerCount
		}
		q.instType, q.catalog, q.ultraType, q.ultraCount, q.units, q.count = u.member, u.catalog, *in.UltraServerType, n, n, n*u.instances
	case in.InstanceType != nil:
		if in.UltraServerCount != nil {
			return q, rule("UltraServerCount is given without an UltraServerType.")
		}
		if in.InstanceCount == nil {
			return q, required("InstanceCount", false)
		}
		q.instType, q.catalog = *in.InstanceType, catalogName(*in.InstanceType)
		q.count, q.units = *in.InstanceCount, *in.InstanceCount
		if !slices.Contains(allowedCounts, q.count) {
			return q, rule("Invalid instance count %d for instance type %s", q.count, q.instType)
		}
	default:
		return q, required("InstanceType", false)
	}
	t, ok := model.LookupType(q.catalog)
	if _, priced := rate(q.catalog, c.region); !ok || !t.Sells(c.region) || !priced {
		return q, rule("Invalid instance type %s", orUltra(q))
	}
	q.hours = *in.DurationHours
	if q.hours%24 != 0 || q.hours/24 > maxPlanDays {
		return q, rule("Invalid duration %d hours: a training plan lasts whole days, from 24 to %d hours (1 to %d days).", q.hours, maxPlanDays*24, maxPlanDays)
	}
	return q, nil
}

func orUltra(q wanted) string {
	if q.ultraType != "" {
		return q.ultraType
	}
	return q.instType
}

// checkExtensionHours is the rule of extension lengths: 1-day steps up to 14 days, then
// 7-day steps up to 182 days.
func checkExtensionHours(h int64) *apiError {
	days := h / 24
	if h%24 != 0 || days < 1 || days > maxPlanDays || (days > 14 && days%7 != 0) {
		return rule("Invalid extension duration %d hours: 1-day steps up to 14 days, then 7-day steps up to %d days.", h, maxPlanDays)
	}
	return nil
}

// extendable says why a plan cannot be extended now, if it cannot. AWS's exact rule is
// UNCONFIRMED; a plan that is not yet paid, failed, ended or already being extended is
// refused, as a Capacity Block is.
func extendable(p *plan, now time.Time) *apiError {
	switch st := p.status(now); st {
	case "Pending", "Failed", "Expired":
		return rule("Training plan %s is %s and cannot be extended.", p.Name, st)
	}
	if p.pendingExtension(now) {
		return rule("Training plan %s has an extension whose payment is pending.", p.Name)
	}
	return nil
}

func (h *handler) searchExtensions(c *call, in searchInput) (any, *apiError) {
	if e := checkString("TrainingPlanArn", in.TrainingPlanArn, 50, 2048, patTrainingPlanArn); e != nil {
		return nil, e
	}
	if e := required("DurationHours", in.DurationHours != nil); e != nil {
		return nil, e
	}
	if e := checkExtensionHours(*in.DurationHours); e != nil {
		return nil, e
	}
	p := c.rs.planByARN(*in.TrainingPlanArn)
	if p == nil {
		// Search models ResourceLimitExceeded only; an unknown plan is a ValidationException
		// here (UNCONFIRMED).
		return nil, rule("Training plan %s does not exist.", *in.TrainingPlanArn)
	}
	if e := extendable(p, c.now); e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	out := searchOutput{TrainingPlanOfferings: []offeringOut{}, TrainingPlanExtensionOfferings: []extOfferingOut{}}
	for _, o := range h.extensionOfferings(c.rs, c.region, p, int(*in.DurationHours), c.now) {
		out.TrainingPlanExtensionOfferings = append(out.TrainingPlanExtensionOfferings, extOfferingOut{
			TrainingPlanExtensionOfferingId: o.ID, AvailabilityZone: o.AZ, StartDate: tsp(o.Start), EndDate: tsp(o.End),
			DurationHours: o.Hours, UpfrontFee: o.Fee.String(), CurrencyCode: currency})
	}
	c.changed = true
	return out, nil
}

// --- CreateTrainingPlan

type createInput struct {
	TrainingPlanName                 *string `json:"TrainingPlanName"`
	TrainingPlanOfferingId           *string `json:"TrainingPlanOfferingId"`
	SpareInstanceCountPerUltraServer *int    `json:"SpareInstanceCountPerUltraServer"`
	Tags                             []*struct {
		Key   *string `json:"Key"`
		Value *string `json:"Value"`
	} `json:"Tags"`
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
	if len(in.Tags) > 50 {
		return nil, invalid("Tags", fmt.Sprintf("[%d tags]", len(in.Tags)), "Member must have length less than or equal to 50")
	}
	var tags []tag
	for _, t := range in.Tags {
		if t == nil {
			return nil, invalid("Tags", "null", "Member must not be null")
		}
		if e := firstErr(required("Tags.member.Key", t.Key != nil), required("Tags.member.Value", t.Value != nil),
			checkString("Tags.member.Key", t.Key, 1, 128, patTag), checkString("Tags.member.Value", t.Value, 0, 256, patTag)); e != nil {
			return nil, e
		}
		tags = append(tags, tag{*t.Key, *t.Value})
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
	p := &plan{Name: name, ARN: planARN(c.region, name), OfferingID: id, Targets: o.Targets, Caps: slices.Clone(o.Caps),
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
			ReservedCapacityArn: capacityARN(region, p.Name, i), ReservedCapacityType: capType(cp),
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
	if e := firstErr(required("TrainingPlanExtensionOfferingId", in.TrainingPlanExtensionOfferingId != nil),
		checkString("TrainingPlanExtensionOfferingId", in.TrainingPlanExtensionOfferingId, 1, 256, patOfferingID)); e != nil {
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

// reservedCapacity finds a reserved capacity by its ARN.
func (rs *regionState) reservedCapacity(region, arn string, now time.Time) (*plan, capacity, int, bool) {
	for _, p := range rs.Plans {
		for i, cp := range p.capacities(now) {
			if capacityARN(region, p.Name, i) == arn {
				return p, cp, i, true
			}
		}
	}
	return nil, capacity{}, 0, false
}

func (h *handler) describeReservedCapacity(c *call) (any, *apiError) {
	var in struct {
		ReservedCapacityArn *string `json:"ReservedCapacityArn"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ReservedCapacityArn", in.ReservedCapacityArn != nil),
		checkString("ReservedCapacityArn", in.ReservedCapacityArn, 50, 2048, patReservedCapArn)); e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	p, cp, _, ok := c.rs.reservedCapacity(c.region, *in.ReservedCapacityArn, c.now)
	if !ok {
		return nil, notFound("Reserved capacity %s does not exist.", *in.ReservedCapacityArn)
	}
	st := p.capStatus(cp, c.now)
	avail := 0
	if st == "Active" {
		avail = cp.Count
	}
	out := map[string]any{
		"ReservedCapacityArn": *in.ReservedCapacityArn, "ReservedCapacityType": capType(cp), "Status": st,
		"AvailabilityZone": cp.AZ, "DurationHours": cp.hours(), "DurationMinutes": 0,
		"StartTime": tsp(cp.Start), "EndTime": tsp(cp.End), "InstanceType": cp.InstanceType,
		"TotalInstanceCount": cp.Count, "AvailableInstanceCount": avail, "InUseInstanceCount": 0,
	}
	if cp.UltraType != "" {
		out["UltraServerSummary"] = map[string]any{"UltraServerType": cp.UltraType, "InstanceType": cp.InstanceType,
			"UltraServerCount": cp.UltraCount, "AvailableSpareInstanceCount": sparesIf(st, p.Spare*cp.UltraCount), "UnhealthyInstanceCount": 0}
	}
	return out, nil
}

func sparesIf(status string, n int) int {
	if status == "Active" {
		return n
	}
	return 0
}

const ultraDefault = 10 // ListUltraServersByReservedCapacity MaxResults default (S1/S2)

func (h *handler) listUltraServers(c *call) (any, *apiError) {
	var in struct {
		ReservedCapacityArn *string `json:"ReservedCapacityArn"`
		MaxResults          *int    `json:"MaxResults"`
		NextToken           *string `json:"NextToken"`
	}
	if e := c.decode(&in); e != nil {
		return nil, e
	}
	if e := firstErr(required("ReservedCapacityArn", in.ReservedCapacityArn != nil),
		checkString("ReservedCapacityArn", in.ReservedCapacityArn, 50, 2048, patReservedCapArn)); e != nil {
		return nil, e
	}
	p, cp, i, ok := c.rs.reservedCapacity(c.region, *in.ReservedCapacityArn, c.now)
	n := 0
	if ok && cp.UltraType != "" {
		n = cp.UltraCount
	}
	from, to, next, e := page(in.NextToken, in.MaxResults, ultraDefault, n)
	if e != nil {
		return nil, e
	}
	if e := h.deny(c); e != nil {
		return nil, e
	}
	if !ok {
		return nil, notFound("Reserved capacity %s does not exist.", *in.ReservedCapacityArn)
	}
	st := p.capStatus(cp, c.now)
	servers := []map[string]any{}
	if cp.UltraType != "" {
		per := cp.Count / cp.UltraCount
		for k := from; k < to; k++ {
			avail := 0
			if st == "Active" {
				avail = per
			}
			servers = append(servers, map[string]any{
				"UltraServerId":   fmt.Sprintf("us-%016x", h.core.Hash("sm-ultra", c.region, p.Name, i, k)),
				"UltraServerType": cp.UltraType, "AvailabilityZone": cp.AZ, "InstanceType": cp.InstanceType,
				"TotalInstanceCount": per, "ConfiguredSpareInstanceCount": p.Spare, "AvailableInstanceCount": avail,
				"InUseInstanceCount": 0, "AvailableSpareInstanceCount": sparesIf(st, p.Spare), "UnhealthyInstanceCount": 0,
				"HealthStatus": "OK"})
		}
	}
	return struct {
		NextToken    *string          `json:"NextToken,omitempty"`
		UltraServers []map[string]any `json:"UltraServers"`
	}{next, servers}, nil
}
