package launch

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// A purchase of a segmented offering made one reservation per segment. Given one of them,
// launch starts instances in that one only and names the others; --group spreads the
// count across all of them, each in its own zone.
func TestLaunchAcrossAPurchasesReservations(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cli.BoughtGroup(t, cs)
	cs.Emulator.SetTime(cmdtest.MustTime(t, rows[0].StartDate).Add(3600e9))
	first := rows[0].CapacityReservationId

	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first, "--yes", "--count", "1", "-o", "json")...)
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
	code, out, errs = cli.Run(cmdtest.LaunchArgs(cs.URL, first, "--group", "--yes", "--count", strconv.Itoa(n), "-o", "json")...)
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
	after := cli.Reservations(t, cs.URL)
	running := 0
	for _, r := range after {
		running += r.TotalInstanceCount - r.AvailableInstanceCount
	}
	if running != n+1 {
		t.Errorf("%d instances hold the group's capacity, want %d", running, n+1)
	}
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first, "--group", "--subnet", "subnet-0abc", "--yes")...); code != 2 || !strings.Contains(errs, "--group") {
		t.Errorf("--group with --subnet: exit %d\n%s", code, errs)
	}
}

// --group --at-start attaches one launch to each reservation of the purchase, each its
// share of the count, after one confirmation; each is launched when its own reservation
// starts, once. One of them with a launch attached already refuses them all.
func TestLaunchAtStartAcrossAPurchasesReservations(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, rows := cli.BoughtGroup(t, cs)
	first := rows[0].CapacityReservationId
	n := 2 * len(rows)

	// A launch attached already to one of them refuses the whole: nothing more is attached.
	last := rows[len(rows)-1].CapacityReservationId
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, last, "--at-start", "--yes")...); code != 0 {
		t.Fatalf("attach to %s: exit %d\n%s", last, code, errs)
	}
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first, "--group", "--at-start", "--count", strconv.Itoa(n), "--yes")...)
	if code != 1 || !strings.Contains(errs, last+" has a launch attached already") || !strings.Contains(errs, "Nothing was attached") {
		t.Fatalf("--group --at-start over an attached one: exit %d\n%s", code, errs)
	}
	if got := attached(t, cs.URL); len(got) != 1 {
		t.Fatalf("after the refusal %d attached, want the 1 from before", len(got))
	}
	if code, _, errs := cli.Run("launch", "--cancel", last, "--endpoint-url", cs.URL); code != 0 {
		t.Fatalf("cancel: exit %d\n%s", code, errs)
	}

	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first, "--group", "--at-start", "--count", strconv.Itoa(n), "--yes", "-o", "json")...)
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

// consecutiveSearch asks for a long window that the emulator's us-east-1 holds only in
// consecutive segments, one zone after another.
var consecutiveSearch = []string{"--region", "us-east-1", "--type", "p5.48xlarge", "--count", "2", "--duration", "6w",
	"--from", "2026-12-01T08:00:00Z", "--to", "2027-02-15"}

// boughtConsecutive buys an offering of consecutive segments and returns its reservations
// in the order they run.
func boughtConsecutive(t *testing.T, cs *cmdtest.Sim) []printers.BlockJSON {
	t.Helper()
	offs := cli.Offerings(t, cs.URL, consecutiveSearch...)
	for _, o := range offs {
		segs := o.CapacityBlockOfferingSegments
		if len(segs) < 2 || segs[0].StartDate == segs[1].StartDate {
			continue
		}
		if code, _, errs := cli.Run(append([]string{"purchase", o.CapacityBlockOfferingId, "--endpoint-url", cs.URL, "--yes"}, consecutiveSearch...)...); code != 0 {
			t.Fatalf("purchase: exit %d\n%s", code, errs)
		}
		rows := cli.Reservations(t, cs.URL)
		if len(rows) != len(segs) {
			t.Fatalf("%d reservations of %d segments", len(rows), len(segs))
		}
		slices.SortFunc(rows, func(a, b printers.BlockJSON) int { return strings.Compare(a.StartDate, b.StartDate) })
		return rows
	}
	t.Fatalf("no offering of consecutive segments among %d", len(offs))
	return nil
}

// Across consecutive segments each reservation takes the whole count in its own window:
// --group --at-start attaches it to each, and each is launched when its own reservation
// starts. Once the first has started and the next not, neither --group nor --group
// --at-start takes them all, and both say what to do instead.
func TestLaunchAcrossConsecutiveSegments(t *testing.T) {
	cs := cmdtest.StartSim(t)
	rows := boughtConsecutive(t, cs)
	first, second := rows[0], rows[1]
	code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first.CapacityReservationId, "--group", "--at-start", "--count", "2", "--yes")...)
	if code != 0 {
		t.Fatalf("--group --at-start: exit %d\n%s", code, errs)
	}
	for _, r := range attached(t, cs.URL) {
		if r.InstanceCount != 2 {
			t.Errorf("%s: %d attached, want the whole 2 in each window", r.CapacityReservationId, r.InstanceCount)
		}
	}
	running := func() map[string]int {
		got := map[string]int{}
		for _, in := range simInstances(t, cs.URL) {
			got[aws.ToString(in.CapacityReservationId)]++
		}
		return got
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, first.StartDate).Add(time.Minute))
	blocksRound(t, cs.URL)
	if got := running(); got[first.CapacityReservationId] != 2 || got[second.CapacityReservationId] != 0 {
		t.Fatalf("at the first segment's start: %v; want 2 into %s only", got, first.CapacityReservationId)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, second.StartDate).Add(time.Minute))
	blocksRound(t, cs.URL)
	if got := running(); got[second.CapacityReservationId] != 2 {
		t.Fatalf("at the second segment's start: %v; want 2 into %s", got, second.CapacityReservationId)
	}
}

func TestLaunchAcrossConsecutiveSegmentsOnceOneHasStarted(t *testing.T) {
	cs := cmdtest.StartSim(t)
	rows := boughtConsecutive(t, cs)
	first := rows[0].CapacityReservationId
	cs.Emulator.SetTime(cmdtest.MustTime(t, rows[0].StartDate).Add(time.Hour))
	for _, extra := range [][]string{{"--group"}, {"--group", "--at-start"}} {
		code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, first, append(extra, "--count", "2", "--yes")...)...)
		if code != 1 || !strings.Contains(errs, "have started ("+first+") and others not") {
			t.Errorf("%v: exit %d\n%s", extra, code, errs)
		}
	}
	if n := len(simInstances(t, cs.URL)); n != 0 {
		t.Errorf("%d instances launched", n)
	}
	if got := attached(t, cs.URL); len(got) != 0 {
		t.Errorf("attached %+v", got)
	}
}
