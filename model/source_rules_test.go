package model

import (
	"slices"
	"strings"
	"testing"
)

func TestSourceNames(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Sources() {
		if !s.Valid() {
			t.Errorf("%q not valid", s)
		}
		for _, n := range []string{s.Name(), s.Title(), s.Plural(), s.Short(), s.Service()} {
			if n == "" || seen[n] {
				t.Errorf("%q: name %q empty or shared with another source", s, n)
			}
			seen[n] = true
		}
	}
	if SourceCapacityBlock.Title() != "EC2 Capacity Block" || SourceTrainingPlan.Plural() != "SageMaker Training Plans" {
		t.Errorf("names: %q, %q", SourceCapacityBlock.Title(), SourceTrainingPlan.Plural())
	}
	if Source(7).Valid() {
		t.Error("an unknown source is valid")
	}
}

func TestTypeMappingBetweenSources(t *testing.T) {
	if ml, ok := SageMakerTypeOf("p5.48xlarge"); !ok || ml != "ml.p5.48xlarge" {
		t.Errorf("p5.48xlarge → %q, %v", ml, ok)
	}
	if ec2, ok := EC2TypeOf("ml.p5.48xlarge"); !ok || ec2 != "p5.48xlarge" {
		t.Errorf("ml.p5.48xlarge → %q, %v", ec2, ok)
	}
	// Every mapping goes both ways.
	mapped := 0
	for _, ct := range Catalog() {
		if ml, ok := SageMakerTypeOf(ct.Name); ok {
			mapped++
			if back, ok := EC2TypeOf(ml); !ok || back != ct.Name {
				t.Errorf("%s → %s → %q, %v", ct.Name, ml, back, ok)
			}
		}
	}
	for _, ml := range TrainingPlanTypes() {
		if ec2, ok := EC2TypeOf(ml); ok {
			if _, sold := LookupType(ec2); !sold {
				t.Errorf("%s maps to %s, which Capacity Blocks do not sell", ml, ec2)
			}
		}
	}
	if mapped == 0 {
		t.Fatal("no type maps")
	}
	// Only types both sell map: ml.p6e-gb200.36xlarge is reserved by plans, but blocks sell
	// it only inside UltraServers; g5.xlarge neither sells.
	for _, tc := range []struct {
		typ string
		f   func(string) (string, bool)
	}{{"ml.p6e-gb200.36xlarge", EC2TypeOf}, {"g5.xlarge", SageMakerTypeOf}, {"ml.g5.xlarge", EC2TypeOf},
		{"ml.p5.48xlarge", SageMakerTypeOf}, {"p5.48xlarge", EC2TypeOf}} {
		if got, ok := tc.f(tc.typ); ok {
			t.Errorf("%s maps to %q", tc.typ, got)
		}
	}
}

func TestTypeIn(t *testing.T) {
	for _, tc := range []struct {
		src      Source
		in, want string
	}{
		{SourceTrainingPlan, "p5.48xlarge", "ml.p5.48xlarge"},
		{SourceTrainingPlan, "ml.p5.48xlarge", "ml.p5.48xlarge"},
		{SourceCapacityBlock, "ml.p5.48xlarge", "p5.48xlarge"},
		{SourceCapacityBlock, "p5.48xlarge", "p5.48xlarge"},
		{SourceTrainingPlan, "u-p6e-gb200x72", "ml.u-p6e-gb200x72"},
	} {
		if got, err := tc.src.TypeIn(tc.in); err != nil || got != tc.want {
			t.Errorf("%s.TypeIn(%q) = %q, %v; want %q", tc.src, tc.in, got, err, tc.want)
		}
	}
	_, err := SourceCapacityBlock.TypeIn("ml.p6e-gb200.36xlarge")
	if err == nil || !strings.Contains(err.Error(), "Capacity Blocks") {
		t.Errorf("blocks of ml.p6e-gb200.36xlarge: %v", err)
	}
	_, err = SourceTrainingPlan.TypeIn("g5.xlarge")
	if err == nil || !strings.Contains(err.Error(), "ml.p5.48xlarge") {
		t.Errorf("plans of g5.xlarge: %v (should list what plans reserve)", err)
	}
}

func TestCheckCountNamesTheSourcesRule(t *testing.T) {
	for _, tc := range []struct {
		src  Source
		typ  string
		n    int
		rule string // "" when allowed
	}{
		{SourceCapacityBlock, "p5.48xlarge", 3, ""},
		{SourceCapacityBlock, "p5.48xlarge", 64, ""},
		{SourceCapacityBlock, "p5.48xlarge", 65, "EC2 Capacity Blocks hold 1 to 64"},
		{SourceCapacityBlock, "p5.48xlarge", 0, "EC2 Capacity Blocks hold 1 to 64"},
		{SourceTrainingPlan, "ml.p5.48xlarge", 3, "SageMaker Training Plans reserve 1, 2, 4, 8, 16, 32 or 64"},
		{SourceTrainingPlan, "ml.p5.48xlarge", 16, ""},
		{SourceTrainingPlan, "ml.p5.48xlarge", 128, "SageMaker Training Plans reserve 1, 2, 4"},
		{SourceTrainingPlan, "ml.u-p6e-gb200x72", 3, ""},
		{SourceTrainingPlan, "u-p6e-gb200x36", 0, "at least 1 UltraServer"},
	} {
		err := tc.src.CheckCount(tc.typ, tc.n)
		switch {
		case tc.rule == "" && err != nil:
			t.Errorf("%s %s ×%d refused: %v", tc.src, tc.typ, tc.n, err)
		case tc.rule != "" && (err == nil || !strings.Contains(err.Error(), tc.rule)):
			t.Errorf("%s %s ×%d: %v, want the rule %q", tc.src, tc.typ, tc.n, err, tc.rule)
		}
	}
}

