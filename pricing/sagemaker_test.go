package pricing

import (
	"strings"
	"testing"

	"github.com/gpublock/gpublock/model"
)

// regionsOf is every region the catalog names, and AnyRegion.
func regionsOf(c *Catalog) []string {
	seen := map[string]bool{AnyRegion: true}
	out := []string{AnyRegion}
	for _, r := range c.Rows() {
		if !seen[r.Region] {
			seen[r.Region] = true
			out = append(out, r.Region)
		}
	}
	return out
}

// The property: an ml.* type is never answered with an EC2 figure, even by a catalog that
// holds an EC2 row under that name and priced EC2 rows of the same hardware.
func TestSageMakerTypesNeverGetEC2Figures(t *testing.T) {
	ec2Fee, _ := model.ParseMoney("55.04")
	c := Embedded().With(Row{Kind: KindOnDemand, InstanceType: "ml.p5.48xlarge", Region: AnyRegion, Status: StatusPrice,
		Hourly: ec2Fee, Source: "misfiled", Date: "2026-12-01"})
	if r, ok := c.OnDemand("p5.48xlarge", "us-east-1"); !ok || !r.HasPrice() {
		t.Fatalf("the EC2 figure the property is about is missing: %+v, %v", r, ok)
	}
	checked := 0
	for _, ml := range model.TrainingPlanTypes() {
		for _, region := range regionsOf(c) {
			for _, got := range []func() (Row, bool){
				func() (Row, bool) { return c.OnDemand(ml, region) },
				func() (Row, bool) { return c.OnDemandFor(model.SourceTrainingPlan, ml, region) },
				func() (Row, bool) {
					return c.OnDemandFor(model.SourceTrainingPlan, strings.TrimPrefix(ml, "ml."), region)
				},
			} {
				r, ok := got()
				checked++
				if ok && (r.Kind != KindSageMakerOnDemand || r.Kind.Service() != "SageMaker" || !strings.HasPrefix(r.InstanceType, "ml.")) {
					t.Errorf("%s in %s answered with %s's row %+v", ml, region, r.Kind.Service(), r)
				}
				if ok && r.HasPrice() {
					t.Errorf("%s in %s: a SageMaker price %s the catalog has no source for", ml, region, r.Hourly)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func TestEmbeddedCatalogSaysItHasNoSageMakerRate(t *testing.T) {
	for _, ml := range model.TrainingPlanTypes() {
		r, ok := Embedded().OnDemand(ml, "us-east-1")
		if !ok {
			t.Errorf("%s: no row; the catalog should say it has no SageMaker rate", ml)
			continue
		}
		if r.Status != StatusUnknown || r.Describe() != "no figure known" || r.Source == "" || r.Date == "" {
			t.Errorf("%s: %+v, want a dated, sourced unknown", ml, r)
		}
	}
}

// EC2's lookups never see SageMaker's rows, even priced ones.
func TestEC2TypesNeverGetSageMakerFigures(t *testing.T) {
	sm, _ := model.ParseMoney("63.30")
	c := NewCatalog(Row{Kind: KindSageMakerOnDemand, InstanceType: "ml.p5.48xlarge", Region: AnyRegion, Status: StatusPrice,
		Hourly: sm, Source: "test", Date: "2026-12-01"},
		Row{Kind: KindSageMakerOnDemand, InstanceType: "p5.48xlarge", Region: AnyRegion, Status: StatusPrice,
			Hourly: sm, Source: "misfiled", Date: "2026-12-01"})
	for _, lookup := range []func() (Row, bool){
		func() (Row, bool) { return c.OnDemand("p5.48xlarge", "us-east-1") },
		func() (Row, bool) { return c.OnDemandFor(model.SourceCapacityBlock, "ml.p5.48xlarge", "us-east-1") },
	} {
		if r, ok := lookup(); ok {
			t.Errorf("an EC2 lookup answered with %+v", r)
		}
	}
	r, ok := c.OnDemandFor(model.SourceTrainingPlan, "p5.48xlarge", "us-east-1")
	if !ok || !r.HasPrice() || r.Hourly != sm || r.InstanceType != "ml.p5.48xlarge" {
		t.Errorf("the plan's own SageMaker rate: %+v, %v", r, ok)
	}
}

func TestOnDemandForUsesTheSourcesService(t *testing.T) {
	c := Embedded()
	want, ok := c.OnDemand("p5.48xlarge", "us-east-1")
	if !ok || !want.HasPrice() {
		t.Fatalf("no EC2 figure for p5.48xlarge: %+v", want)
	}
	if got, ok := c.OnDemandFor(model.SourceCapacityBlock, "p5.48xlarge", "us-east-1"); !ok || got != want {
		t.Errorf("blocks: %+v, want EC2's %+v", got, want)
	}
	if _, ok := c.OnDemandFor(model.SourceTrainingPlan, "g5.xlarge", "us-east-1"); ok {
		t.Error("a type plans do not reserve has a plan rate")
	}
}

func TestCSVRefusesAServiceMismatch(t *testing.T) {
	for _, line := range []string{
		"on-demand,ml.p5.48xlarge,*,unknown,,,x,2026-12-01,,,",
		"sagemaker-on-demand,p5.48xlarge,*,unknown,,,x,2026-12-01,,,",
	} {
		_, err := ParseCSV(strings.NewReader(strings.Join(CSVHeader(), ",") + "\n" + line + "\n"))
		if err == nil {
			t.Errorf("accepted %s", line)
		}
	}
	rows, err := ParseCSV(strings.NewReader(strings.Join(CSVHeader(), ",") + "\nsagemaker-on-demand,ml.p5.48xlarge,*,price,63.30,,x,2026-12-01,,,\n"))
	if err != nil || len(rows) != 1 || rows[0].Kind != KindSageMakerOnDemand {
		t.Errorf("a SageMaker row: %v, %v", rows, err)
	}
}
