// Package export writes offerings, each with its comparison against on-demand, in the
// formats scripts and spreadsheets read: the rows of gpublock offerings -o json and -o csv,
// and the TUI's export of its table, which must be the same file.
package export

import (
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Offering uses the AWS CLI's field names, plus Region and Source. A training plan's row
// has SearchTrainingPlanOfferings' names instead of the Capacity Block ones (see plan.go).
type Offering struct {
	Source                       model.Source
	CapacityBlockOfferingId      string
	InstanceType                 string
	AvailabilityZone             string
	InstanceCount                int
	StartDate                    string
	EndDate                      string
	CapacityBlockDurationHours   int
	CapacityBlockDurationMinutes int
	UpfrontFee                   string
	CurrencyCode                 string
	Tenancy                      string
	UltraserverType              string `json:",omitempty"`
	UltraserverCount             int    `json:",omitempty"`
	ZoneType                     string `json:",omitempty"` // availability-zone or local-zone
	// CapacityBlockOfferingSegments are a segmented offering's segments, in AWS's names;
	// absent for a plain offering.
	CapacityBlockOfferingSegments []Segment `json:",omitempty"`
	Region                        string

	// Against on-demand (pricing.Compare). Rates are per PriceUnit-hour ("instance", or
	// "UltraServer" for UltraServer types), exact decimal strings like UpfrontFee, rounded to
	// the micro-dollar. Without an on-demand price OnDemandHourlyPrice is left out,
	// BreakEvenUtilization is null and NoOnDemandReason says why: nothing is guessed.
	PriceUnit              string
	EffectiveHourlyPrice   model.Money  // the fee per unit-hour of the whole block
	AcceleratorHourlyPrice model.Money  // the fee per accelerator-hour of the whole block
	OnDemandHourlyPrice    *model.Money `json:",omitempty"`
	// BreakEvenUtilization = fee ÷ (on-demand × units × hours), 0–1 (above 1 the block never
	// costs less than on-demand).
	BreakEvenUtilization *float64
	PriceSource          string // the on-demand figure's source and date
	NoOnDemandReason     string `json:",omitempty"`

	// A training plan's (SearchTrainingPlanOfferings' names).
	TrainingPlanOfferingId    string                     `json:",omitempty"`
	DurationHours             int64                      `json:",omitempty"`
	TargetResources           []string                   `json:",omitempty"`
	ReservedCapacityOfferings []ReservedCapacityOffering `json:",omitempty"`
}

// Row is o, compared with on-demand as c, in the fields of Offering.
func Row(o model.Offering, c pricing.Comparison) Offering {
	if o.Source == model.SourceTrainingPlan {
		return planRow(o, c)
	}
	j := Offering{
		CapacityBlockOfferingId:      o.ID,
		InstanceType:                 o.InstanceType,
		AvailabilityZone:             o.AvailabilityZone,
		InstanceCount:                o.Count,
		StartDate:                    o.Start.UTC().Format(time.RFC3339),
		EndDate:                      o.End.UTC().Format(time.RFC3339),
		CapacityBlockDurationHours:   o.DurationHours,
		CapacityBlockDurationMinutes: o.DurationMinutes,
		UpfrontFee:                   o.Fee.String(),
		CurrencyCode:                 o.Currency,
		Tenancy:                      o.Tenancy,
		UltraserverType:              o.UltraServerType,
		UltraserverCount:             o.UltraServerCount,
		ZoneType:                     o.ZoneType,
		Region:                       o.Region,
		PriceUnit:                    c.Unit,
		EffectiveHourlyPrice:         c.EffectiveHourly,
		AcceleratorHourlyPrice:       c.AcceleratorHourly,
		PriceSource:                  priceSource(c),
		NoOnDemandReason:             c.NoOnDemandReason,
	}
	if !c.NoOnDemand {
		od := c.OnDemandHourly
		j.OnDemandHourlyPrice = &od
	}
	if u, ok := c.BreakEvenFloat(); ok {
		j.BreakEvenUtilization = &u
	}
	j.CapacityBlockOfferingSegments = segments(o)
	// The model counts UltraServers; AWS's fields describe the member instances.
	if t, ok := model.LookupType(o.UltraServerType); ok && t.UltraServer {
		j.InstanceType = t.MemberType
		j.InstanceCount = t.Instances * max(o.UltraServerCount, 1)
	}
	return j
}

// priceSource names where the on-demand figure comes from and its date, or is empty when
// the catalog has no row for the type and region.
func priceSource(c pricing.Comparison) string {
	switch {
	case c.Source == "":
		return ""
	case c.AsOf == "":
		return c.Source
	}
	return c.Source + ", " + c.AsOf
}

// Segment is one segment of a segmented offering in AWS's names
// (CapacityBlockOfferingSegment).
type Segment struct {
	AvailabilityZone             string
	AvailabilityZoneId           string `json:",omitempty"`
	InstanceType                 string
	InstanceCount                int
	StartDate                    string
	EndDate                      string
	CapacityBlockDurationHours   int64
	CapacityBlockDurationMinutes int
	UpfrontFee                   string
	CurrencyCode                 string
	ZoneType                     string `json:",omitempty"`
}

func segments(o model.Offering) []Segment {
	if !o.Segmented() {
		return nil
	}
	out := make([]Segment, len(o.Parts))
	for i, p := range o.Parts {
		cur := p.Currency
		if cur == "" {
			cur = o.Currency
		}
		out[i] = Segment{AvailabilityZone: p.AvailabilityZone, AvailabilityZoneId: p.AvailabilityZoneID, InstanceType: p.InstanceType,
			InstanceCount: p.Count, StartDate: p.Start.UTC().Format(time.RFC3339), EndDate: p.End.UTC().Format(time.RFC3339),
			CapacityBlockDurationHours: p.Hours, CapacityBlockDurationMinutes: p.Minutes, UpfrontFee: p.Fee.String(),
			CurrencyCode: cur, ZoneType: p.ZoneType}
	}
	return out
}
