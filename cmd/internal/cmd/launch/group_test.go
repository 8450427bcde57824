package launch

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// A purchase of a segmented offering made one reservation per segment. Given one of them,
// launch starts instances in that one only and names the others; --group spreads the
// count across all of them, each in its own zone.
func TestLaunchAcrossAPurchasesReservations(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cmdtest.BoughtGroup(t, runCLI, cs)
	cs.Emulator.SetTime(cmdtest.MustTime(t, rows[0].StartDate).Add(3600e9))
	first := rows[0].CapacityReservationId

	code, out, errs := runCLI(cmdtest.LaunchArgs(cs.URL, first, "--yes", "--count", "1", "-o", "json")...)
	if code != 0 {
		t.Fatalf("launch into one: exit %d\n%s", code, errs)
	}
	for _, r := range rows {
		if !strings.Contains(errs, r.CapacityReservationId) {
			t.Errorf("the launch into %s does not name %s of its purchase:\n%s", first, r.CapacityReservationId, errs)
		}
	}
	if !strings.Contains(errs, "--group") || !strings.Contains(out, `"CapacityReservationId": "`+first+`"`) {
		t.Errorf("launch into one: stdout %s\nstderr %s", out, errs)
	}

	n := 2 * len(rows)
	code, out, errs = runCLI(cmdtest.LaunchArgs(cs.URL, first, "--group", "--yes", "--count", strconv.Itoa(n), "-o", "json")...)
	if code != 0 {
		t.Fatalf("launch --group: exit %d\n%s", code, errs)
	}
	var got struct {
		Instances []struct{ InstanceId, SubnetId, CapacityReservationId string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	per := map[string]int{}
	for _, in := range got.Instances {
		per[in.CapacityReservationId]++
	}
	if len(got.Instances) != n {
		t.Fatalf("%d instances launched across the group, want %d: %+v", len(got.Instances), n, got)
	}
	for _, r := range rows {
		if per[r.CapacityReservationId] != 2 {
			t.Errorf("%d instances into %s, want 2 (spread evenly): %v", per[r.CapacityReservationId], r.CapacityReservationId, per)
		}
	}
	after := reservations(t, cs.URL)
	running := 0
	for _, r := range after {
		running += r.TotalInstanceCount - r.AvailableInstanceCount
	}
	if running != n+1 {
		t.Errorf("%d instances hold the group's capacity, want %d", running, n+1)
	}
	if code, _, errs := runCLI(cmdtest.LaunchArgs(cs.URL, first, "--group", "--subnet", "subnet-0abc", "--yes")...); code != 2 || !strings.Contains(errs, "--group") {
		t.Errorf("--group with --subnet: exit %d\n%s", code, errs)
	}
}
