package pricing

import (
	"testing"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// Each reservation gets its own service's on-demand rate, or none: never the other
// service's, never a guess.
func TestPriceReport(t *testing.T) {
	cat := NewCatalog(
		Row{Kind: KindOnDemand, InstanceType: "p5.48xlarge", Region: "us-east-1", Status: StatusPrice, Hourly: model.MustMoney("55.04"), Date: "2026-11-09"},
		Row{Kind: KindOnDemand, InstanceType: "u-p6e-gb200x72", Region: "us-east-1", Status: StatusNone, Date: "2025"},
	)
	in := report.Input{Reservations: []report.Reservation{
		{Source: model.SourceCapacityBlock, InstanceType: "p5.48xlarge", Region: "us-east-1"},
		{Source: model.SourceTrainingPlan, InstanceType: "ml.p5.48xlarge", Region: "us-east-1"},
		{Source: model.SourceCapacityBlock, InstanceType: "u-p6e-gb200x72", Region: "us-east-1"},
		{Source: model.SourceCapacityBlock, InstanceType: "p5.48xlarge", Region: "eu-north-1"},
	}}
	PriceReport(cat, &in)
	for i, want := range []string{"55.04", "", "", ""} {
		r := in.Reservations[i]
		if got := map[bool]string{true: r.OnDemandHourly.String()}[r.OnDemandKnown]; got != want {
			t.Errorf("%s %s in %s: on-demand %q, want %q", r.Source, r.InstanceType, r.Region, got, want)
		}
	}
}
