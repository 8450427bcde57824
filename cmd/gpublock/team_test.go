package main

import (
	"context"
	"os"
	"os/exec"
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
)

// teamBucket makes the bucket of a team's store in the emulator's S3, through the SDK.
func teamBucket(t *testing.T, url string) {
	t.Helper()
	c := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider("AKIAE2ETEST000000001", "x", "")})
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String("team")}); err != nil {
		t.Fatal(err)
	}
}

// killedAt starts the binary and kills it (SIGKILL) after d, wherever it is.
func killedAt(t *testing.T, env []string, d time.Duration, args ...string) {
	t.Helper()
	cmd := exec.Command(e2eBinary(t), args...)
	cmd.Env = env
	cmd.SysProcAttr = e2eProcAttr(syscall.SysProcAttr{})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
}

// Two machines (two HOMEs) share one S3 prefix on the emulator. A launch attached on one is
// the other's to see, and when its block starts, their watchers, run at once and killed
// with SIGKILL at every moment of a round, start it once and notify it once.
func TestTeamStoreInS3OneLaunchOneNotification(t *testing.T) {
	sim := startE2ESim(t, 1, cmdtest.SimStart)
	teamBucket(t, sim.url)
	notified := filepath.Join(t.TempDir(), "notified")
	machine := func() []string {
		env := e2eEnv(t, sim, t.TempDir())
		return append(env, "GPUBLOCK_STATE_LOCK_TTL=2s")
	}
	homes := [][]string{machine(), machine()}
	state := []string{"--state", "s3://team/gpublock"}
	run := func(i int) cmdtest.Run {
		return func(args ...string) (int, string, string) { return e2eRun(t, homes[i], append(args, state...)...) }
	}
	b := cmdtest.BoughtBlock(t, run(0), &cmdtest.Sim{URL: sim.url})
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
	watch := []string{"blocks", "--region", "us-east-1", "--notify-cmd", "echo \"$GPUBLOCK_WARNING $GPUBLOCK_RESERVATION_ID\" >> " + notified}
	for i, d := range []time.Duration{0, 30 * time.Millisecond, 80 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond, 600 * time.Millisecond} {
		killedAt(t, homes[i%2], d, append(watch, state...)...)
	}
	var wg sync.WaitGroup
	for i := range homes {
		wg.Go(func() {
			if code, _, errs := run(i)(watch...); code != 0 {
				t.Errorf("machine %d's round: exit %d\n%s", i+1, code, errs)
			}
		})
	}
	wg.Wait()
	c := ec2.New(ec2.Options{Region: "us-east-1", BaseEndpoint: aws.String(sim.url),
		Credentials: credentials.NewStaticCredentialsProvider("AKIAE2ETEST000000001", "x", "")})
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
	if got := strings.Count(string(raw), "launch-at-start "+b.CapacityReservationId); got != 1 {
		t.Errorf("the launch was notified %d times, want once:\n%s", got, raw)
	}
	if code, out, errs := run(1)("launch", "--pending", "-o", "json"); code != 0 || !strings.Contains(out, `"launched"`) {
		t.Errorf("machine 2 after the rounds: exit %d\n%s\n%s", code, out, errs)
	}
}
