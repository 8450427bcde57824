package launch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// simInstances are every instance the emulator has started, terminated ones too: a second
// launch cannot hide among them.
func simInstances(t *testing.T, url string) []types.Instance {
	t.Helper()
	out, err := simEC2(url).DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{})
	if err != nil {
		t.Fatal(err)
	}
	var all []types.Instance
	for _, r := range out.Reservations {
		all = append(all, r.Instances...)
	}
	return all
}

type attachedRow struct {
	CapacityReservationId, State, ImageId, ClientToken, Reason, BlockStartDate string
	InstanceCount                                                              int
	InstanceIds                                                                []string
}

func attached(t *testing.T, url string) []attachedRow {
	t.Helper()
	code, out, errs := cli.Run("launch", "--pending", "--endpoint-url", url, "-o", "json")
	var rows []attachedRow
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("launch --pending: exit %d\n%s\n%s", code, out, errs)
	}
	return rows
}

// blocksRound is one round of a watcher: `gpublock blocks`, extra being its on-call flags.
func blocksRound(t *testing.T, url string, extra ...string) string {
	t.Helper()
	code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", url, "--region", "us-east-1", "-o", "json"}, extra...)...)
	if code != 0 {
		t.Fatalf("blocks: exit %d\n%s", code, errs)
	}
	return errs
}

func attachAtStart(t *testing.T, cs *cmdtest.Sim, b printers.BlockJSON) {
	t.Helper()
	code, out, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--count", "2", "--yes", "-o", "json")...)
	if code != 0 || !strings.Contains(out, `"State": "pending"`) || !strings.Contains(errs, "when the block starts") {
		t.Fatalf("attach: exit %d\n%s\n%s", code, out, errs)
	}
}

func TestLaunchAtStartRunsOnceWhenTheBlockStarts(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	// A second one on the same block is refused: it would double the work.
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--yes")...); code != 1 || !strings.Contains(errs, "attached already") {
		t.Errorf("second attach: exit %d\n%s", code, errs)
	}
	blocksRound(t, cs.URL) // before the start: nothing is sent
	if n := len(simInstances(t, cs.URL)); n != 0 {
		t.Fatalf("%d instances before the start", n)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	errs := blocksRound(t, cs.URL)
	ins := simInstances(t, cs.URL)
	if len(ins) != 2 || !strings.Contains(errs, "started i-") {
		t.Fatalf("after one round past the start: %d instances\n%s", len(ins), errs)
	}
	for _, in := range ins {
		if aws.ToString(in.ImageId) != cmdtest.AMI || aws.ToString(in.CapacityReservationId) != b.CapacityReservationId || (in.State.Name != types.InstanceStateNameRunning && in.State.Name != types.InstanceStateNamePending) {
			t.Errorf("instance %+v", in)
		}
	}
	// More rounds, and two watchers at once: still the one launch.
	blocksRound(t, cs.URL)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			cli.RunContext(context.Background(), &strings.Builder{}, &strings.Builder{}, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
		})
	}
	wg.Wait()
	if n := len(simInstances(t, cs.URL)); n != 2 {
		t.Errorf("%d instances after more rounds, want the 2 of one launch", n)
	}
	rows := attached(t, cs.URL)
	if len(rows) != 1 || rows[0].State != "launched" || len(rows[0].InstanceIds) != 2 || !strings.HasPrefix(rows[0].ClientToken, "gpb-") ||
		rows[0].BlockStartDate != b.StartDate {
		t.Errorf("launch --pending: %+v", rows)
	}
	var intents int
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "RunInstances" && e.Phase == "intent" {
			intents++
			if e.RequestID != rows[0].ClientToken {
				t.Errorf("journalled under %s, attached with %s", e.RequestID, rows[0].ClientToken)
			}
		}
	}
	if intents != 1 {
		t.Errorf("%d RunInstances intents journalled, want 1", intents)
	}
}

func TestLaunchAtStartCancelledLaunchesNothing(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	code, _, errs := cli.Run("launch", "--cancel", b.CapacityReservationId, "--endpoint-url", cs.URL)
	if code != 0 || !strings.Contains(errs, "cancelled") {
		t.Fatalf("cancel: exit %d\n%s", code, errs)
	}
	if code, _, errs := cli.Run("launch", "--cancel", b.CapacityReservationId, "--endpoint-url", cs.URL); code != 1 || !strings.Contains(errs, "no launch is attached") {
		t.Errorf("cancel again: exit %d\n%s", code, errs)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	blocksRound(t, cs.URL)
	if n := len(simInstances(t, cs.URL)); n != 0 {
		t.Errorf("%d instances after a cancelled launch", n)
	}
	if rows := attached(t, cs.URL); len(rows) != 1 || rows[0].State != "cancelled" {
		t.Errorf("launch --pending: %+v", rows)
	}
}

func TestLaunchAtStartOfAnEndedBlockIsCancelledAndNotified(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.EndDate).Add(time.Hour))
	log := filepath.Join(t.TempDir(), "events")
	errs := blocksRound(t, cs.URL, "--notify-cmd", `echo "$GPUBLOCK_WARNING $GPUBLOCK_TEXT" >> `+log)
	if n := len(simInstances(t, cs.URL)); n != 0 {
		t.Errorf("%d instances launched into an ended block", n)
	}
	if rows := attached(t, cs.URL); len(rows) != 1 || rows[0].State != "cancelled" || !strings.Contains(rows[0].Reason, "ended before") {
		t.Errorf("launch --pending: %+v\n%s", rows, errs)
	}
	got, _ := os.ReadFile(log)
	if !strings.Contains(string(got), "launch-at-start gpublock: the launch at the start of "+b.CapacityReservationId) {
		t.Errorf("notified %q\n%s", got, errs)
	}
}

func TestLaunchAtStartRefusals(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	for _, args := range [][]string{
		{"launch", "--pending", b.CapacityReservationId, "--endpoint-url", cs.URL},
		{"launch", "--pending", "--cancel", b.CapacityReservationId, "--endpoint-url", cs.URL},
		{"launch", "--cancel", "tp-1", "--endpoint-url", cs.URL},
		{"launch", "--pending", "--ami", cmdtest.AMI, "--endpoint-url", cs.URL},
		cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--dry-run"),
		cmdtest.LaunchArgs(cs.URL, "tp-0123", "--at-start", "--yes"),
	} {
		if code, out, errs := cli.Run(args...); code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q\n%s", args, code, out, errs)
		}
	}
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--yes", "--read-only")...); code == 0 || !strings.Contains(errs, "read-only") {
		t.Errorf("--read-only attach: exit %d\n%s", code, errs)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--yes")...); code != 1 || !strings.Contains(errs, "launch now") {
		t.Errorf("attach to an active block: exit %d\n%s", code, errs)
	}
	if rows := attached(t, cs.URL); len(rows) != 0 {
		t.Errorf("attached after refusals: %+v", rows)
	}
}
