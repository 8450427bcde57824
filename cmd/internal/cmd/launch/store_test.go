package launch

import (
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

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
	attachAtStart(t, a, blockA)
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
	cs := cmdtest.StartSim(t)
	blk := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, blk)
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
	cs := cmdtest.StartSim(t)
	blk := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, blk)
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
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	log := filepath.Join(t.TempDir(), "events")
	blocksRound(t, cs.URL, "--notify-cmd", `echo "$GPUBLOCK_WARNING|$GPUBLOCK_END|$GPUBLOCK_EXTEND_BY|$GPUBLOCK_INSTANCE_TYPE|$GPUBLOCK_ACCOUNT" >> `+log)
	raw, _ := os.ReadFile(log)
	end := cmdtest.MustTime(t, b.EndDate).UTC()
	want := "launch-at-start|" + end.Format(time.RFC3339) + "|" + end.Add(-time.Hour).Format(time.RFC3339) + "|" + b.InstanceType + "|" + ec2sim.DemoAccount
	if !strings.Contains(string(raw), want) {
		t.Errorf("notified %q, want %q", raw, want)
	}
}

// A started block whose attached launch has not fired yet (here: the watcher is read-only
// and leaves it to one that may launch) is about to be filled, not idle: no IDLE warning.
func TestNoIdleWarningWhileAnAttachedLaunchWaits(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	log := filepath.Join(t.TempDir(), "events")
	notifyCmd := []string{"--notify-cmd", `echo "$GPUBLOCK_WARNING" >> ` + log}
	blocksRound(t, cs.URL, append([]string{"--read-only"}, notifyCmd...)...)
	if raw, _ := os.ReadFile(log); strings.Contains(string(raw), "idle") {
		t.Errorf("warned idle while its launch waits:\n%s", raw)
	}
	// Once the launch is cancelled, the idle block is warned of.
	if code, _, errs := cli.Run("launch", "--cancel", b.CapacityReservationId, "--endpoint-url", cs.URL); code != 0 {
		t.Fatalf("cancel: exit %d\n%s", code, errs)
	}
	blocksRound(t, cs.URL, notifyCmd...)
	if raw, _ := os.ReadFile(log); !strings.Contains(string(raw), "idle") {
		t.Errorf("no idle warning once the launch was cancelled:\n%s", raw)
	}
}

// A watcher killed after it recorded the launch and before its notification went out (the
// record of warnings sent does not hold it): the next round delivers it, once.
func TestLaunchAtStartNotificationNotDeliveredIsDeliveredNextRound(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	attachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	log := filepath.Join(t.TempDir(), "events")
	notifyCmd := `echo "$GPUBLOCK_WARNING" >> ` + log
	blocksRound(t, cs.URL, "--notify-cmd", notifyCmd)
	if raw, _ := os.ReadFile(log); !strings.Contains(string(raw), "launch-at-start") {
		t.Fatalf("the launch was not notified when it started:\n%s", raw)
	}
	if err := os.Remove(cmdtest.StateFile(t, "notified.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		blocksRound(t, cs.URL, "--notify-cmd", notifyCmd)
	}
	raw, _ := os.ReadFile(log)
	if n := strings.Count(string(raw), "launch-at-start"); n != 1 {
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
	b := cli.BoughtBlock(t, &cmdtest.Sim{URL: url})
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(url, b.CapacityReservationId, "--at-start", "--count", "2", "--yes")...); code != 0 {
		t.Fatalf("attach: exit %d\n%s", code, errs)
	}
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
