package main

// The commands against the emulator when it is not all well: regions down, details refused,
// a payment that takes 12 hours, and the --demo account the commands share.

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// When every region fails, stdout stays empty in every format: an empty array, or a csv or
// table header with no rows, would read to a script as a search that found nothing.
func TestOfferingsEveryRegionDownPrintsNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-east-1", "us-west-2"))
	for _, format := range []string{"json", "csv", "table"} {
		code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", format)...)
		if code != 1 || out != "" {
			t.Errorf("-o %s: exit %d, stdout %q; want 1 and nothing", format, code, out)
		}
		for _, want := range []string{"gpublock offerings: us-east-1: EC2 is unavailable", "gpublock offerings: us-west-2: EC2 is unavailable",
			"every region failed: us-east-1, us-west-2"} {
			if !strings.Contains(errs, want) {
				t.Errorf("-o %s: stderr lacks %q:\n%s", format, want, errs)
			}
		}
	}
}

// One region down: the csv and the table still hold the other region's offerings, and
// the exit status says they are incomplete.
func TestOfferingsRegionDownCSVAndTable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 1 || err != nil || len(recs) < 2 || recs[0][0] != "Region" || !strings.Contains(errs, "incomplete: us-west-2 failed") {
		t.Fatalf("csv: exit %d, %v, stderr %q\n%s", code, err, errs, out)
	}
	for _, r := range recs[1:] {
		if r[0] != "us-east-1" {
			t.Errorf("csv row of %s, want us-east-1 only", r[0])
		}
	}

	code, out, errs = cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || !strings.HasPrefix(lines[0], "REGION") || len(lines) != len(recs) || !strings.Contains(errs, "us-west-2: EC2 is unavailable") {
		t.Fatalf("table: exit %d, %d lines (csv %d), stderr %q\n%s", code, len(lines), len(recs), errs, out)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "us-east-1 ") {
			t.Errorf("table row %q, want us-east-1 only", l)
		}
	}
}

// A region that answers but sells nothing is not a failure: the other regions' emptiness
// is still reported as "no offerings", naming only the regions that answered.
func TestOfferingsNoneInAnsweringRegionNamesOnlyIt(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "--type", "p5.48xlarge",
		"--duration", "2d", "--from", "2026-12-03T00:00:00Z", "--to", "2026-12-05T00:00:00Z")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "UTC in us-east-1\n") || !strings.Contains(errs, "incomplete: us-west-2 failed") {
		t.Errorf("stderr %q: want no offerings in us-east-1, and us-west-2 named as failed", errs)
	}
}

func TestBlocksEveryRegionDownPrintsNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-east-1", "us-west-2"))
	for _, extra := range [][]string{{"-o", "json"}, {"-o", "csv"}, {"-o", "table"}, {"-o", "json", "--warn-within", "45m"}} {
		args := append([]string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2"}, extra...)
		code, out, errs := cli.Run(args...)
		if code != 1 || out != "" || !strings.Contains(errs, "every region failed: us-east-1, us-west-2") || strings.Contains(errs, "No Capacity Blocks") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1 and nothing on stdout", extra, code, out, errs)
		}
	}
}

// With --warn-within, a block about to end (exit 3) wins over a region that failed
// (exit 1); with nothing about to end, the failed region fails the check.
func TestBlocksWarnWithinPrecedence(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	end := cmdtest.MustTime(t, b.EndDate)
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "--warn-within", "45m", "--warn-of", "end"}
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))

	cs.Emulator.SetTime(end.Add(-40 * time.Minute))
	code, out, errs := cli.Run(args...)
	if code != blocks.ExitWarning || !strings.Contains(errs, "WARNING: "+b.CapacityReservationId) || !strings.Contains(errs, "us-west-2: EC2 is unavailable") ||
		!strings.Contains(out, b.CapacityReservationId) {
		t.Errorf("ending in 40m, us-west-2 down: exit %d, stderr %q; want %d, the warning and us-west-2 named", code, errs, blocks.ExitWarning)
	}

	cs.Emulator.SetTime(end.Add(-50 * time.Minute))
	code, _, errs = cli.Run(args...)
	if code != 1 || strings.Contains(errs, "WARNING") || !strings.Contains(errs, "--warn-within: the blocks of us-west-2 could not be checked") {
		t.Errorf("ending in 50m, us-west-2 down: exit %d, stderr %q; want 1", code, errs)
	}

	cs.Emulator.SetFaults(ec2sim.Faults{})
	if code, _, errs := cli.Run(args...); code != 0 || errs != "" {
		t.Errorf("ending in 50m, every region up: exit %d, stderr %q; want 0", code, errs)
	}
}