func TestCheckDaysNamesTheSourcesRule(t *testing.T) {
	for _, tc := range []struct {
		days      int
		block, tp bool
	}{{1, true, true}, {14, true, true}, {15, false, true}, {20, false, true}, {21, true, true}, {100, false, true},
		{182, true, true}, {183, false, false}, {0, false, false}, {-3, false, false}} {
		for _, c := range []struct {
			src Source
			ok  bool
		}{{SourceCapacityBlock, tc.block}, {SourceTrainingPlan, tc.tp}} {
			err := c.src.CheckDays(tc.days)
			if (err == nil) != c.ok {
				t.Errorf("%s of %d days: %v, want allowed=%v", c.src, tc.days, err, c.ok)
			}
			if err != nil && !strings.Contains(err.Error(), c.src.Plural()) {
				t.Errorf("%s of %d days: %v does not name the source", c.src, tc.days, err)
			}
		}
	}
}

func TestCheckExtensionDays(t *testing.T) {
	for _, src := range Sources() {
		for d, ok := range map[int]bool{1: true, 14: true, 15: false, 21: true, 182: true, 189: false, 0: false} {
			err := src.CheckExtensionDays(d)
			if (err == nil) != ok {
				t.Errorf("%s extended by %d days: %v, want allowed=%v", src, d, err, ok)
			}
			if err != nil && !strings.Contains(err.Error(), src.Plural()) {
				t.Errorf("%s: %v does not name the source", src, err)
			}
		}
	}
}

func TestDurationDaysPerSource(t *testing.T) {
	if got := SourceCapacityBlock.DurationDays(15, 20); len(got) != 0 {
		t.Errorf("blocks 15–20 days: %v, want none", got)
	}
	if got, want := SourceTrainingPlan.DurationDays(15, 20), []int{15, 16, 17, 18, 19, 20}; !slices.Equal(got, want) {
		t.Errorf("plans 15–20 days: %v, want %v", got, want)
	}
	if got, want := SourceCapacityBlock.DurationDays(1, 182), ValidDurationDays(); !slices.Equal(got, want) {
		t.Errorf("blocks 1–182 days: %v, want ValidDurationDays %v", got, want)
	}
	if got := SourceTrainingPlan.DurationDays(180, 400); !slices.Equal(got, []int{180, 181, 182}) {
		t.Errorf("plans 180–400 days: %v", got)
	}
}

// The one split of a query across its sources: each searches what it sells (types in its
// own names, its counts, its lengths of the range); a source that sells a value of none is
// skipped with why, and the others are searched alone.
func TestSplitQuery(t *testing.T) {
	both := []Source{SourceCapacityBlock, SourceTrainingPlan}
	q := Query{InstanceTypes: []string{"ml.p5.48xlarge"}, Count: 4, Durations: DurationRange{MinDays: 15, MaxDays: 15}, Sources: both, Targets: []string{"training-job"}}
	parts, skips := SplitQuery(q)
	if len(parts) != 1 || parts[0].Source != SourceTrainingPlan || len(skips) != 1 || skips[0].Source != SourceCapacityBlock || skips[0].Field != FieldDuration {
		t.Fatalf("15d: parts %+v, skips %+v", parts, skips)
	}
	if p := parts[0].Query; p.InstanceTypes[0] != "ml.p5.48xlarge" || p.Durations != (DurationRange{15, 15}) || len(p.Sources) != 1 {
		t.Errorf("15d: the plans' query %+v", p)
	}
	q.Durations = DurationRange{MinDays: 2, MaxDays: 2}
	q.Count = 3
	parts, skips = SplitQuery(q)
	if len(parts) != 1 || parts[0].Source != SourceCapacityBlock || parts[0].Query.InstanceTypes[0] != "p5.48xlarge" || parts[0].Query.Targets != nil ||
		len(skips) != 1 || skips[0].Field != FieldCount || !strings.Contains(skips[0].Sentence(), "Training Plans not searched") {
		t.Errorf("count 3, ml. type: parts %+v, skips %+v", parts, skips)
	}
	q.Count = 4
	if parts, skips = SplitQuery(q); len(parts) != 2 || len(skips) != 0 || parts[0].Query.InstanceTypes[0] != "p5.48xlarge" || parts[1].Query.InstanceTypes[0] != "ml.p5.48xlarge" {
		t.Errorf("both sell it: parts %+v, skips %+v", parts, skips)
	}
	q.Durations = DurationRange{MinDays: 13, MaxDays: 16}
	if parts, _ = SplitQuery(q); len(parts) != 2 || parts[0].Query.Durations != (DurationRange{13, 14}) || parts[1].Query.Durations != (DurationRange{13, 16}) {
		t.Errorf("13d-16d: %+v", parts)
	}
	q.InstanceTypes = []string{"g5.xlarge"}
	if parts, skips = SplitQuery(q); len(parts) != 0 || len(skips) != 2 || skips[0].Field != FieldTypes {
		t.Errorf("a type no source sells: parts %+v, skips %+v", parts, skips)
	}
}
