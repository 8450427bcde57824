package export

import (
	"encoding/json"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// ReservedCapacityOffering is one part of a training plan offering, in AWS's field names.
type ReservedCapacityOffering struct {
	AvailabilityZone string
	InstanceType     string
	InstanceCount    int
	UltraServerType  string `json:",omitempty"`
	UltraServerCount int    `json:",omitempty"`
	StartTime        string
	EndTime          string
	DurationHours    int64
}

func planRow(o model.Offering, c pricing.Comparison) Offering {
	j := Offering{Source: o.Source, TrainingPlanOfferingId: o.ID, InstanceType: o.InstanceType, AvailabilityZone: o.AvailabilityZone,
		InstanceCount: o.Count, StartDate: o.Start.UTC().Format(time.RFC3339), EndDate: o.End.UTC().Format(time.RFC3339),
		DurationHours: int64(o.DurationHours), UpfrontFee: o.Fee.String(), CurrencyCode: o.Currency, Region: o.Region,
		TargetResources: o.Targets, PriceUnit: c.Unit, EffectiveHourlyPrice: c.EffectiveHourly, AcceleratorHourlyPrice: c.AcceleratorHourly,
		PriceSource: priceSource(c), NoOnDemandReason: c.NoOnDemandReason}
	if !c.NoOnDemand {
		od := c.OnDemandHourly
		j.OnDemandHourlyPrice = &od
	}
	if u, ok := c.BreakEvenFloat(); ok {
		j.BreakEvenUtilization = &u
	}
	for _, p := range o.Parts {
		j.ReservedCapacityOfferings = append(j.ReservedCapacityOfferings, ReservedCapacityOffering{AvailabilityZone: p.AvailabilityZone,
			InstanceType: p.InstanceType, InstanceCount: p.Count, UltraServerType: p.UltraServerType, UltraServerCount: p.UltraServerCount,
			StartTime: p.Start.UTC().Format(time.RFC3339), EndTime: p.End.UTC().Format(time.RFC3339), DurationHours: p.Hours})
	}
	return j
}

// planJSON is a training plan's row without the Capacity Block fields it has no value for.
type planJSON struct {
	Source                    model.Source
	TrainingPlanOfferingId    string
	TargetResources           []string
	InstanceType              string
	AvailabilityZone          string
	InstanceCount             int
	StartDate                 string
	EndDate                   string
	DurationHours             int64
	UpfrontFee                string
	CurrencyCode              string
	Region                    string
	ReservedCapacityOfferings []ReservedCapacityOffering
	PriceUnit                 string
	EffectiveHourlyPrice      model.Money
	AcceleratorHourlyPrice    model.Money
	OnDemandHourlyPrice       *model.Money `json:",omitempty"`
	BreakEvenUtilization      *float64
	PriceSource               string
	NoOnDemandReason          string `json:",omitempty"`
}

// MarshalJSON writes a Capacity Block's row as it is, and a training plan's with its own
// fields only: a CapacityBlockDurationMinutes of 0 on a plan would mean nothing.
func (o Offering) MarshalJSON() ([]byte, error) {
	type plain Offering
	if o.Source != model.SourceTrainingPlan {
		return json.Marshal(plain(o))
	}
	return json.Marshal(planJSON{Source: o.Source, TrainingPlanOfferingId: o.TrainingPlanOfferingId, TargetResources: o.TargetResources,
		InstanceType: o.InstanceType, AvailabilityZone: o.AvailabilityZone, InstanceCount: o.InstanceCount, StartDate: o.StartDate,
		EndDate: o.EndDate, DurationHours: o.DurationHours, UpfrontFee: o.UpfrontFee, CurrencyCode: o.CurrencyCode, Region: o.Region,
		ReservedCapacityOfferings: o.ReservedCapacityOfferings, PriceUnit: o.PriceUnit, EffectiveHourlyPrice: o.EffectiveHourlyPrice,
		AcceleratorHourlyPrice: o.AcceleratorHourlyPrice, OnDemandHourlyPrice: o.OnDemandHourlyPrice,
		BreakEvenUtilization: o.BreakEvenUtilization, PriceSource: o.PriceSource, NoOnDemandReason: o.NoOnDemandReason})
}
