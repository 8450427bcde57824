package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A block whose payment failed never starts: the table gives it no countdown and no
// termination time.
func TestBlocksPaymentFailedHasNoCountdown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("payfail=1", &f); err != nil {
		t.Fatal(err)
	}
	cs.Emulator.SetFaults(f)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.Advance(10 * time.Minute) // past the payment
	code, table, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
	var row string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, b.CapacityReservationId) {
			row = l
		}
	}
	if code != 0 || !strings.Contains(row, "payment-failed") {
		t.Fatalf("exit %d, stderr %q, no payment-failed row for %s:\n%s", code, errs, b.CapacityReservationId, table)
	}
	termination := cmdtest.MustTime(t, b.EndDate).Add(-30 * time.Minute).Format("2006-01-02 15:04")
	if !strings.Contains(row, "will not start") || strings.Contains(row, "starts in") || strings.Contains(row, termination) {
		t.Errorf("a payment-failed block with a countdown or a termination time:\n%s", row)
	}
}
