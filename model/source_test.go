package model

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMultiPartOfferingCountsPartsNotSpan(t *testing.T) {
	t0 := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	fee, _ := ParseMoney("3000")
	// 24 h × 2 instances, a 48 h gap, then 24 h × 1 instance: 72 instance-hours, not 4 days × 2.
	o := Offering{Source: SourceTrainingPlan, InstanceType: "ml.p5.48xlarge", Count: 2, Start: t0, End: t0.Add(96 * time.Hour),
		Fee: fee, Parts: []Part{
			{InstanceType: "ml.p5.48xlarge", Count: 2, Start: t0, End: t0.Add(24 * time.Hour), Hours: 24},
			{InstanceType: "ml.p5.48xlarge", Count: 1, Start: t0.Add(72 * time.Hour), End: t0.Add(96 * time.Hour), Hours: 24},
		}}
	o.DurationHours = int(PartsHours(o.Parts))
	if o.DurationHours != 48 {
		t.Fatalf("hours %d, want 48", o.DurationHours)
	}
	if got := o.InstanceMinutes(); got != 72*60 {
		t.Fatalf("instance-minutes %d, want %d", got, 72*60)
	}
	if got := o.HourlyRate().String(); got != "41.666667" {
		t.Fatalf("$/instance-hour %s", got)
	}
	// p5.48xlarge has 8 GPUs: 576 accelerator-hours.
	if got := o.AcceleratorHourlyRate().String(); got != "5.208333" {
		t.Fatalf("$/accelerator-hour %s", got)
	}
	if o.Accelerators() != 16 {
		t.Fatalf("accelerators %d", o.Accelerators())
	}
	if g := PartsGaps(o.Parts); g != 1 {
		t.Fatalf("gaps %d, want 1", g)
	}
	o.Parts[1].Start = o.Parts[0].End
	if g := PartsGaps(o.Parts); g != 0 {
		t.Fatalf("back-to-back parts: gaps %d", g)
	}
}

func TestSourceNamesAndJSON(t *testing.T) {
	var zero Offering
	b, _ := json.Marshal(zero)
	if !strings.Contains(string(b), `"Source":"capacity-blocks"`) {
		t.Fatalf("zero offering's source: %s", b)
	}
	for _, s := range Sources() {
		got, err := ParseSource(s.Name())
		if err != nil || got != s {
			t.Fatalf("%v round trip: %v %v", s, got, err)
		}
	}
	if _, err := ParseSources("spot"); err == nil || !strings.Contains(err.Error(), "capacity-blocks, training-plans or all") {
		t.Fatalf("bad source: %v", err)
	}
	if all, _ := ParseSources("all"); len(all) != 2 {
		t.Fatalf("all: %v", all)
	}
	if SageMakerType("p5.48xlarge") != "ml.p5.48xlarge" || SageMakerType("ml.p5.48xlarge") != "ml.p5.48xlarge" || EC2Type("ml.trn1.32xlarge") != "trn1.32xlarge" {
		t.Fatal("type mapping")
	}
}

// The training-plan types are listed in order, as a person looks one up.
func TestTrainingPlanTypesSorted(t *testing.T) {
	if ts := TrainingPlanTypes(); !slices.IsSorted(ts) {
		t.Errorf("unsorted: %v", ts)
	}
}

// The list of what plans reserve says which names are UltraServers, and what they hold:
// AWS names both the GB200 instance and the UltraServers of them.
func TestTrainingPlanTypesSentence(t *testing.T) {
	got := TrainingPlanTypesSentence()
	want := "instances of ml.p4d.24xlarge, ml.p4de.24xlarge, ml.p5.4xlarge, ml.p5.48xlarge, ml.p5e.48xlarge, ml.p5en.48xlarge, " +
		"ml.p6-b200.48xlarge, ml.p6-b300.48xlarge, ml.p6e-gb200.36xlarge, ml.trn1.32xlarge, ml.trn2.48xlarge; " +
		"UltraServers, counted in UltraServers, of ml.u-p6e-gb200x36 (9 × ml.p6e-gb200.36xlarge), ml.u-p6e-gb200x72 (18 × ml.p6e-gb200.36xlarge)"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if _, err := SourceTrainingPlan.TypeIn("ml.foo"); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("TypeIn: %v", err)
	}
	for _, c := range [][2]string{{"ml.p5.4xlarge", "ml.p5.48xlarge"}, {"p4d.24xlarge", "p4de.24xlarge"}, {"a9", "a10"}, {"a", "ab"}, {"x007", "x8"}} {
		if naturalCompare(c[0], c[1]) >= 0 || naturalCompare(c[1], c[0]) <= 0 {
			t.Errorf("%s does not come before %s", c[0], c[1])
		}
	}
	if naturalCompare("ml.p5.48xlarge", "ml.p5.48xlarge") != 0 {
		t.Error("a name is not equal to itself")
	}
}
