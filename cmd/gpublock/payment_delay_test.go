package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A whole lifecycle with AWS's longest payment (12 hours): the commands must not assume
// that a block is paid within minutes. It stays payment-pending, launching and extending
// are refused with why, then it is scheduled, then active and launchable.
func TestLifecycleWithTwelveHourPayment(t *testing.T) {
	cs := cmdtest.StartSim(t, func(o *ec2sim.Options) {
		o.PaymentDelay = ec2sim.PaymentDelay{Min: 12 * time.Hour, Max: 12 * time.Hour}
	})
	b := cli.BoughtBlock(t, cs)
	bought := cs.Emulator.Now()
	start := cmdtest.MustTime(t, b.StartDate)
	// AWS fails a payment not taken by 5 minutes before the start; the emulator pays then.
	paid := bought.Add(12 * time.Hour)
	if dl := start.Add(-5 * time.Minute); dl.Before(paid) {
		paid = dl
	}
	if paid.Sub(bought) < time.Hour {
		t.Fatalf("the block starts at %s, too soon after the purchase (%s) for a long payment", start, bought)
	}

	cs.Emulator.SetTime(paid.Add(-time.Minute))
	if rows := cli.Reservations(t, cs.URL); rows[0].State != "payment-pending" {
		t.Fatalf("a minute before the payment: %s, want payment-pending", rows[0].State)
	}
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "not active yet (payment-pending)") {
		t.Errorf("launch while payment-pending: exit %d\n%s", code, errs)
	}
	code, _, errs = cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code == 0 || !strings.Contains(errs, "payment-pending") {
		t.Errorf("extend while payment-pending: exit %d\n%s", code, errs)
	}

	cs.Emulator.SetTime(paid.Add(time.Second))
	if rows := cli.Reservations(t, cs.URL); rows[0].State != "scheduled" {
		t.Fatalf("after the payment: %s, want scheduled", rows[0].State)
	}
	cli.Activate(t, cs, b)
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "1", "-o", "json")...)
	if code != 0 || !strings.Contains(out, `"InstanceId": "i-`) {
		t.Errorf("launch once active: exit %d\n%s\n%s", code, out, errs)
	}
}
