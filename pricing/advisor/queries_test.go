package advisor

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// The weekly slices cover the window: each starts a week after the one before, leaves room
// for a block, ends within the window, and passes AWS's rules; a class asks once per count.
func TestQueriesSlices(t *testing.T) {
	j := Job{Class: "H100", Accelerators: 8, Hours: 47, UtilizationPercent: 100, WindowStart: now,
		WindowEnd: model.LatestEnd(now, 2), Regions: []string{"us-east-1"}}
	qs := j.Queries()
	counts := map[int]int{}
	for i, q := range qs {
		counts[q.Count]++
		if err := q.Validate(now); err != nil {
			t.Errorf("slice %d: %v", i, err)
		}
		if q.End.Sub(q.Start) <= 48*time.Hour || q.End.After(j.WindowEnd) || q.Durations.MinDays != 2 {
			t.Errorf("slice %d: %v – %v, %v", i, q.Start, q.End, q.Durations)
		}
	}
	if counts[1] != 8 || counts[8] != 8 || len(counts) != 2 {
		t.Errorf("slices per count %v", counts)
	}
	for _, q := range qs {
		want := "p5.48xlarge"
		if q.Count == 8 {
			want = "p5.4xlarge"
		}
		if strings.Join(q.InstanceTypes, ",") != want {
			t.Errorf("count %d asks for %v", q.Count, q.InstanceTypes)
		}
	}
	j.SageMaker = true
	if len(j.Queries()) != 0 {
		t.Error("a SageMaker job searches no Capacity Blocks")
	}
}

func TestDedupe(t *testing.T) {
	a := block("us-east-1", 1, 2, "1920")
	b := a
	b.Offering.Source = model.SourceTrainingPlan
	if got := Dedupe([]Offering{a, a, b}); len(got) != 2 {
		t.Errorf("%d left", len(got))
	}
}

// The chart draws the leading options and marks their crossing with its utilization.
func TestAdviceChart(t *testing.T) {
	a, err := Advise(job(48, 100), Inputs{Offerings: []Offering{block("us-east-1", 1, 3, "1920")}, Searched: searched(), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	c := a.Chart(80, 16)
	for _, want := range []string{"= Capacity Block $1,920.00", "* On-demand $2,641.92 at 100%", "X", "72.7%", "cost the same at 72.7% utilization ($1,920.00)"} {
		if !strings.Contains(c, want) {
			t.Errorf("lacks %q:\n%s", want, c)
		}
	}
	if n := len(strings.Split(c, "\n")); n > 16 {
		t.Errorf("%d lines", n)
	}
}

func TestNearbyQueries(t *testing.T) {
	j := job(48, 100)
	for _, n := range []struct{ instances, lo, hi int }{{1, 2, 2}, {64, 63, 63}, {8, 7, 9}} {
		j.Instances = n.instances
		seen := map[int]bool{}
		for _, q := range j.NearbyQueries() {
			seen[q.Count] = true
		}
		if !seen[n.lo] || !seen[n.hi] || seen[n.instances] || len(seen) > 2 {
			t.Errorf("%d instances: nearby counts %v", n.instances, seen)
		}
	}
}

// A SageMaker job's Training Plan searches are the Capacity Block slices, for training jobs;
// a plan with a gap between its parts is priced whole, with the gap said.
func TestPlanQueriesAndGaps(t *testing.T) {
	j := job(47, 100) // the plan reserves 48 hours, of which 47.5 are usable
	if len(j.PlanQueries()) != 0 {
		t.Fatal("an EC2 job searches training plans")
	}
	j.SageMaker = true
	qs := j.PlanQueries()
	if len(qs) == 0 {
		t.Fatal("no training plan search")
	}
	for _, q := range qs {
		if !q.Searches(model.SourceTrainingPlan) || q.Searches(model.SourceCapacityBlock) || strings.Join(q.Targets, ",") != "training-job" {
			t.Fatalf("query %+v", q)
		}
	}
	p := block("us-east-1", 1, 3, "1500")
	p.Offering.Source, p.Offering.InstanceType, p.Offering.DurationHours = model.SourceTrainingPlan, "ml.p5.48xlarge", 48
	s := p.Offering.Start
	p.Offering.Parts = []model.Part{
		{AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: s, End: s.Add(24 * time.Hour), Hours: 24},
		{AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: s.Add(48 * time.Hour), End: s.Add(72 * time.Hour), Hours: 24},
	}
	a, err := Advise(j, Inputs{Offerings: []Offering{p}, Searched: map[model.Source]bool{model.SourceTrainingPlan: true}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range a.Options {
		if o.Kind != TrainingPlan {
			continue
		}
		if !o.Known || o.Total.Cmp(model.MustMoney("1500")) != 0 || !strings.Contains(strings.Join(o.Notes, "\n"), "with 1 gap between") {
			t.Fatalf("training plan option %+v", o)
		}
		return
	}
	t.Fatal("no training plan option")
}
