package model

import (
	"fmt"
	"slices"
	"strings"
)

// Source is where an offering or a reservation comes from: an EC2 Capacity Block or a
// SageMaker Training Plan. Its value is the name the commands take (--source) and the
// JSON carries.
type Source string

const (
	SourceCapacityBlocks Source = "capacity-blocks"
	SourceTrainingPlans  Source = "training-plans"
)

// Sources lists every source, in the order the search form and help show them.
func Sources() []Source { return []Source{SourceCapacityBlocks, SourceTrainingPlans} }

// SourceAll is what --source takes for every source at once.
const SourceAll = "all"

// ParseSource reads a --source value, in any case; "all" gives every source. A few
// obvious synonyms are accepted (ec2, blocks, sagemaker, plans), never a guess.
func ParseSource(s string) ([]Source, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case SourceAll, "both":
		return Sources(), nil
	case string(SourceCapacityBlocks), "capacity-block", "blocks", "block", "ec2", "cb":
		return []Source{SourceCapacityBlocks}, nil
	case string(SourceTrainingPlans), "training-plan", "plans", "plan", "sagemaker", "tp":
		return []Source{SourceTrainingPlans}, nil
	}
	return nil, fmt.Errorf("source %q: want %s, %s or %s", s, SourceCapacityBlocks, SourceTrainingPlans, SourceAll)
}

// Valid reports whether s is one of Sources.
func (s Source) Valid() bool { return slices.Contains(Sources(), s) }

// Name is the source's singular display name: "EC2 Capacity Block".
func (s Source) Name() string {
	switch s {
	case SourceCapacityBlocks:
		return "EC2 Capacity Block"
	case SourceTrainingPlans:
		return "SageMaker Training Plan"
	}
	return string(s)
}

// Plural is the source's name for many: "EC2 Capacity Blocks".
func (s Source) Plural() string {
	if s.Valid() {
		return s.Name() + "s"
	}
	return string(s)
}

// Short is the source's name in a narrow column: "Block" or "Plan".
func (s Source) Short() string {
	switch s {
	case SourceCapacityBlocks:
		return "Block"
	case SourceTrainingPlans:
		return "Plan"
	}
	return string(s)
}

// Service is the AWS service that sells the source: "EC2" or "SageMaker". Prices, quotas
// and rate limits are per service.
func (s Source) Service() string {
	switch s {
	case SourceCapacityBlocks:
		return "EC2"
	case SourceTrainingPlans:
		return "SageMaker"
	}
	return ""
}

// sageMakerPrefix is how SageMaker names instance types: ml.p5.48xlarge.
const sageMakerPrefix = "ml."

// trainingPlanTypes are the instance types a training plan reserves, SageMaker's
// ReservedCapacityInstanceType enum (reference §3, SDK v1.290.0), and the UltraServer
// types it reserves by UltraServerType (reference §5).
var (
	trainingPlanTypes = []string{"ml.p4d.24xlarge", "ml.p5.48xlarge", "ml.p5e.48xlarge", "ml.p5en.48xlarge", "ml.trn1.32xlarge",
		"ml.trn2.48xlarge", "ml.p6-b200.48xlarge", "ml.p4de.24xlarge", "ml.p6e-gb200.36xlarge", "ml.p5.4xlarge", "ml.p6-b300.48xlarge"}
	trainingPlanUltraServers = []string{"ml.u-p6e-gb200x72", "ml.u-p6e-gb200x36"}
)

// TrainingPlanTypes lists the ml.* instance and UltraServer types training plans reserve.
func TrainingPlanTypes() []string {
	return append(slices.Clone(trainingPlanTypes), trainingPlanUltraServers...)
}

// IsTrainingPlanUltraServer reports whether the (ml.* or EC2) name is an UltraServer type
// of training plans, whose count is of UltraServers, not instances.
func IsTrainingPlanUltraServer(typ string) bool {
	return slices.Contains(trainingPlanUltraServers, sageMakerPrefix+strings.TrimPrefix(typ, sageMakerPrefix))
}

// SageMakerTypeOf is the training-plan name of a Capacity Block type (p5.48xlarge →
// ml.p5.48xlarge), only when both sources sell it.
func SageMakerTypeOf(ec2Type string) (string, bool) {
	if strings.HasPrefix(ec2Type, sageMakerPrefix) {
		return "", false
	}
	ml := sageMakerPrefix + ec2Type
	if _, ok := LookupType(ec2Type); !ok || !slices.Contains(TrainingPlanTypes(), ml) {
		return "", false
	}
	return ml, true
}

