//go:build unix

package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// teamKeys are the static keys the tests' own SDK clients reach the emulator with.
var teamKeys = credentials.NewStaticCredentialsProvider("AKIAE2ETEST000000001", "x", "")

// teamBucket makes the bucket of a team's store in the emulator's S3, through the SDK.
func teamBucket(t *testing.T, url string) {
	t.Helper()
	c := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true, Credentials: teamKeys})
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("team")}); err != nil {
		t.Fatal(err)
	}
}

// killedTUIAt starts the terminal UI on a pseudo-terminal and kills it (SIGKILL) after d,
// wherever it is.
func killedTUIAt(t *testing.T, env []string, d time.Duration, args ...string) {
	t.Helper()
	term := startE2ETerm(t, env, 120, 40, nil, args...)
	time.Sleep(d)
	_ = term.cmd.Process.Signal(syscall.SIGKILL)
	<-term.exited
}

// deliveredOnce reports whether a notification delivered n times was delivered once, as
// far as a sender killed with SIGKILL allows: one killed after the delivery and before
// its record leaves it to be delivered again (at least once, with GPUBLOCK_KEY for the
// receiver to know it), so a second delivery is allowed; none, or a third, is not.
func deliveredOnce(n int) bool { return n == 1 || n == 2 }

// killedAt starts the binary and kills it (SIGKILL) after d, wherever it is.
func killedAt(t *testing.T, env []string, d time.Duration, args ...string) {
	t.Helper()
	cmd := e2eCommand(t, env, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// runAs is a CLI whose every run is run: the binary, as one machine runs it.
func runAs(run func(args ...string) (int, string, string)) *cmdtest.CLI {
	return &cmdtest.CLI{Exec: func(_ context.Context, f *cmdutil.Factory, args []string) int {
		code, out, errs := run(args...)
		io.WriteString(f.IOStreams.Out, out)
		io.WriteString(f.IOStreams.ErrOut, errs)
		return code
	}}
}

// twoMachines starts an emulator with the team's bucket and two machines (two HOMEs) whose
// commands keep their records under one S3 prefix (state, appended by run(i)), machine 1
// having bought a block of 2; notified is the file a notify command may append to. A killed
// watcher's locks and claims on warnings hold the others off 2 s.
func twoMachines(t *testing.T) (sim *e2eSim, homes [][]string, state []string, run func(i int) func(args ...string) (int, string, string), b printers.BlockJSON, notified string) {
	sim = startE2ESim(t, 1, cmdtest.SimStart)
	teamBucket(t, sim.url)
	notified = filepath.Join(t.TempDir(), "notified")
	machine := func() []string {
		return append(e2eEnv(t, sim, t.TempDir()), "GPUBLOCK_STATE_LOCK_TTL=2s", "GPUBLOCK_NOTIFY_LEASE=2s")
	}
	homes = [][]string{machine(), machine()}
	state = []string{"--state", "s3://team/gpublock"}
	run = func(i int) func(args ...string) (int, string, string) {
		return func(args ...string) (int, string, string) { return e2eRun(t, homes[i], append(args, state...)...) }
	}
	b = runAs(run(0)).BoughtBlock(t, &cmdtest.Sim{URL: sim.url})
	return sim, homes, state, run, b, notified
}

// Two machines (two HOMEs) share one S3 prefix on the emulator. A launch attached on one is
// the other's to see, and when its block starts, their watchers and terminal UIs, run at
// once and killed with SIGKILL at every moment of a round, start it once and notify it once.
func TestTeamStoreInS3OneLaunchOneNotification(t *testing.T) {
	sim, homes, state, run, b, notified := twoMachines(t)
	if code, _, errs := run(0)(cmdtest.LaunchArgs(sim.url, b.CapacityReservationId, "--at-start", "--count", "2", "--yes")...); code != 0 {
		t.Fatalf("attach on machine 1: exit %d\n%s", code, errs)
	}
	if code, out, errs := run(1)("launch", "--pending", "-o", "json"); code != 0 || !strings.Contains(out, b.CapacityReservationId) {
		t.Fatalf("machine 2 does not see machine 1's launch: exit %d\n%s\n%s", code, out, errs)
	}
	// Kept in the bucket, not on either machine.
	for i := range homes {
		if ps, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(homes[i][3], "XDG_STATE_HOME="), "gpublock", "*", "*", "launches-at-start.json")); len(ps) != 0 {
			t.Errorf("machine %d keeps the launch locally: %v", i+1, ps)
		}
	}
	sim.setClock(t, cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	notifyCmd := []string{"--notify-cmd", "echo \"$GPUBLOCK_WARNING $GPUBLOCK_RESERVATION_ID\" >> " + notified}
	watch := append([]string{"blocks", "--region", "us-east-1"}, notifyCmd...)
	// Each machine's terminal UI on the blocks screen fires the launch too (at its start,
	// then every refresh), and is killed like the watchers.
	tui := append(append([]string{"--screen", "blocks", "--region", "us-east-1", "--refresh", "5s"}, notifyCmd...), state...)
	for i, d := range []time.Duration{0, 30 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond} {
		killedAt(t, homes[i%2], d, append(watch, state...)...)
		killedTUIAt(t, homes[(i+1)%2], d, tui...)
	}
	// Past every lease of the killed ones, a UI and a watcher on each machine at once.
	time.Sleep(2 * time.Second)
	var wg sync.WaitGroup
	var terms []*e2eTerm
	for i := range homes {
		terms = append(terms, startE2ETerm(t, homes[i], 120, 40, nil, tui...))
		wg.Go(func() {
			if code, _, errs := run(i)(watch...); code != 0 {
				t.Errorf("machine %d's round: exit %d\n%s", i+1, code, errs)
			}
		})
	}
	wg.Wait()
	for _, term := range terms {
		term.waitText(b.CapacityReservationId) // each UI has listed the blocks, its launches fired
	}
	// The notification goes out after the launch, from whichever fired it.
	for deadline := time.Now().Add(e2eWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if raw, _ := os.ReadFile(notified); strings.Contains(string(raw), "launch-at-start "+b.CapacityReservationId) {
			break
		}
	}
	c := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(sim.url), Credentials: teamKeys})
	out, err := c.DescribeInstances(context.Background(), &ec2.DescribeInstancesInput{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range out.Reservations {
		n += len(r.Instances)
	}
	if n != 2 {
		t.Errorf("%d instances started, want the 2 of one launch", n)
	}
	raw, _ := os.ReadFile(notified)
	if got := strings.Count(string(raw), "launch-at-start "+b.CapacityReservationId); !deliveredOnce(got) {
		t.Errorf("the launch was notified %d times, want once:\n%s", got, raw)
	}
	if code, out, errs := run(1)("launch", "--pending", "-o", "json"); code != 0 || !strings.Contains(out, `"launched"`) {
		t.Errorf("machine 2 after the rounds: exit %d\n%s\n%s", code, out, errs)
	}
}

// watchRounds runs `gpublock watch` until its health file says it ended rounds rounds,
// then stops it with SIGTERM (between rounds) and returns its stderr.
func watchRounds(t *testing.T, env []string, rounds int, args ...string) string {
	t.Helper()
	health := filepath.Join(t.TempDir(), "health.json")
	cmd := e2eCommand(t, env, append([]string{"watch", "--health-file", health}, args...)...)
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(e2eWait); ; time.Sleep(20 * time.Millisecond) {
		var h struct{ Rounds int }
		if raw, err := os.ReadFile(health); err == nil && json.Unmarshal(raw, &h) == nil && h.Rounds >= rounds {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("gpublock watch ended no %d rounds:\n%s", rounds, errb.String())
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Errorf("gpublock watch after SIGTERM: %v\n%s", err, errb.String())
	}
	return errb.String()
}

// Two machines (two HOMEs) share one S3 prefix on the emulator, each with a watcher that
// extends by policy. Killed with SIGKILL at every moment of their rounds, then run at once,
// they extend the block once, notify the extension once, and each warning once.
func TestTeamStoreInS3OneExtensionOneNotification(t *testing.T) {
	sim, homes, state, run, b, notified := twoMachines(t)
	sim.setClock(t, cmdtest.MustTime(t, b.StartDate).Add(time.Hour))
	// A block that runs an instance is extended by the policy; its 2 days are within the
	// 3-day lead at once.
	if code, _, errs := run(1)(cmdtest.LaunchArgs(sim.url, b.CapacityReservationId, "--count", "1", "--yes")...); code != 0 {
		t.Fatalf("launch on machine 2: exit %d\n%s", code, errs)
	}
	watch := append([]string{"--region", "us-east-1", "--interval", "1s", "--auto-extend", "1d", "--warn-leads", "3d",
		"--notify-cmd", "echo \"$GPUBLOCK_WARNING $GPUBLOCK_RESERVATION_ID\" >> " + notified}, state...)
	for i, d := range []time.Duration{0, 30 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond, 250 * time.Millisecond,
		400 * time.Millisecond, 600 * time.Millisecond, 900 * time.Millisecond} {
		killedAt(t, homes[i%2], d, append([]string{"watch"}, watch...)...)
	}
	// Past every lease of the killed watchers, both run at once.
	time.Sleep(2 * time.Second)
	var wg sync.WaitGroup
	said := make([]string, len(homes))
	for i := range homes {
		wg.Go(func() { said[i] = watchRounds(t, homes[i], 3, watch...) })
	}
	wg.Wait()
	defer func() {
		if t.Failed() {
			t.Logf("the watchers said:\n%s\n---\n%s", said[0], said[1])
		}
	}()

	c := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(sim.url), Credentials: teamKeys})
	hist, err := c.DescribeCapacityBlockExtensionHistory(context.Background(), &ec2.DescribeCapacityBlockExtensionHistoryInput{
		CapacityReservationIds: []string{b.CapacityReservationId}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist.CapacityBlockExtensions); n != 1 {
		t.Errorf("%d extensions of %s, want 1: %+v", n, b.CapacityReservationId, hist.CapacityBlockExtensions)
	}
	raw, _ := os.ReadFile(notified)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	seen := map[string]int{}
	for _, l := range lines {
		seen[l]++
	}
	// (EXTEND BY is a warning only until the extension is bought: a watcher that extends
	// in its first round may leave it unsent, rightly.)
	if n := seen["auto-extended "+b.CapacityReservationId]; !deliveredOnce(n) {
		t.Errorf("the extension was notified %d times, want once:\n%s", n, raw)
	}
	for l, n := range seen {
		if !deliveredOnce(n) {
			t.Errorf("%q notified %d times, want once", l, n)
		}
	}
	// The journal, in the bucket, holds one extension bought (an interrupted one settled as
	// not bought may stand beside it).
	code, out, errs := run(0)("journal", "-o", "json")
	var entries []struct{ Action, Outcome string }
	if err := json.Unmarshal([]byte(out), &entries); err != nil {
		t.Fatalf("journal -o json: %v\n%s", err, out)
	}
	bought := 0
	for _, e := range entries {
		if e.Action == "PurchaseCapacityBlockExtension" && e.Outcome == "bought" {
			bought++
		}
	}
	if code != 0 || bought != 1 {
		t.Errorf("journal on machine 1: exit %d, %d extensions bought, want 1\n%s\n%s", code, bought, out, errs)
	}
}
