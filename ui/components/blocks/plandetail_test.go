package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// A plan's top warning is said in its own words (a pending payment is a pending payment,
// not the end of the plan), and what the end means is a field of its own whatever the
// warning.
func TestPlanDetailSaysItsWarning(t *testing.T) {
	start := time.Date(2026, 12, 2, 11, 30, 0, 0, time.UTC)
	plan := model.Block{Source: model.SourceTrainingPlan, ReservationID: "gpb-1", Region: "us-east-1", InstanceType: "ml.p5.48xlarge",
		TotalCount: 1, State: model.StatePaymentPending, Start: start, End: start.Add(48 * time.Hour)}
	var lines []string
	for _, l := range planDetailLines(theme.New(false), model.DefaultWarnRules(), plan, start.Add(-22*time.Hour), time.UTC, 118) {
		lines = append(lines, ansi.Strip(l))
	}
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, "$ PAY PENDING: training plan gpb-1 (ml.p5.48xlarge × 1, us-east-1): payment pending") {
		t.Errorf("the warning is not the plan's:\n%s", all)
	}
	if flat := strings.Join(strings.Fields(all), " "); !strings.Contains(flat, "Ends "+planEnding) {
		t.Errorf("what the end means is missing:\n%s", all)
	}
	if strings.Contains(all, "PAY PENDING: "+planEnding) {
		t.Errorf("a pending payment said as the plan's end:\n%s", all)
	}
}
