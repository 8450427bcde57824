package advisor

import (
	"encoding/json"
	"math/big"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// Kind is a way of paying for capacity.
type Kind string

const (
	OnDemand      Kind = "on-demand"
	CapacityBlock Kind = "capacity-block"
	TrainingPlan  Kind = "training-plan"
	SavingsPlan1y Kind = "savings-plan-1y"
	SavingsPlan3y Kind = "savings-plan-3y"
	Spot          Kind = "spot"
)

// Kinds lists every option in the order the decision tree visits them.
var Kinds = []Kind{OnDemand, CapacityBlock, TrainingPlan, SavingsPlan1y, SavingsPlan3y, Spot}

// Title is the option's name for people.
func (k Kind) Title() string {
	switch k {
	case OnDemand:
		return "On-demand"
	case CapacityBlock:
		return "Capacity Block"
	case TrainingPlan:
		return "Training Plan"
	case SavingsPlan1y:
		return "Savings Plan 1y"
	case SavingsPlan3y:
		return "Savings Plan 3y"
	case Spot:
		return "Spot"
	}
	return string(k)
}

// Reserved reports whether the option reserves capacity from a live offering.
func (k Kind) Reserved() bool { return k == CapacityBlock || k == TrainingPlan }

// Offering is a live offering, with its source (Offering.Source), and when it was found.
// A Training Plan's InstanceType may carry SageMaker's "ml." prefix.
type Offering struct {
	Offering model.Offering
	Found    time.Time
}

// Inputs are the figures the advisor works from.
type Inputs struct {
	Catalog   *pricing.Catalog // nil: the embedded one
	Offerings []Offering
	// Searched names the sources whose search ran; a source not named is said to be not
	// searched, rather than to have nothing on offer.
	Searched map[model.Source]bool
	Now      time.Time
}

// Figure is one number an option rests on, with where it comes from.
type Figure struct {
	What   string // "on-demand p5.48xlarge us-east-1"
	Value  string // "$55.040/h"
	Source string
	Date   string // as precise as the source, or the time of the live answer
	Live   bool   `json:",omitempty"`
}

// Guarantee says what an option promises.
type Guarantee struct {
	Capacity     string
	Price        string
	Interruption string
}

// Option is one way of paying for the job.
type Option struct {
	Kind         Kind
	InstanceType string `json:",omitempty"`
	Region       string `json:",omitempty"`
	Instances    int    `json:",omitempty"`
	Accelerators int    `json:",omitempty"` // in all instances
	// Known: Total is this job's exact cost (to the micro-dollar).
	Known bool
	Total model.Money
	// PerUsefulAcceleratorHour is Total over the accelerator-hours of useful work, rounded.
	PerUsefulAcceleratorHour model.Money
	// HasRange: the cost is not known, but lies between Low and High.
	HasRange bool
	Low      model.Money
	High     model.Money
	// PerLow and PerHigh are the range per useful accelerator-hour.
	PerLow, PerHigh model.Money
	// Unknown says what is not known (a figure missing, a source not searched).
	Unknown   string `json:",omitempty"`
	Guarantee Guarantee
	// RuledOut says why the option does not fit this job; "" when it does.
	RuledOut string   `json:",omitempty"`
	Notes    []string `json:",omitempty"`
	Figures  []Figure
	Offering *Offering `json:",omitempty"` // the live offering of a reserved option

	// the option's cost against utilization u ∈ [0,1]: fixed + variable·u
	fixed, variable model.Money
}

// Eligible reports whether the option fits the job.
func (o Option) Eligible() bool { return o.RuledOut == "" }

// costKey orders options by cost: a known total, else the low end of a range; ok is false
// when nothing is known.
func (o Option) costKey() (model.Money, bool) {
	switch {
	case o.Known:
		return o.Total, true
	case o.HasRange:
		return o.Low, true
	}
	return model.Money{}, false
}

// CostAt is the option's exact cost for the job at a utilization (0–1), and false when the
// option has no known cost.
func (o Option) CostAt(u pricing.Ratio) (model.Money, bool) {
	if !o.Known || !u.Valid() || o.fixed.Overflowed() || o.variable.Overflowed() {
		return model.Money{}, false
	}
	v := new(big.Rat).Mul(u.Rat(), new(big.Rat).SetInt64(o.variable.Micros()))
	v.Add(v, new(big.Rat).SetInt64(o.fixed.Micros()))
	return model.MoneyFromMicros(roundRat(v)), true
}

// roundRat rounds to the nearest whole number, halves away from zero.
func roundRat(r *big.Rat) int64 {
	half := big.NewRat(1, 2)
	if r.Sign() < 0 {
		half.Neg(half)
	}
	v := new(big.Rat).Add(r, half)
	return new(big.Int).Quo(v.Num(), v.Denom()).Int64()
}

// MarshalJSON writes the option for scripts: a total only when it is known, a range only
// when one is, so that an unknown figure never reads as $0.00.
func (o Option) MarshalJSON() ([]byte, error) {
	type rng struct{ Low, High, PerUsefulAcceleratorHourLow, PerUsefulAcceleratorHourHigh model.Money }
	out := struct {
		Kind                     Kind
		Title                    string
		Eligible                 bool
		InstanceType             string       `json:",omitempty"`
		Region                   string       `json:",omitempty"`
		Instances                int          `json:",omitempty"`
		Accelerators             int          `json:",omitempty"`
		Total                    *model.Money `json:",omitempty"`
		PerUsefulAcceleratorHour *model.Money `json:",omitempty"`
		Range                    *rng         `json:",omitempty"`
		Unknown                  string       `json:",omitempty"`
		RuledOut                 string       `json:",omitempty"`
		Guarantee                Guarantee
		Notes                    []string  `json:",omitempty"`
		Figures                  []Figure  `json:",omitempty"`
		Offering                 *Offering `json:",omitempty"`
	}{Kind: o.Kind, Title: o.Kind.Title(), Eligible: o.Eligible(), InstanceType: o.InstanceType, Region: o.Region, Instances: o.Instances,
		Accelerators: o.Accelerators, Unknown: o.Unknown, RuledOut: o.RuledOut, Guarantee: o.Guarantee, Notes: o.Notes, Figures: o.Figures, Offering: o.Offering}
	if o.Known {
		t, p := o.Total, o.PerUsefulAcceleratorHour
		out.Total, out.PerUsefulAcceleratorHour = &t, &p
	}
	if o.HasRange {
		out.Range = &rng{o.Low, o.High, o.PerLow, o.PerHigh}
	}
	return json.Marshal(out)
}