// A detail call refused (here DescribeInstances, as under an IAM policy without it) leaves
// the block listed but the list incomplete: exit 1, unless a block is about to end.
func TestBlocksMissingDetailsFail(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.SetFaults(ec2sim.Faults{Deny: []string{"DescribeInstances"}})
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
	var rows []printers.BlockJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].CapacityReservationId != b.CapacityReservationId {
		t.Errorf("the block is still listed: %v\n%s", err, out)
	}
	if code != 1 || !strings.Contains(errs, "us-east-1: some details are missing") || !strings.Contains(errs, "incomplete: some details are missing in us-east-1") {
		t.Errorf("exit %d, stderr %q; want 1 naming the missing details", code, errs)
	}

	cs.Emulator.SetTime(cmdtest.MustTime(t, b.EndDate).Add(-40 * time.Minute))
	if code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "45m"); code != blocks.ExitWarning {
		t.Errorf("ending in 40m, details missing: exit %d, stderr %q; want %d", code, errs, blocks.ExitWarning)
	}
}

// --watch goes on through a failed region and names it in every refresh: on stdout in the
// refresh's first line and on stderr with the reason; the status is that of the last one.
func TestBlocksWatchNamesFailedRegionEachRefresh(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, got, errs := cli.Watch(context.Background(), 2, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "--watch", "--interval", "1s")
	if n := strings.Count(got, "0 blocks in us-east-1; FAILED: us-west-2 (see stderr); every 1s"); n < 2 {
		t.Errorf("%d refreshes name us-west-2 as failed, want at least 2:\n%s", n, got)
	}
	if n := strings.Count(errs, "gpublock blocks: us-west-2: EC2 is unavailable"); n < 2 {
		t.Errorf("stderr names us-west-2 in %d refreshes, want at least 2:\n%s", n, errs)
	}
	if code != 1 {
		t.Errorf("exit %d, want 1: the last refresh lacked us-west-2", code)
	}
}

// Regions that fail alike are named together, with the explanation once (with no
// credentials, every region would print the same paragraph).
func TestBlocksRegionsFailingAlikeSaidOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-east-1", "us-west-2"))
	code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,eu-north-1,us-west-2")
	if code != 1 || strings.Count(errs, "EC2 is unavailable") != 1 || !strings.Contains(errs, "gpublock blocks: us-east-1, us-west-2: EC2 is unavailable") {
		t.Errorf("exit %d, stderr %q; want one line naming both regions", code, errs)
	}
}

// One --demo account for every command: a block bought with `purchase --demo` is listed by
// a later `blocks --demo`, as it would be on AWS; removing the file starts afresh.
func TestDemoCommandsShareOneAccount(t *testing.T) {
	cmdtest.Env(t)
	search := []string{"--demo", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "1", "--duration", "2d", "--to", "+2w"}
	offs := runJSON[[]printers.OfferingJSON](t, append([]string{"offerings", "-o", "json"}, search...)...)
	if len(offs) == 0 {
		t.Fatal("the demo offers nothing")
	}
	code, out, errs := cli.Run(append([]string{"purchase", offs[0].CapacityBlockOfferingId, "--yes", "-o", "json"}, search...)...)
	if code != 0 {
		t.Fatalf("purchase: exit %d, stderr %q\n%s", code, errs, out)
	}
	listed := func() []printers.BlockJSON {
		t.Helper()
		return runJSON[[]printers.BlockJSON](t, "blocks", "--demo", "--region", "us-east-1", "-o", "json")
	}
	rows := listed()
	if len(rows) != 1 || rows[0].InstanceType != "p5.48xlarge" || rows[0].StartDate != offs[0].StartDate || rows[0].EndDate != offs[0].EndDate {
		t.Fatalf("blocks --demo after purchase --demo lists %+v, want the block bought from %+v", rows, offs[0])
	}
	file := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "simulated", cmdutil.DemoStateFile)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if rows := listed(); len(rows) != 0 {
		t.Errorf("after removing %s the demo still lists %+v", file, rows)
	}

	// A damaged file is named, with the way out, and nothing runs against it.
	if err := os.WriteFile(file, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = cli.Run("blocks", "--demo", "--region", "us-east-1")
	if code != 1 || out != "" || !strings.Contains(errs, file) || !strings.Contains(errs, "afresh") {
		t.Errorf("a damaged demo state: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

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
