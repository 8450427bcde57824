package sagemakersim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

const currency = "USD"

func planARN(account, region, name string) string {
	return "arn:aws:sagemaker:" + region + ":" + account + ":training-plan/" + name
}

// capacityARN is the ARN of a plan's i-th reserved capacity, in the account of the plan's
// ARN (the one it was bought in).
func capacityARN(region string, p *plan, i int) string {
	account := accountOf(p.ARN)
	return fmt.Sprintf("arn:aws:sagemaker:%s:%s:reserved-capacity/%s-rc%d", region, account, p.Name, i+1)
}

// accountOf is the account of an ARN (its fifth field), or the demo account when the
// ARN has none.
func accountOf(arn string) string {
	if parts := strings.SplitN(arn, ":", 6); len(parts) == 6 && parts[4] != "" {
		return parts[4]
	}
	return simcore.DemoAccount
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
	for i, t := range in.TargetResources {
		if e := checkEnum("TargetResources", &t, targetResources); e != nil {
			return nil, e
		}
		// A list that names a resource twice is refused (whether AWS dedupes it instead is
		// UNCONFIRMED; refusing is the stricter reading).
		if slices.Contains(in.TargetResources[:i], t) {
			return nil, rule("TargetResources names %s more than once.", t)
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
	// Only a window given at both ends can be empty; a lone EndTimeBefore in the past finds
	// nothing (whether AWS refuses it is UNCONFIRMED).
	if in.StartTimeAfter != nil && in.EndTimeBefore != nil && !q.to.After(q.from) {
		return q, rule("EndTimeBefore (%s) must be after StartTimeAfter (%s).", q.to.Format(time.RFC3339), q.from.Format(time.RFC3339))
	}
	switch {
	case in.UltraServerType != nil:
		u, ok := ultraServers[*in.UltraServerType]
		if !ok {
			return q, rule("Invalid UltraServer type %s", *in.UltraServerType)
		}
		if in.InstanceCount != nil {
			return q, rule("InstanceCount is given with UltraServerType %s: an UltraServer plan is sized by UltraServerCount (each UltraServer holds %d instances).", *in.UltraServerType, u.instances)
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