// EC2TypeOf is the Capacity Block name of a training-plan type (ml.p5.48xlarge →
// p5.48xlarge), only when both sources sell it.
func EC2TypeOf(mlType string) (string, bool) {
	ec2, ok := strings.CutPrefix(mlType, sageMakerPrefix)
	if !ok || !slices.Contains(TrainingPlanTypes(), mlType) {
		return "", false
	}
	if _, sold := LookupType(ec2); !sold {
		return "", false
	}
	return ec2, true
}

// TypeIn is the name of an instance type, given in either form, as the source sells it;
// the error says what the source sells instead.
func (s Source) TypeIn(typ string) (string, error) {
	typ = strings.TrimSpace(typ)
	switch s {
	case SourceCapacityBlocks:
		name := typ
		if ec2, ok := strings.CutPrefix(typ, sageMakerPrefix); ok {
			name = ec2
		}
		if _, ok := LookupType(name); ok {
			return name, nil
		}
		return "", fmt.Errorf("%s: Capacity Blocks do not sell %s (they sell %s)", s.Plural(), name, strings.Join(capacityBlockTypeNames(), ", "))
	case SourceTrainingPlans:
		ml := sageMakerPrefix + strings.TrimPrefix(typ, sageMakerPrefix)
		if slices.Contains(TrainingPlanTypes(), ml) {
			return ml, nil
		}
		return "", fmt.Errorf("%s: training plans do not reserve %s (they reserve %s)", s.Plural(), ml, strings.Join(TrainingPlanTypes(), ", "))
	}
	return "", fmt.Errorf("unknown source %q", s)
}

func capacityBlockTypeNames() []string {
	var out []string
	for _, t := range catalog {
		out = append(out, t.Name)
	}
	return out
}

// TrainingPlanCounts are the instance counts a training plan may reserve (reference §5).
var TrainingPlanCounts = []int{1, 2, 4, 8, 16, 32, 64}

// TrainingPlanMaxDays is the longest training plan, and the longest extension: 182 days.
const TrainingPlanMaxDays = 182

// CheckCount is the source's rule on how many instances (UltraServers, for an UltraServer
// type of training plans) one reservation holds; the error names the rule.
func (s Source) CheckCount(instanceType string, n int) error {
	switch s {
	case SourceCapacityBlocks:
		if n < MinCount || n > MaxCount {
			return fmt.Errorf("%s hold %d to %d instances, not %d", s.Plural(), MinCount, MaxCount, n)
		}
		return nil
	case SourceTrainingPlans:
		if IsTrainingPlanUltraServer(instanceType) {
			// UltraServerCount has a minimum of 1 and no documented maximum; the quota
			// decides beyond that (UNCONFIRMED), so only the minimum is checked.
			if n < 1 {
				return fmt.Errorf("%s reserve at least 1 UltraServer, not %d", s.Plural(), n)
			}
			return nil
		}
		if !slices.Contains(TrainingPlanCounts, n) {
			return fmt.Errorf("%s reserve 1, 2, 4, 8, 16, 32 or 64 instances, not %d", s.Plural(), n)
		}
		return nil
	}
	return fmt.Errorf("unknown source %q", s)
}

// CheckDays is the source's rule on a reservation's length in days.
func (s Source) CheckDays(days int) error {
	switch s {
	case SourceCapacityBlocks:
		if !ValidDuration(days) {
			return fmt.Errorf("%s last %s, not %d days", s.Plural(), durationHelp, days)
		}
		return nil
	case SourceTrainingPlans:
		if days < 1 || days > TrainingPlanMaxDays {
			return fmt.Errorf("%s last 1 to %d whole days, not %d", s.Plural(), TrainingPlanMaxDays, days)
		}
		return nil
	}
	return fmt.Errorf("unknown source %q", s)
}

// CheckExtensionDays is the source's rule on how long one extension is. Both extend by 1
// to 14 days, then by whole weeks up to 182 days (reference §5 for plans, the EC2
// reference for blocks), which is ValidDuration's set; the error names the source.
func (s Source) CheckExtensionDays(days int) error {
	if !s.Valid() {
		return fmt.Errorf("unknown source %q", s)
	}
	if !ValidDuration(days) {
		return fmt.Errorf("%s are extended by 1 to 14 days, or by whole weeks up to %d days, not %d", s.Plural(), TrainingPlanMaxDays, days)
	}
	return nil
}

// DurationDays lists the lengths from `from` to `to` days, both included, that the source
// sells: a range 15d–20d holds nothing for Capacity Blocks and six lengths for plans.
func (s Source) DurationDays(from, to int) []int {
	var out []int
	for d := max(from, 1); d <= to && d <= TrainingPlanMaxDays; d++ {
		if s.CheckDays(d) == nil {
			out = append(out, d)
		}
	}
	return out
}
