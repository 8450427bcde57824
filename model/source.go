package model

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
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

// Valid reports whether s is one of Sources.
func (s Source) Valid() bool { return slices.Contains(Sources(), s) }

// Title is the source's singular name with its service: "EC2 Capacity Block".
func (s Source) Title() string {
	if s == SourceTrainingPlan {
		return "SageMaker Training Plan"
	}
	return "EC2 Capacity Block"
}

// Plural is the source's name for many: "EC2 Capacity Blocks".
func (s Source) Plural() string { return s.Title() + "s" }

// Short is the source's name in a narrow column: "Block" or "Plan".
func (s Source) Short() string {
	if s == SourceTrainingPlan {
		return "Plan"
	}
	return "Block"
}

// EndNote is what a warning that one of the source's reservations ends adds about what
// stops with it: a plan's jobs, which SageMaker may stop before the end. Empty for a block,
// whose instances' end its countdowns state already.
func (s Source) EndNote() string {
	if s == SourceTrainingPlan {
		return "its jobs stop then, possibly earlier"
	}
	return ""
}

// Service is the AWS service that sells the source: "EC2" or "SageMaker". Prices, quotas
// and rate limits are per service.
func (s Source) Service() string {
	if s == SourceTrainingPlan {
		return "SageMaker"
	}
	return "EC2"
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

// TrainingPlanTypes lists the ml.* instance and UltraServer types training plans reserve,
// sorted, as the lists a person chooses from show them.
func TrainingPlanTypes() []string {
	out := append(slices.Clone(trainingPlanTypes), trainingPlanUltraServers...)
	slices.Sort(out)
	return out
}

// TrainingPlanTypesSentence names what training plans reserve, for a message: the
// instance types, then the UltraServer types with what each holds. AWS names both a
// GB200 instance (ml.p6e-gb200.36xlarge, an InstanceType) and the UltraServers made of
// them (ml.u-p6e-gb200x36, an UltraServerType); a plan of an UltraServer type is counted
// in UltraServers.
func TrainingPlanTypesSentence() string {
	instances := slices.SortedFunc(slices.Values(trainingPlanTypes), naturalCompare)
	var ultras []string
	for _, u := range slices.SortedFunc(slices.Values(trainingPlanUltraServers), naturalCompare) {
		if t, ok := LookupType(strings.TrimPrefix(u, sageMakerPrefix)); ok && t.UltraServer {
			u += fmt.Sprintf(" (%d × %s%s)", t.Instances, sageMakerPrefix, t.MemberType)
		}
		ultras = append(ultras, u)
	}
	return "instances of " + strings.Join(instances, ", ") + "; UltraServers, counted in UltraServers, of " + strings.Join(ultras, ", ")
}

// naturalCompare orders names as people read them: runs of digits by their value, so that
// ml.p5.4xlarge comes before ml.p5.48xlarge.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digitsPrefix(a), digitsPrefix(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func digitsPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
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
	case SourceCapacityBlock:
		name := typ
		if ec2, ok := strings.CutPrefix(typ, sageMakerPrefix); ok {
			name = ec2
		}
		if _, ok := LookupType(name); ok {
			return name, nil
		}
		return "", fmt.Errorf("%s: Capacity Blocks do not sell %s (they sell %s)", s.Plural(), name, strings.Join(capacityBlockTypeNames(), ", "))
	case SourceTrainingPlan:
		ml := sageMakerPrefix + strings.TrimPrefix(typ, sageMakerPrefix)
		if slices.Contains(TrainingPlanTypes(), ml) {
			return ml, nil
		}
		return "", fmt.Errorf("%s: training plans do not reserve %s (they reserve %s)", s.Plural(), ml, TrainingPlanTypesSentence())
	}
	return "", fmt.Errorf("unknown source %d", int(s))
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

