package pricing

import (
	"fmt"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func TestBreakEvenCell(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	o := model.Offering{ID: "cbe-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		Count: 1, Start: start, End: start.Add(24 * time.Hour), DurationHours: 24, Currency: "USD"}
	for fee, want := range map[string]string{"1000.00": "", "1000000.00": "never"} {
		o.Fee = model.MustMoney(fee)
		c := Compare(nil, o)
		if want == "" {
			want = fmt.Sprintf("%d%%", c.BreakEvenPercent()) // 1000 ÷ 1320.96, rounded up: 76%
		}
		if got := c.BreakEvenCell(); got != want || (fee == "1000.00" && !c.CanWin) {
			t.Errorf("fee %s: %q, want %q", fee, got, want)
		}
	}
	o.InstanceType = "u-p6e-gb200x72" // not sold on-demand
	if got := Compare(nil, o).BreakEvenCell(); got != "—" {
		t.Errorf("without an on-demand price: %q", got)
	}
}
