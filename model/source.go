package model

import (
	"fmt"
	"strings"
	"time"
)

// Source is the system a capacity offering or reservation belongs to. The zero value is
// an EC2 Capacity Block, so that code written before there was a second source keeps
// meaning what it meant.
type Source int

const (
	SourceCapacityBlock Source = iota // EC2 Capacity Blocks for ML
	SourceTrainingPlan                // SageMaker Training Plans
)

// Sources lists every source, in the order they are shown.
func Sources() []Source { return []Source{SourceCapacityBlock, SourceTrainingPlan} }

// Name is the source's name on the command line and in JSON.
func (s Source) Name() string {
	if s == SourceTrainingPlan {
		return "training-plans"
	}
	return "capacity-blocks"
}

// Label is the source as a column or a sentence shows it.
func (s Source) Label() string {
	if s == SourceTrainingPlan {
		return "Training Plan"
	}
	return "Capacity Block"
}

// String is the source's name.
func (s Source) String() string { return s.Name() }

// MarshalText writes the source's name, so JSON says "capacity-blocks" rather than 0.
func (s Source) MarshalText() ([]byte, error) { return []byte(s.Name()), nil }

// UnmarshalText reads a source's name.
func (s *Source) UnmarshalText(b []byte) error {
	v, err := ParseSource(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSource reads a source's name, as --source takes it.
func ParseSource(name string) (Source, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "capacity-blocks", "capacity-block", "ec2":
		return SourceCapacityBlock, nil
	case "training-plans", "training-plan", "sagemaker":
		return SourceTrainingPlan, nil
	}
	return 0, fmt.Errorf("unknown source %q: use capacity-blocks, training-plans or all", name)
}

// ParseSources reads --source: one source's name, or "all" (or "") for every source.
func ParseSources(name string) ([]Source, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "all", "both":
		return Sources(), nil
	}
	s, err := ParseSource(name)
	if err != nil {
		return nil, err
	}
	return []Source{s}, nil
}

// SageMakerType is the ml.* name of an EC2 instance or UltraServer type
// (p5.48xlarge → ml.p5.48xlarge); an ml.* name is kept.
func SageMakerType(ec2Type string) string {
	if ec2Type == "" || strings.HasPrefix(ec2Type, "ml.") {
		return ec2Type
	}
	return "ml." + ec2Type
}

// EC2Type is the EC2 name of an ml.* type (ml.p5.48xlarge → p5.48xlarge); an EC2 name is kept.
func EC2Type(typ string) string { return strings.TrimPrefix(typ, "ml.") }

// Part is one reserved capacity of a training plan or its offering: a plan may be made
// of several, in different zones and windows, with gaps between them.
type Part struct {
	AvailabilityZone string
	InstanceType     string // as the source names it (ml.* for a training plan)
	Count            int
	UltraServerType  string `json:",omitempty"`
	UltraServerCount int    `json:",omitempty"`
	Start, End       time.Time
	Hours            int64
	ARN              string `json:",omitempty"` // a reserved capacity's, once bought
	Status           string `json:",omitempty"`
}

// InstanceMinutes is the part's instance-minutes: its count × its length.
func (p Part) InstanceMinutes() int64 { return int64(p.Count) * p.minutes() }

func (p Part) minutes() int64 {
	if p.Hours > 0 {
		return p.Hours * 60
	}
	if p.End.After(p.Start) {
		return int64(p.End.Sub(p.Start) / time.Minute)
	}
	return 0
}

// PartsHours is the reserved time of parts: the sum of their lengths, never the span from
// the first start to the last end, which a gap would inflate.
func PartsHours(parts []Part) int64 {
	var n int64
	for _, p := range parts {
		n += p.minutes() / 60
	}
	return n
}

// InstanceMinutes is the instance-minutes the offering reserves: for an offering made of
// parts, each part's count × its length; otherwise the count × the length.
func (o Offering) InstanceMinutes() int64 {
	if len(o.Parts) > 0 {
		var n int64
		for _, p := range o.Parts {
			n += p.InstanceMinutes()
		}
		return n
	}
	return int64(o.Count) * o.Minutes()
}

// AcceleratorMinutes is the accelerator-minutes the offering reserves.
func (o Offering) AcceleratorMinutes() int64 {
	if len(o.Parts) == 0 {
		return int64(o.Accelerators()) * o.Minutes()
	}
	var n int64
	for _, p := range o.Parts {
		t, ok := LookupType(EC2Type(p.InstanceType))
		if !ok {
			continue
		}
		k := p.Count
		if t.UltraServer {
			k = max(1, p.UltraServerCount)
		}
		n += int64(k*t.Accelerators) * p.minutes()
	}
	return n
}

// PartsGaps is how many times the parts' capacity stops before the next part starts: what
// a job using the plan must survive.
func PartsGaps(parts []Part) int {
	n := 0
	for i := 1; i < len(parts); i++ {
		if parts[i].Start.After(parts[i-1].End) {
			n++
		}
	}
	return n
}
