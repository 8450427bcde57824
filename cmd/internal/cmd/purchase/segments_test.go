package purchase

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A segmented offering through the command line: -o json carries its segments in AWS's
// names, the table says it is made of segments, the CSV carries them in a column, the
// typed confirmation lists every segment and how many reservations the purchase makes, the
// result names every reservation, and the journal records them all.
func TestSegmentedOfferingFromSearchToJournal(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickSegmented(t, cs.URL)
	n := len(off.CapacityBlockOfferingSegments)

	args := append([]string{"offerings", "--endpoint-url", cs.URL, "-o", "json"}, cmdtest.SegmentedSearch...)
	_, out, _ := cli.Run(args...)
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	var segs []any
	for _, r := range raw {
		if r["CapacityBlockOfferingId"] == off.CapacityBlockOfferingId {
			segs, _ = r["CapacityBlockOfferingSegments"].([]any)
		}
	}
	if len(segs) != n {
		t.Fatalf("-o json: %d segments for %s, want %d", len(segs), off.CapacityBlockOfferingId, n)
	}
	for _, k := range []string{"AvailabilityZone", "AvailabilityZoneId", "InstanceType", "InstanceCount", "StartDate", "EndDate",
		"CapacityBlockDurationHours", "CapacityBlockDurationMinutes", "UpfrontFee", "CurrencyCode"} {
		if _, ok := segs[0].(map[string]any)[k]; !ok {
			t.Errorf("a segment in -o json lacks AWS's field %s: %v", k, segs[0])
		}
	}

	args[4] = "table"
	if _, out, _ = cli.Run(args...); !strings.Contains(out, itoa(n)+" segments") {
		t.Errorf("the table does not say the offering is made of %d segments:\n%s", n, out)
	}
	args[4] = "csv"
	_, out, _ = cli.Run(args...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) < 2 || recs[0][len(recs[0])-1] != "CapacityBlockOfferingSegments" {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	found := false
	for _, r := range recs[1:] {
		if strings.Contains(strings.Join(r, ","), off.CapacityBlockOfferingId) {
			var cell []map[string]any
			found = json.Unmarshal([]byte(r[len(r)-1]), &cell) == nil && len(cell) == n
		}
	}
	if !found {
		t.Errorf("the CSV row of %s does not carry its %d segments:\n%s", off.CapacityBlockOfferingId, n, out)
	}

	cli.AsPerson(t, true, "buy\n")
	buy := append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL}, cmdtest.SegmentedSearch...)
	code, out, errs := cli.Run(buy...)
	if code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "Reservations:") || !strings.Contains(errs, "one capacity reservation per segment") {
		t.Errorf("the confirmation does not say how many reservations it makes:\n%s", errs)
	}
	for i, sg := range off.CapacityBlockOfferingSegments {
		if !strings.Contains(errs, "Segment "+itoa(i+1)+":") || !strings.Contains(errs, sg.AvailabilityZone) {
			t.Errorf("the confirmation lacks segment %d in %s:\n%s", i+1, sg.AvailabilityZone, errs)
		}
	}
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != n {
		t.Fatalf("%d reservations after buying %d segments", len(rows), n)
	}
	for _, r := range rows {
		if !strings.Contains(out, r.CapacityReservationId) || len(r.PurchaseGroup) != n {
			t.Errorf("%s: not in the result or not grouped (%v):\n%s", r.CapacityReservationId, r.PurchaseGroup, out)
		}
	}
	var outcome string
	for _, e := range cmdtest.JournalLines(t) {
		if e.Phase == "outcome" && e.Action == "PurchaseCapacityBlock" {
			outcome = e.Result
		}
	}
	if len(strings.Split(outcome, ",")) != n {
		t.Errorf("the journal's outcome %q does not name the %d reservations", outcome, n)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
