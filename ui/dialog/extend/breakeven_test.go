package extend

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// The extend dialog compares the added hours alone, every one of them usable: its
// break-even is a share of the 24 added hours, not of the block.
func TestExtendBreakEvenSpeaksOfTheAddedHours(t *testing.T) {
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	fee, _ := model.ParseMoney("1000.00") // 1 day of p5.48xlarge at $55.040/h costs $1,320.96 on-demand
	o := model.Offering{ID: "cbe-1", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		Count: 1, Start: start, End: start.Add(24 * time.Hour), DurationHours: 24, Fee: fee, Currency: "USD"}
	c := pricing.CompareExtension(nil, o)
	if !c.CanWin {
		t.Fatalf("the comparison %q cannot win; the test wants one that can", c.Reading())
	}
	got := breakEven(c)
	if !strings.HasPrefix(got, "the added hours are cheaper than on-demand if you use at least ") || !strings.Contains(got, "% of the 24 hours (") ||
		strings.Contains(got, "of the block") || !strings.Contains(got, " · on-demand $") {
		t.Errorf("the extension's break-even: %q", got)
	}
}
