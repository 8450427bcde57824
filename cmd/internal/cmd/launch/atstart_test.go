package launch

import (
	"context"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/aws/ec2sim"
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
	return cmdtest.RunJSON[[]attachedRow](t, cli, "launch", "--pending", "--endpoint-url", url, "-o", "json")
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

// attachedBlock is a block bought on an emulator of its own, with a launch attached to its
// start.
func attachedBlock(t *testing.T) (*cmdtest.Sim, printers.BlockJSON) {
	t.Helper()
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cli.AttachAtStart(t, cs, b)
	return cs, b
}

// notifyLog is the --notify-cmd flags of a command that appends what echo says of what to
// a file of the test's, and that file.
func notifyLog(t *testing.T, what string) (flags []string, log string) {
	log = filepath.Join(t.TempDir(), "events")
	return []string{"--notify-cmd", `echo "` + what + `" >> ` + log}, log
}

// readLog is what the notifications wrote to log, "" before any.
func readLog(log string) string {
	raw, _ := os.ReadFile(log)
	return string(raw)
}

func TestLaunchAtStartRunsOnceWhenTheBlockStarts(t *testing.T) {
	cs, b := attachedBlock(t)
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
	cs, b := attachedBlock(t)
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
	cs, b := attachedBlock(t)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.EndDate).Add(time.Hour))
	notify, log := notifyLog(t, "$GPUBLOCK_WARNING $GPUBLOCK_TEXT")
	errs := blocksRound(t, cs.URL, notify...)
	if n := len(simInstances(t, cs.URL)); n != 0 {
		t.Errorf("%d instances launched into an ended block", n)
	}
	if rows := attached(t, cs.URL); len(rows) != 1 || rows[0].State != "cancelled" || !strings.Contains(rows[0].Reason, "ended before") {
		t.Errorf("launch --pending: %+v\n%s", rows, errs)
	}
	got := readLog(log)
	if !strings.Contains(got, "launch-at-start gpublock: the launch at the start of "+b.CapacityReservationId) {
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

// stateSnapshot is every file under $XDG_STATE_HOME and what it holds.
func stateSnapshot(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := os.Getenv("XDG_STATE_HOME")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

func sameState(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed %s", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s wrote %s", what, p)
		}
	}
}

// Two emulators standing for two accounts on one machine, whose blocks have the same id:
// a launch attached in one account is fired by a watcher of that account only, and no run
// of the other account cancels it, fires it into its own block, or reads its journal.
func TestLaunchAtStartIsItsAccountsOnly(t *testing.T) {
	a := cmdtest.StartSim(t, func(o *ec2sim.Options) { o.Account = "111111111111" })
	b := cmdtest.StartSim(t, func(o *ec2sim.Options) { o.Account = "222222222222" })
	blockA, blockB := cli.BoughtBlock(t, a), cli.BoughtBlock(t, b)
	cli.AttachAtStart(t, a, blockA)
	for _, cs := range []*cmdtest.Sim{a, b} {
		cs.Emulator.SetTime(cmdtest.MustTime(t, blockA.StartDate).Add(time.Minute))
	}
	// Account b's watcher: its own block (of the same id, maybe) gets nothing.
	blocksRound(t, b.URL)
	if n := len(simInstances(t, b.URL)); n != 0 {
		t.Fatalf("account b's round started %d instances in b's block %s: a's launch", n, blockB.CapacityReservationId)
	}
	if rows := attached(t, b.URL); len(rows) != 0 {
		t.Errorf("account b lists a's attached launch: %+v", rows)
	}
	if rows := attached(t, a.URL); len(rows) != 1 || rows[0].State != "pending" {
		t.Fatalf("after b's round, a's launch is %+v, want still pending", rows)
	}
	if code, _, errs := cli.Run("launch", "--cancel", blockA.CapacityReservationId, "--endpoint-url", b.URL); code == 0 {
		t.Errorf("account b cancelled a's launch: %s", errs)
	}
	// The demo on the same machine neither.
	if code, _, errs := cli.Run("blocks", "--demo", "--region", "us-east-1", "-o", "json"); code != 0 {
		t.Fatalf("blocks --demo: exit %d\n%s", code, errs)
	}
	if rows := attached(t, a.URL); len(rows) != 1 || rows[0].State != "pending" {
		t.Fatalf("after a --demo round, a's launch is %+v, want still pending", rows)
	}
	blocksRound(t, a.URL)
	if n, m := len(simInstances(t, a.URL)), len(simInstances(t, b.URL)); n != 2 || m != 0 {
		t.Fatalf("after a's round: %d instances in a, %d in b; want 2 and 0", n, m)
	}
	// Each journal is its account's: b's holds no launch.
	var seen int
	for _, p := range cmdtest.StateFiles(t, "journal.jsonl") {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p, "/222222222222/") {
			seen++
			if strings.Contains(string(raw), "RunInstances") || !strings.Contains(string(raw), blockB.CapacityReservationId) {
				t.Errorf("b's journal %s:\n%s", p, raw)
			}
		}
	}
	if seen != 1 {
		t.Errorf("%d journals of account b, want 1", seen)
	}
}

