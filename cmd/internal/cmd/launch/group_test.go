package launch

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

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

// --group --at-start attaches one launch to each reservation of the purchase, each its
// share of the count, after one confirmation; each is launched when its own reservation
// starts, once. One of them with a launch attached already refuses them all.
func TestLaunchAtStartAcrossAPurchasesReservations(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cmdtest.BoughtGroup(t, runCLI, cs)
	first := rows[0].CapacityReservationId
	n := 2 * len(rows)

	// A launch attached already to one of them refuses the whole: nothing more is attached.
	last := rows[len(rows)-1].CapacityReservationId
	if code, _, errs := runCLI(cmdtest.LaunchArgs(cs.URL, last, "--at-start", "--yes")...); code != 0 {
		t.Fatalf("attach to %s: exit %d\n%s", last, code, errs)
	}
	code, _, errs := runCLI(cmdtest.LaunchArgs(cs.URL, first, "--group", "--at-start", "--count", strconv.Itoa(n), "--yes")...)
	if code != 1 || !strings.Contains(errs, last+" has a launch attached already") || !strings.Contains(errs, "Nothing was attached") {
		t.Fatalf("--group --at-start over an attached one: exit %d\n%s", code, errs)
	}
	if got := attached(t, cs.URL); len(got) != 1 {
		t.Fatalf("after the refusal %d attached, want the 1 from before", len(got))
	}
	if code, _, errs := runCLI("launch", "--cancel", last, "--endpoint-url", cs.URL); code != 0 {
		t.Fatalf("cancel: exit %d\n%s", code, errs)
	}

	code, out, errs := runCLI(cmdtest.LaunchArgs(cs.URL, first, "--group", "--at-start", "--count", strconv.Itoa(n), "--yes", "-o", "json")...)
	if code != 0 || !strings.Contains(errs, "Across the "+strconv.Itoa(len(rows))+" reservations of one purchase") || !strings.Contains(errs, "its own reservation starts") {
		t.Fatalf("--group --at-start: exit %d\n%s\n%s", code, out, errs)
	}
	per := map[string]int{}
	for _, r := range attached(t, cs.URL) {
		if r.State == "pending" {
			per[r.CapacityReservationId] += r.InstanceCount
		}
	}
	for _, r := range rows {
		if per[r.CapacityReservationId] != 2 {
			t.Errorf("attached %v, want 2 to each of %d reservations", per, len(rows))
			break
		}
	}
	if len(simInstances(t, cs.URL)) != 0 {
		t.Fatal("instances before the start")
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, rows[0].StartDate).Add(time.Minute))
	blocksRound(t, cs.URL)
	blocksRound(t, cs.URL)
	got := map[string]int{}
	for _, in := range simInstances(t, cs.URL) {
		got[aws.ToString(in.CapacityReservationId)]++
	}
	for _, r := range rows {
		if got[r.CapacityReservationId] != 2 {
			t.Errorf("launched at the start %v, want 2 into each of %d reservations", got, len(rows))
			break
		}
	}
}
