package trainingplans

import (
	"strings"

	"github.com/gpublock/gpublock/model"
)

// Noun is what this source sells, in a sentence.
const Noun = "training plan"

// ModelOffering is the offering as the front ends show and compare it: its zone, type and
// start are its first part's, its end its last part's, its count its largest part's, and
// its hours the sum of its parts' (a gap between parts is not reserved, nor paid).
func ModelOffering(o Offering) model.Offering {
	m := model.Offering{Source: model.SourceTrainingPlan, ID: o.ID, Region: o.Region, DurationHours: int(o.Hours),
		Fee: o.Fee, Currency: o.Currency, Targets: append([]string(nil), o.Targets...)}
	for _, c := range o.Capacities {
		m.Parts = append(m.Parts, model.Part{AvailabilityZone: c.AvailabilityZone, InstanceType: c.InstanceType, Count: c.Count,
			UltraServerType: c.UltraServerType, UltraServerCount: c.UltraServerCount, Start: c.Start, End: c.End, Hours: c.Hours})
		m.Count = max(m.Count, c.Count)
	}
	if len(o.Capacities) > 0 {
		first := o.Capacities[0]
		m.AvailabilityZone, m.InstanceType = first.AvailabilityZone, first.InstanceType
		m.UltraServerType, m.UltraServerCount = first.UltraServerType, first.UltraServerCount
		m.Start, m.End = o.Start(), o.End()
		m.ZoneType = "availability-zone"
	}
	if m.DurationHours == 0 {
		m.DurationHours = int(model.PartsHours(m.Parts))
	}
	return m
}

// OfferingFromModel is the offering ModelOffering made, back in this source's terms, to
// buy it.
func OfferingFromModel(m model.Offering) Offering {
	o := Offering{ID: m.ID, Region: m.Region, Targets: append([]string(nil), m.Targets...), Hours: int64(m.DurationHours),
		Fee: m.Fee, Currency: m.Currency}
	for _, p := range m.Parts {
		o.Capacities = append(o.Capacities, Capacity{AvailabilityZone: p.AvailabilityZone, InstanceType: p.InstanceType, Count: p.Count,
			UltraServerType: p.UltraServerType, UltraServerCount: p.UltraServerCount, Start: p.Start, End: p.End, Hours: p.Hours})
	}
	return o
}

// State is a plan status as a reservation's state: Pending is a payment pending.
func State(status string) model.BlockState {
	switch status {
	case StatusPending:
		return model.StatePaymentPending
	case StatusScheduled:
		return model.StateScheduled
	case StatusActive:
		return model.StateActive
	case StatusExpired:
		return model.StateExpired
	case StatusFailed:
		return model.StateFailed
	}
	return model.BlockState(status)
}

// ModelBlock is the plan as a reservation beside Capacity Blocks: ReservationID is its
// name, its zone and type its first part's, its counts the plan's totals.
func ModelBlock(p Plan) model.Block {
	b := model.Block{Source: model.SourceTrainingPlan, Account: ARNAccount(p.ARN), ReservationID: p.Name, Region: p.Region, ARN: p.ARN,
		TotalCount: p.Instances, AvailableCount: p.Available, RunningCount: p.InUse, State: State(p.Status),
		Start: p.Start, End: p.End, Targets: append([]string(nil), p.Targets...), Fee: p.Fee, Currency: p.Currency,
		StatusMessage: p.StatusMessage}
	for _, c := range p.Capacities {
		b.Parts = append(b.Parts, model.Part{AvailabilityZone: c.AvailabilityZone, InstanceType: c.InstanceType, Count: c.Count,
			UltraServerType: c.UltraServerType, UltraServerCount: c.UltraServerCount, Start: c.Start, End: c.End, Hours: c.Hours,
			ARN: c.ARN, Status: c.Status})
	}
	if len(p.Capacities) > 0 {
		b.AvailabilityZone, b.InstanceType = p.Capacities[0].AvailabilityZone, p.Capacities[0].InstanceType
	}
	return b
}

// PlanFromBlock is the plan ModelBlock made, back in this source's terms, to extend it.
func PlanFromBlock(b model.Block) Plan {
	p := Plan{Name: b.ReservationID, ARN: b.ARN, Region: b.Region, Status: model.PlanStatus(b.State), StatusMessage: b.StatusMessage,
		Start: b.Start, End: b.End, Hours: b.Hours(), Fee: b.Fee, Currency: b.Currency, Instances: b.TotalCount,
		Available: b.AvailableCount, InUse: b.RunningCount, Targets: append([]string(nil), b.Targets...)}
	for _, c := range b.Parts {
		p.Capacities = append(p.Capacities, ReservedCapacity{ARN: c.ARN, Status: c.Status, AvailabilityZone: c.AvailabilityZone,
			InstanceType: c.InstanceType, Count: c.Count, UltraServerType: c.UltraServerType, UltraServerCount: c.UltraServerCount,
			Start: c.Start, End: c.End, Hours: c.Hours})
	}
	return p
}

// arnRegion is the region of a plan's ARN, "" for a name.
func arnRegion(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return ""
	}
	return parts[3]
}

// ARNAccount is the account of an ARN (arn:aws:sagemaker:REGION:ACCOUNT:training-plan/NAME),
// "" when it names none.
func ARNAccount(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return ""
	}
	return parts[4]
}
