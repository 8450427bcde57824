package sagemakersim

import (
	"maps"
	"slices"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/model"
)

// regionState is everything one region's SageMaker remembers, saved in the state file.
type regionState struct {
	simcore.Market[offering, extOffering]
	Plans []*plan `json:"plans"`
}

// fill makes a new state, or one loaded from JSON, safe to use.
func (rs *regionState) fill() {
	rs.FillMarket()
	rs.Plans = slices.DeleteFunc(rs.Plans, func(p *plan) bool { return p == nil || len(p.Caps) == 0 })
	for _, p := range rs.Plans {
		p.Extensions = slices.DeleteFunc(p.Extensions, func(e *extension) bool { return e == nil })
	}
	maps.DeleteFunc(rs.Offerings, func(_ string, o *offering) bool { return len(o.Caps) == 0 })
}

// capacity is one reserved capacity: of an offering, or of a plan.
type capacity struct {
	AZ           string    `json:"az"`
	AZID         string    `json:"azId"`
	InstanceType string    `json:"instanceType"`
	Count        int       `json:"count"` // instances
	UltraType    string    `json:"ultraType,omitempty"`
	UltraCount   int       `json:"ultraCount,omitempty"`
	Start        time.Time `json:"start"`
	End          time.Time `json:"end"`
}

func (c capacity) hours() int64 { return int64(c.End.Sub(c.Start) / time.Hour) }

// supply is the EC2 catalog name of what the capacity draws on: the UltraServer type, or
// the instance type.
func (c capacity) supply() string {
	if c.UltraType != "" {
		return catalogName(c.UltraType)
	}
	return catalogName(c.InstanceType)
}

type offering struct {
	ID       string      `json:"id"`
	Targets  []string    `json:"targets"`
	Caps     []capacity  `json:"capacities"`
	Fee      model.Money `json:"fee"`
	ReqStart time.Time   `json:"requestedStart,omitzero"`
	ReqEnd   time.Time   `json:"requestedEnd,omitzero"`
	Gone     bool        `json:"gone,omitempty"`
}

// extOffering is an offering to extend a plan, in the zone of its last capacity.
type extOffering struct {
	simcore.ExtensionOffer
	PlanName string `json:"plan"`
	AZ       string `json:"az"`
	AZID     string `json:"azId"`
}

type tag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

type plan struct {
	Name       string       `json:"name"`
	ARN        string       `json:"arn"`
	OfferingID string       `json:"offeringId"`
	Targets    []string     `json:"targets"`
	Caps       []capacity   `json:"capacities"`
	Fee        model.Money  `json:"fee"`
	Created    time.Time    `json:"created"`
	Spare      int          `json:"spare,omitempty"`
	Tags       []tag        `json:"tags,omitempty"`
	Extensions []*extension `json:"extensions,omitempty"`
	simcore.Payment
}

// extension is an extension bought, in the zone of the plan's last capacity.
type extension struct {
	simcore.Extension
	AZ   string `json:"az"`
	AZID string `json:"azId"`
}

// Extension statuses: the docs show Pending → Active, and payment Pending → Completed;
// what a failed payment shows is UNCONFIRMED, and Failed is used for both.
func (e *extension) statuses(now time.Time) (status, payment string) {
	switch {
	case e.Pending(now):
		return "Pending", "Pending"
	case e.Failed(now):
		return "Failed", "Failed"
	}
	return "Active", "Completed"
}

func (e *extension) paid(now time.Time) bool { return e.Paid(now) }

// capacities are the plan's reserved capacities at now: a paid extension moves the end
// of the last one.
func (p *plan) capacities(now time.Time) []capacity {
	out := slices.Clone(p.Caps)
	last := &out[len(out)-1]
	for _, e := range p.Extensions {
		if e.paid(now) && e.End.After(last.End) {
			last.End = e.End
		}
	}
	return out
}

func (p *plan) start() time.Time { return p.Caps[0].Start }

func (p *plan) end(now time.Time) time.Time {
	caps := p.capacities(now)
	return caps[len(caps)-1].End
}

// status is the plan's status at now: Pending until paid, Failed when the payment
// failed (final), then Scheduled, Active while a capacity runs (Scheduled again in a gap
// between capacities), Expired after the last one.
func (p *plan) status(now time.Time) string {
	switch {
	case p.Pending(now):
		return "Pending"
	case p.Failed(now):
		return "Failed"
	case !now.Before(p.end(now)):
		return "Expired"
	}
	for _, c := range p.capacities(now) {
		if !now.Before(c.Start) && now.Before(c.End) {
			return "Active"
		}
	}
	return "Scheduled"
}

// capStatus is one reserved capacity's status at now.
func (p *plan) capStatus(c capacity, now time.Time) string {
	switch st := p.status(now); st {
	case "Pending", "Failed":
		return st
	}
	switch {
	case now.Before(c.Start):
		return "Scheduled"
	case now.Before(c.End):
		return "Active"
	}
	return "Expired"
}

// hours is the plan's reserved time: the sum of its capacities' lengths, not the span
// from first start to last end, since a plan may have gaps.
func (p *plan) hours(now time.Time) int64 {
	var h int64
	for _, c := range p.capacities(now) {
		h += c.hours()
	}
	return h
}

func (p *plan) instances() int {
	n := 0
	for _, c := range p.Caps {
		n = max(n, c.Count)
	}
	return n
}

func (p *plan) pendingExtension(now time.Time) bool {
	for _, e := range p.Extensions {
		if e.Pending(now) {
			return true
		}
	}
	return false
}

// holds reports whether the plan counts against the quota at now.
func (p *plan) holds(now time.Time) bool {
	st := p.status(now)
	return st != "Failed" && st != "Expired"
}

func (rs *regionState) plan(name string) *plan {
	return simcore.Find(rs.Plans, func(p *plan) bool { return p.Name == name })
}

func (rs *regionState) planByARN(arn string) *plan {
	return simcore.Find(rs.Plans, func(p *plan) bool { return p.ARN == arn })
}

// settle gives back the capacity of failed payments. It reports a change.
func (h *handler) settle(rs *regionState, now time.Time) bool {
	changed := false
	for _, p := range rs.Plans {
		if p.Release(now) {
			for _, c := range p.Caps {
				consume(rs, c.AZ, c.supply(), c.Start, c.End, -c.units())
			}
			changed = true
		}
		for _, e := range p.Extensions {
			if e.Release(now) {
				last := p.Caps[len(p.Caps)-1]
				consume(rs, e.AZ, last.supply(), e.Start, e.End, -last.units())
				changed = true
			}
		}
	}
	for id, o := range rs.Offerings {
		if !o.Caps[0].Start.After(now) {
			delete(rs.Offerings, id)
			changed = true
		}
	}
	for id, o := range rs.ExtOfferings {
		if !o.Start.After(now) {
			delete(rs.ExtOfferings, id)
			changed = true
		}
	}
	return changed
}

// units is what a capacity takes from the supply: UltraServers, or instances.
func (c capacity) units() int {
	if c.UltraType != "" {
		return c.UltraCount
	}
	return c.Count
}
