package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// The detail states the free count the CLI's table and the launch confirmations state (a
// payment-pending block's whole count), with AWS's available count beside it when it differs.
func TestDetailStatesTheFreeCount(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := model.Block{ReservationID: "cr-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, AvailableCount: 0, State: model.StatePaymentPending, Start: start, End: start.Add(48 * time.Hour)}
	v := strings.Join(strings.Fields(ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, start.Add(-3*time.Hour), time.UTC, 160, 40))), " ")
	if !strings.Contains(v, "0 of 2 instances (2 free; AWS counts 0 available until it starts)") {
		t.Fatalf("payment pending:\n%s", v)
	}
	b.State, b.AvailableCount, b.RunningCount = model.StateActive, 1, 1
	v = strings.Join(strings.Fields(ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, start.Add(time.Hour), time.UTC, 160, 40))), " ")
	if !strings.Contains(v, "1 of 2 instances (1 free)") {
		t.Fatalf("active:\n%s", v)
	}
}
