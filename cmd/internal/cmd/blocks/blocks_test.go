package blocks

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// A region that fails makes the list incomplete: exit 1, the region named on stderr, the
// blocks of the others still printed. When no region answers, stdout stays empty.
func TestBlocksRegionDown(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2", "-o", "json")
	var rows []printers.BlockJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 || rows[0].CapacityReservationId != b.CapacityReservationId {
		t.Errorf("the listing of us-east-1: %v\n%s", err, out)
	}
	if code != 1 || !strings.Contains(errs, "gpublock blocks: us-west-2: EC2 is unavailable") || !strings.Contains(errs, "incomplete: us-west-2 failed") {
		t.Errorf("one region down: exit %d, %q; want 1 naming us-west-2", code, errs)
	}
	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1,us-west-2")
	if code != 1 || !strings.HasPrefix(out, "RESERVATION") || !strings.Contains(out, b.CapacityReservationId) || !strings.Contains(errs, "us-west-2") {
		t.Errorf("table, one region down: exit %d, stderr %q\n%s", code, errs, out)
	}
	code, out, errs = cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-west-2", "-o", "json")
	if code != 1 || out != "" || !strings.Contains(errs, "us-west-2: EC2 is unavailable") {
		t.Errorf("the only region down: exit %d, stdout %q, stderr %q; want 1 and nothing on stdout", code, out, errs)
	}
}

func TestBlocksWarnWithin(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	start, _ := time.Parse(time.RFC3339, b.StartDate)
	end, _ := time.Parse(time.RFC3339, b.EndDate)
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "45m"}

	// Scheduled: its end is within 72 h, but nothing runs in it yet.
	cs.Emulator.SetTime(start.Add(-time.Hour))
	if rows := cli.Reservations(t, cs.URL); rows[0].State != "scheduled" {
		t.Fatalf("want a scheduled block: %+v", rows[0])
	}
	if code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-within", "72h"); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("scheduled block: exit %d, stderr %q", code, errs)
	}

	// Active, ending in 50 minutes: its end is outside a 45-minute window, but by default
	// the check measures to the extension cutoff (passed 10 minutes ago), and with
	// --warn-of termination to the termination's start, 20 minutes away.
	cs.Emulator.SetTime(end.Add(-50 * time.Minute))
	code, _, errs := cli.Run(args...)
	if code != ExitWarning || !strings.Contains(errs, "extension cutoff "+end.Add(-time.Hour).Format("15:04")+" UTC (passed 10m ago)") {
		t.Errorf("50 minutes left, default moment: exit %d, stderr %q; want 3 and the cutoff named", code, errs)
	}
	code, _, errs = cli.Run(append(args, "--warn-of", "termination")...)
	if code != ExitWarning || !strings.Contains(errs, "instances stop "+end.Add(-30*time.Minute).Format("15:04")+" UTC (in 20m)") {
		t.Errorf("50 minutes left, --warn-of termination: exit %d, stderr %q; want 3 and the termination named", code, errs)
	}
	// An hour and 50 minutes left: the cutoff is 50 minutes away, outside 45.
	cs.Emulator.SetTime(end.Add(-110 * time.Minute))
	if code, _, errs := cli.Run(args...); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("1h50m left: exit %d, stderr %q", code, errs)
	}
	cs.Emulator.SetTime(end.Add(-50 * time.Minute))
	code, out, errs := cli.Run(append(args, "--warn-of", "end")...)
	if code != 0 || strings.Contains(errs, "WARNING") || !strings.Contains(out, "ends in 50m") {
		t.Errorf("50 minutes left: exit %d, stderr %q\n%s", code, errs, out)
	}
	if !strings.Contains(out, "TERMINATES (UTC)") || !strings.Contains(out, end.Add(-30*time.Minute).Format("2006-01-02 15:04")) {
		t.Errorf("the table lacks the termination time:\n%s", out)
	}

	// Active, ending in 40 minutes: exit 3, and the block is named.
	cs.Emulator.SetTime(end.Add(-40 * time.Minute))
	code, out, errs = cli.Run(args...)
	warn := "WARNING: " + b.CapacityReservationId + "  us-east-1  p5.48xlarge × 2  ends " + end.Format("2006-01-02 15:04") + " UTC  in 40m"
	if code != ExitWarning || !strings.Contains(errs, warn) || !strings.Contains(out, b.CapacityReservationId) {
		t.Errorf("40 minutes left: exit %d, stderr %q, want %q", code, errs, warn)
	}
	// JSON output is unchanged by the warning, which goes to stderr.
	code, out, errs = cli.Run(append(args, "-o", "json")...)
	var rows []printers.BlockJSON
	if code != ExitWarning || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || !strings.Contains(errs, b.CapacityReservationId) {
		t.Errorf("json: exit %d, stderr %q\n%s", code, errs, out)
	}

	// Expired: nothing left to warn about.
	cs.Emulator.SetTime(end.Add(time.Minute))
	if code, _, errs := cli.Run(args...); code != 0 || strings.Contains(errs, "WARNING") {
		t.Errorf("expired block: exit %d, stderr %q", code, errs)
	}
}

func TestBlocksWatch(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	end, _ := time.Parse(time.RFC3339, b.EndDate)
	cs.Emulator.SetTime(end.Add(-40 * time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cmdtest.CancelAfter{N: 2, Cancel: cancel}
	var errb bytes.Buffer
	code := cli.RunContext(ctx, out, &errb, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s", "--warn-within", "45m")
	got := out.Buf.String()
	if n := strings.Count(got, "block(s) in us-east-1"); n < 2 {
		t.Fatalf("%d refreshes printed, want at least 2:\n%s", n, got)
	}
	if n := strings.Count(got, b.CapacityReservationId); n < 2 {
		t.Errorf("the block is in %d refreshes, want at least 2:\n%s", n, got)
	}
	if code != ExitWarning || strings.Count(errb.String(), "WARNING: "+b.CapacityReservationId) < 2 {
		t.Errorf("exit %d, want %d with a warning per refresh; stderr:\n%s", code, ExitWarning, errb.String())
	}
}
