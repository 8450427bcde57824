package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmd/journal"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A kill -9 while a segmented offering is bought (one reservation per segment): the re-run
// finds every reservation by the request tag, names them all, buys nothing more, and the
// journal lists them all.
func TestSegmentedPurchaseKilledByASignalThenRerun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickSegmented(t, cs.URL)
	n := len(off.CapacityBlockOfferingSegments)
	args := append([]string{"purchase", off.CapacityBlockOfferingId}, cmdtest.SegmentedSearch...)
	killAfterCommit(t, cs, "PurchaseCapacityBlock", append(args, "--yes")...)
	if lines := cmdtest.JournalLines(t); len(lines) != 1 || lines[0].Phase != "intent" || len(lines[0].Segments) != n {
		t.Fatalf("after the kill the journal holds %+v, want the intent alone with its %d segments", lines, n)
	}
	url, purchases := cmdtest.CountPurchases(t, cs.Emulator)
	code, out, errs := cli.Run(append(args, "--endpoint-url", url, "--yes")...)
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != n {
		t.Fatalf("%d reservations after the re-run, want the %d the purchase made: %+v", len(rows), n, rows)
	}
	if code != 0 || out != "" || !strings.Contains(errs, "went through") || !strings.Contains(errs, "Nothing new was bought") {
		t.Errorf("re-run: exit %d, stdout %q\n%s", code, out, errs)
	}
	for _, r := range rows {
		if !strings.Contains(errs, r.CapacityReservationId) {
			t.Errorf("the re-run does not name %s:\n%s", r.CapacityReservationId, errs)
		}
	}
	if got := purchases.Load(); got != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls (dry runs included) on the re-run", got)
	}
	code, out, errs = cli.Run("journal", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
	var jr []journal.Row
	if code != 0 || json.Unmarshal([]byte(out), &jr) != nil {
		t.Fatalf("journal: exit %d, %s\n%s", code, errs, out)
	}
	if len(jr) != 1 || !jr[0].SettledLater || len(jr[0].CapacityReservationIds) != n {
		t.Errorf("journal rows %+v, want one settled purchase naming %d reservations", jr, n)
	}
}
