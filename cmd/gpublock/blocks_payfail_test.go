package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/model"
)

// A block whose payment failed never starts: the table gives it no countdown and no
// termination time.
func TestBlocksPaymentFailedHasNoCountdown(t *testing.T) {
	cs := startCLISim(t)
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("payfail=1", &f); err != nil {
		t.Fatal(err)
	}
	cs.sim.SetFaults(f)
	c := testClient(t, cs.url)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: cliSimStart, End: cliSimStart.AddDate(0, 0, 14), Regions: []string{"us-east-1"}}
	var offer *model.Offering
	for ev := range c.Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && offer == nil {
			offer = &ev.Offerings[0]
		}
	}
	if offer == nil {
		t.Fatal("nothing to buy")
	}
	res, err := c.Purchase(context.Background(), *offer, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	cs.sim.Advance(10 * time.Minute) // past the payment
	code, table, errs := runCLI("blocks", "--endpoint-url", cs.url, "--region", "us-east-1")
	var row string
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, res.Block.ReservationID) {
			row = l
		}
	}
	if code != 0 || !strings.Contains(row, "payment-failed") {
		t.Fatalf("exit %d, stderr %q, no payment-failed row for %s:\n%s", code, errs, res.Block.ReservationID, table)
	}
	if !strings.Contains(row, "will not start") || strings.Contains(row, "starts in") || strings.Contains(row, offer.End.Add(-30*time.Minute).UTC().Format("2006-01-02 15:04")) {
		t.Errorf("a payment-failed block with a countdown or a termination time:\n%s", row)
	}
}