// CheckCount is the source's rule on how many instances (UltraServers, for an UltraServer
// type of training plans) one reservation holds; the error names the rule.
func (s Source) CheckCount(instanceType string, n int) error {
	switch s {
	case SourceCapacityBlock:
		if n < MinCount || n > MaxCount {
			return fmt.Errorf("%s hold %d to %d instances, not %d", s.Plural(), MinCount, MaxCount, n)
		}
		return nil
	case SourceTrainingPlan:
		if IsTrainingPlanUltraServer(instanceType) {
			// UltraServerCount has a minimum of 1 and no documented maximum; the quota
			// decides beyond that (UNCONFIRMED), so only the minimum is checked.
			if n < 1 {
				return fmt.Errorf("%s reserve at least 1 UltraServer, not %d", s.Plural(), n)
			}
			return nil
		}
		if !slices.Contains(TrainingPlanCounts, n) {
			return fmt.Errorf("%s reserve %s instances, not %d", s.Plural(), s.CountRule(), n)
		}
		return nil
	}
	return fmt.Errorf("unknown source %d", int(s))
}

// CheckDays is the source's rule on a reservation's length in days.
func (s Source) CheckDays(days int) error {
	switch s {
	case SourceCapacityBlock:
		if !ValidDuration(days) {
			return fmt.Errorf("%s last %s, not %d days", s.Plural(), durationHelp, days)
		}
		return nil
	case SourceTrainingPlan:
		if days < 1 || days > MaxReservationDays {
			return fmt.Errorf("%s last 1 to %d whole days, not %d", s.Plural(), MaxReservationDays, days)
		}
		return nil
	}
	return fmt.Errorf("unknown source %d", int(s))
}

// CheckExtensionDays is the source's rule on how long one extension is. Both extend by 1
// to 14 days, then by whole weeks up to MaxReservationDays (reference §5 for plans, the EC2
// reference for blocks), which is ValidDuration's set; the error names the source.
func (s Source) CheckExtensionDays(days int) error {
	if !s.Valid() {
		return fmt.Errorf("unknown source %d", int(s))
	}
	if !ValidDuration(days) {
		return fmt.Errorf("%s are extended by 1 to %d days, or by whole weeks up to %d days, not %d", s.Plural(), dailyUpTo, MaxReservationDays, days)
	}
	return nil
}

// MaxDays is the longest reservation the source sells: MaxReservationDays for both.
func (s Source) MaxDays() int { return MaxReservationDays }

