package model

import (
	"strings"
	"testing"
)

// A source's rules of a query are said once, by field, in the order the CLI says the first.
func TestSourceCheckQuery(t *testing.T) {
	plans, blocks := SourceTrainingPlan, SourceCapacityBlock
	for _, tc := range []struct {
		name   string
		s      Source
		q      Query
		fields []string
		says   string
	}{
		{"a plan that is sold", plans, Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 4, Durations: DurationRange{2, 15}}, nil, ""},
		{"15 lengths", plans, Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 4, Durations: DurationRange{1, 15}}, []string{FieldDuration}, "a training plan search sweeps at most 14 lengths"},
		{"a length blocks do not sell", blocks, Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 4, Durations: DurationRange{14, 15}}, []string{FieldDuration}, "not 15 days"},
		{"no type, a count plans do not hold", plans, Query{Count: 3, Durations: DurationRange{2, 2}}, []string{FieldTypes, FieldCount}, "no instance type"},
		{"two types plans do not reserve", plans, Query{InstanceTypes: []string{"nope.large", "p5.48xlarge", "x.y"}, Count: 1, Durations: DurationRange{2, 2}}, []string{FieldTypes, FieldTypes}, "nope.large"},
		{"a count past 64", blocks, Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 65, Durations: DurationRange{1, 1}}, []string{FieldCount}, "not 65"},
	} {
		faults := tc.s.CheckQuery(tc.q)
		var fields []string
		for _, f := range faults {
			fields = append(fields, f.Field)
		}
		if strings.Join(fields, ",") != strings.Join(tc.fields, ",") {
			t.Errorf("%s: faults %v, want fields %v", tc.name, faults, tc.fields)
			continue
		}
		if len(faults) > 0 && (!strings.Contains(faults[0].Error()+" "+faults[0].Value, tc.says) || faults[0].Err == nil) {
			t.Errorf("%s: first fault %q (value %q), want %q said", tc.name, faults[0].Error(), faults[0].Value, tc.says)
		}
	}
}

// Only a training plan search sweeps lengths one call each; it takes at most 14.
func TestSourceCheckSweep(t *testing.T) {
	if SourceTrainingPlan.CheckSweep(1, 14) != nil || SourceTrainingPlan.CheckSweep(1, 15) == nil {
		t.Error("plans: 14 lengths should pass and 15 be refused")
	}
	if SourceCapacityBlock.CheckSweep(1, MaxReservationDays) != nil {
		t.Error("blocks ask a range in one call; no sweep bound")
	}
}
