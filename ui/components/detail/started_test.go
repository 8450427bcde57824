package detail

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// The detail of an offering whose start has passed says it is not for sale, not "now".
func TestStartedOfferingDetail(t *testing.T) {
	start := time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC)
	o := model.Offering{ID: "cb-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", Count: 1,
		Start: start, End: start.Add(48 * time.Hour), DurationHours: 48, Fee: model.MustMoney("7000.00"), Currency: "USD"}
	plan := o
	plan.Source, plan.ID, plan.InstanceType = model.SourceTrainingPlan, "tpo-1", "ml.p5.48xlarge"
	plan.Parts = []model.Part{{AvailabilityZone: "us-east-1a", InstanceType: "ml.p5.48xlarge", Count: 1, Start: start, End: o.End, Hours: 48}}
	for _, off := range []model.Offering{o, plan} {
		before := flatView(off, start.Add(-2*time.Hour))
		after := flatView(off, start.Add(time.Minute))
		if !strings.Contains(before, "Starts in 2h") || strings.Contains(before, StartedWords) {
			t.Errorf("%s before its start:\n%s", off.ID, before)
		}
		if !strings.Contains(after, "Starts "+StartedWords) {
			t.Errorf("%s after its start:\n%s", off.ID, after)
		}
	}
}

func flatView(o model.Offering, now time.Time) string {
	return strings.Join(strings.Fields(ansi.Strip(View(theme.New(false), o, model.Query{}, now, time.UTC, false, 120, 60))), " ")
}