// DurationDays lists the lengths from `from` to `to` days, both included, that the source
// sells: a range 15d–20d holds nothing for Capacity Blocks and six lengths for plans.
func (s Source) DurationDays(from, to int) []int {
	var out []int
	for d := max(from, 1); d <= to && d <= MaxReservationDays; d++ {
		if s.CheckDays(d) == nil {
			out = append(out, d)
		}
	}
	return out
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

// Part is one reserved capacity of a training plan or its offering, or one segment of a
// Capacity Block offering: a plan may be made of several, in different zones and windows,
// with gaps between them; a segmented Capacity Block offering is several blocks bought
// together, each with its own zone, type, count, window and fee, and each becoming its own
// capacity reservation once bought.
type Part struct {
	AvailabilityZone string
	InstanceType     string // as the source names it (ml.* for a training plan)
	Count            int
	UltraServerType  string `json:",omitempty"`
	UltraServerCount int    `json:",omitempty"`
	Start, End       time.Time
	Hours            int64
	Minutes          int    `json:",omitempty"` // minutes past the whole hours (a near-term segment)
	ARN              string `json:",omitempty"` // a reserved capacity's, once bought
	Status           string `json:",omitempty"`
	// A Capacity Block segment's own figures, as AWS states them.
	AvailabilityZoneID string `json:",omitempty"`
	ZoneType           string `json:",omitempty"`
	Fee                Money  `json:",omitzero"`
	Currency           string `json:",omitempty"`
}

// InstanceMinutes is the part's instance-minutes: its count × its length.
func (p Part) InstanceMinutes() int64 { return int64(p.Count) * p.minutes() }

func (p Part) minutes() int64 {
	if p.Hours > 0 || p.Minutes > 0 {
		return p.Hours*60 + int64(p.Minutes)
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

// SourceQuery is a query as one source searches it: the types it sells in its own names,
// and the lengths of the range it sells.
type SourceQuery struct {
	Source Source
	Query  Query
}

// SourceSkip is a source a query names that is not searched with it: the field whose value
// the source does not sell (FieldTypes, FieldCount or FieldDuration) and why.
type SourceSkip struct {
	Source Source
	Field  string
	Reason string
}

// Sentence is the skip as a note: "Training Plans not searched: … (only the others are)".
func (k SourceSkip) Sentence() string {
	return k.Source.Plural() + " not searched: " + k.Reason
}

// SplitQuery is the one rule of how a query is split across its sources (Capacity Blocks
// when it names none), asked by the command line and the terminal UI alike: each source
// searches the types it sells (either form of a name, mapped by TypeIn), with its count
// rule and the lengths of the range it sells (DurationDays). A source that sells none of
// the types, not the count, or none of the lengths is skipped, with why, and the others are
// searched alone. The window and the regions are not a source's to refuse: the caller
// checks them.
func SplitQuery(q Query) ([]SourceQuery, []SourceSkip) {
	srcs := q.Sources
	if len(srcs) == 0 {
		srcs = []Source{SourceCapacityBlock}
	}
	var parts []SourceQuery
	var skips []SourceSkip
	for _, s := range srcs {
		var types []string
		var firstErr error
		for _, t := range q.InstanceTypes {
			name, err := s.TypeIn(t)
			switch {
			case err != nil && firstErr == nil:
				firstErr = err
			case err == nil && !slices.Contains(types, name):
				types = append(types, name)
			}
		}
		if len(types) == 0 {
			why := "no instance type given"
			if firstErr != nil {
				why = strings.TrimPrefix(firstErr.Error(), s.Plural()+": ")
			}
			skips = append(skips, SourceSkip{s, FieldTypes, why})
			continue
		}
		if err := s.CheckCount(types[0], q.Count); err != nil {
			skips = append(skips, SourceSkip{s, FieldCount, err.Error()})
			continue
		}
		lo, hi := q.Durations.MinDays, q.Durations.MaxDays
		days := s.DurationDays(lo, hi)
		if len(days) == 0 {
			why := fmt.Sprintf("%s sell no length from %s to %s", s.Plural(), FormatDays(lo), FormatDays(hi))
			if err := s.CheckDays(lo); lo == hi && err != nil {
				why = err.Error()
			}
			skips = append(skips, SourceSkip{s, FieldDuration, why})
			continue
		}
		sq := q
		sq.Sources, sq.InstanceTypes = []Source{s}, types
		sq.Durations = DurationRange{MinDays: days[0], MaxDays: days[len(days)-1]}
		if s != SourceTrainingPlan {
			sq.Targets = nil
		}
		parts = append(parts, SourceQuery{s, sq})
	}
	return parts, skips
}

// CountRule is the source's counts in words, for a hint: "1–64" instances a block holds,
// "1, 2, 4, 8, 16, 32 or 64" a plan reserves.
func (s Source) CountRule() string {
	if s == SourceTrainingPlan {
		words := make([]string, len(TrainingPlanCounts))
		for i, n := range TrainingPlanCounts {
			words[i] = strconv.Itoa(n)
		}
		return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
	}
	return fmt.Sprintf("%d–%d", MinCount, MaxCount)
}

// LengthRule is the source's lengths in words, for a hint.
func (s Source) LengthRule() string {
	if s == SourceTrainingPlan {
		return fmt.Sprintf("1–%d whole days", MaxReservationDays)
	}
	return fmt.Sprintf("1–%d days or %d–%d weeks", dailyUpTo, weeklyFrom/7, MaxReservationDays/7)
}