// An emulator that is down changes nothing and says so: journal, launch --pending,
// launch --cancel and blocks exit non-zero and leave every record on the machine as it was
// (the issue: they fell back to the real account's directory, said "nothing bought" and
// cancelled a real pending launch).
func TestADownBackendChangesNothing(t *testing.T) {
	cs, blk := attachedBlock(t)
	// A real account's pending launch, as an earlier version kept it, at the root.
	root := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock")
	legacy := `[{"reservation_id":"` + blk.CapacityReservationId + `","region":"us-east-1","token":"gpb-real","state":"pending","spec":{"ImageID":"ami-0123456789abcdef0","Count":1}}]` + "\n"
	if err := os.WriteFile(filepath.Join(root, "launches-at-start.json"), []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	cs.Emulator.SetTime(cmdtest.MustTime(t, blk.EndDate).Add(time.Hour)) // its block has ended
	cs.Stop()
	before := stateSnapshot(t)
	t.Setenv("AWS_MAX_ATTEMPTS", "1")
	for _, args := range [][]string{
		{"journal", "--endpoint-url", cs.URL, "--no-settle"},
		{"journal", "--endpoint-url", cs.URL},
		{"launch", "--pending", "--endpoint-url", cs.URL},
		{"launch", "--cancel", blk.CapacityReservationId, "--endpoint-url", cs.URL},
		{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1"},
	} {
		code, out, errs := cli.Run(args...)
		if code == 0 || strings.Contains(errs+out, "nothing bought") {
			t.Errorf("%v with the emulator down: exit %d\n%s\n%s", args, code, out, errs)
		}
	}
	sameState(t, "a run against a backend that is down", before, stateSnapshot(t))
}

// A damaged record of attached launches is said and fails the run (exit 1), so that cron
// learns that those launches can no longer fire.
func TestBlocksWithADamagedAttachedLaunchFails(t *testing.T) {
	cs, _ := attachedBlock(t)
	p := cmdtest.StateFile(t, "launches-at-start.json")
	if err := os.WriteFile(p, []byte("[{"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1")
	if code == 0 || !strings.Contains(errs, "damaged") {
		t.Fatalf("blocks over a damaged record: exit %d\n%s", code, errs)
	}
}

// The notification of an at-start launch says the block's end, its extension cutoff, zone,
// type and account, as every warning does (they were 0001-01-01 and empty).
func TestLaunchAtStartNotificationNamesItsBlock(t *testing.T) {
	cs, b := attachedBlock(t)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	notify, log := notifyLog(t, "$GPUBLOCK_WARNING|$GPUBLOCK_END|$GPUBLOCK_EXTEND_BY|$GPUBLOCK_INSTANCE_TYPE|$GPUBLOCK_ACCOUNT")
	blocksRound(t, cs.URL, notify...)
	raw := readLog(log)
	end := cmdtest.MustTime(t, b.EndDate).UTC()
	want := "launch-at-start|" + end.Format(time.RFC3339) + "|" + end.Add(-time.Hour).Format(time.RFC3339) + "|" + b.InstanceType + "|" + ec2sim.DemoAccount
	if !strings.Contains(raw, want) {
		t.Errorf("notified %q, want %q", raw, want)
	}
}

// A started block whose attached launch has not fired yet (here: the watcher is read-only
// and leaves it to one that may launch) is about to be filled, not idle: no IDLE warning.
func TestNoIdleWarningWhileAnAttachedLaunchWaits(t *testing.T) {
	cs, b := attachedBlock(t)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	notifyCmd, log := notifyLog(t, "$GPUBLOCK_WARNING")
	blocksRound(t, cs.URL, append([]string{"--read-only"}, notifyCmd...)...)
	if raw := readLog(log); strings.Contains(raw, "idle") {
		t.Errorf("warned idle while its launch waits:\n%s", raw)
	}
	// Once the launch is cancelled, the idle block is warned of.
	if code, _, errs := cli.Run("launch", "--cancel", b.CapacityReservationId, "--endpoint-url", cs.URL); code != 0 {
		t.Fatalf("cancel: exit %d\n%s", code, errs)
	}
	blocksRound(t, cs.URL, notifyCmd...)
	if raw := readLog(log); !strings.Contains(raw, "idle") {
		t.Errorf("no idle warning once the launch was cancelled:\n%s", raw)
	}
}

// A watcher killed after it recorded the launch and before its notification went out (the
// record of warnings sent does not hold it): the next round delivers it, once.
func TestLaunchAtStartNotificationNotDeliveredIsDeliveredNextRound(t *testing.T) {
	cs, b := attachedBlock(t)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	notifyCmd, log := notifyLog(t, "$GPUBLOCK_WARNING")
	blocksRound(t, cs.URL, notifyCmd...)
	if raw := readLog(log); !strings.Contains(raw, "launch-at-start") {
		t.Fatalf("the launch was not notified when it started:\n%s", raw)
	}
	if err := os.Remove(cmdtest.StateFile(t, "notified.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		blocksRound(t, cs.URL, notifyCmd...)
	}
	raw := readLog(log)
	if n := strings.Count(raw, "launch-at-start"); n != 1 {
		t.Errorf("the launch notified %d times after its first delivery was lost, want once:\n%s", n, raw)
	}
	if n := len(simInstances(t, cs.URL)); n != 2 {
		t.Errorf("%d instances, want the 2 of the one launch", n)
	}
}

// serveAt serves sim on addr (host:port) until stop; it returns its URL.
func serveAt(t *testing.T, addr string, sim *ec2sim.Server) (url string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: sim}
	go srv.Serve(ln)
	stop = func() { _ = srv.Close() }
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

func emulatorOn(t *testing.T, state string) *ec2sim.Server {
	t.Helper()
	sim, err := ec2sim.New(ec2sim.Options{Seed: 1, Start: cmdtest.SimStart, Speed: 1e-9, StateFile: state})
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// An emulator is a backend by what it is, not by its port: another emulator (another
// state) later on the same port sees none of the first's launches and cancels none; the
// first, started again on its state, has them all.
func TestAnotherEmulatorOnThePortIsAnotherBackend(t *testing.T) {
	cmdtest.StartSim(t) // the environment of a script
	first := filepath.Join(t.TempDir(), "first.json")
	url, stop := serveAt(t, "127.0.0.1:0", emulatorOn(t, first))
	addr := strings.TrimPrefix(url, "http://")
	at := &cmdtest.Sim{URL: url}
	b := cli.BoughtBlock(t, at)
	cli.AttachAtStart(t, at, b)
	stop()

	_, stop = serveAt(t, addr, emulatorOn(t, filepath.Join(t.TempDir(), "second.json")))
	if rows := attached(t, url); len(rows) != 0 {
		t.Errorf("another emulator on the port lists the first's launches: %+v", rows)
	}
	if code, _, errs := cli.Run("launch", "--cancel", b.CapacityReservationId, "--endpoint-url", url); code == 0 {
		t.Errorf("another emulator on the port cancelled the first's launch: %s", errs)
	}
	stop()

	serveAt(t, addr, emulatorOn(t, first))
	if rows := attached(t, url); len(rows) != 1 || rows[0].State != "pending" {
		t.Errorf("the first emulator again: its launch is %+v, want still pending", rows)
	}
}
