package blocks

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/health"
)

// runWatch runs `gpublock watch args...` until ctx ends, its stderr in errb.
func runWatch(ctx context.Context, errb *cmdtest.Buffer, args ...string) int {
	f := cli.Factory(&cmdtest.Buffer{}, errb)
	return cmdtest.ExecAll(ctx, f, []*cobra.Command{NewCmdWatch(f, nil)}, append([]string{"watch"}, args...)...)
}

// startWatch runs `gpublock watch args...` in the background, its stderr in errb, until
// stop or the test's end; its exit status comes on done.
func startWatch(t *testing.T, errb *cmdtest.Buffer, args ...string) (done <-chan int, stop context.CancelFunc) {
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	exit := make(chan int, 1)
	go func() { exit <- runWatch(ctx, errb, args...) }()
	return exit, stop
}

// exited is the exit status the watcher sends on done; none within the wait fails the test
// with what it was waiting for.
func exited(t *testing.T, done <-chan int, within time.Duration, what string) int {
	t.Helper()
	select {
	case code := <-done:
		return code
	case <-time.After(within):
		t.Fatal(what)
		return -1
	}
}

// readHealth is the health file, or the zero status while it is not written.
func readHealth(t *testing.T, path string) health.Status {
	t.Helper()
	var s health.Status
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("health file %s is not whole JSON: %v\n%s", path, err, data)
		}
	}
	return s
}

// The watcher as a service, against the emulator with an active block: every line it writes
// is one JSON object with time, level, msg and event; the block's warning names its
// reservation and region; the health file and /healthz say a round ended; a stop asked while
// it waits for the next round (the SIGTERM of main's context) ends it at once with exit 0
// and a last health that says "stopped".
func TestWatchLogsJSONKeepsHealthAndStopsBetweenRounds(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	healthFile := filepath.Join(t.TempDir(), "health.json")

	var errb cmdtest.Buffer
	done, stop := startWatch(t, &errb, "--endpoint-url", cs.URL, "--region", b.Region, "--warn-leads", "72h",
		"--log-format", "json", "--interval", "1h", "--health-file", healthFile, "--health-addr", "127.0.0.1:0")
	deadline := time.Now().Add(60 * time.Second)
	for readHealth(t, healthFile).Rounds < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("no round ended; stderr:\n%s", errb.String())
		}
		select {
		case code := <-done:
			t.Fatalf("exit %d before a round ended; stderr:\n%s", code, errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if s := readHealth(t, healthFile); s.Status != "ok" || s.Outcome != "ok" || s.LastRoundEnd.IsZero() {
		t.Errorf("health after a round: %+v", s)
	}

	events := parseEvents(t, errb.String())
	var addr string
	for _, e := range events {
		if e["event"] == "started" {
			addr, _ = e["health_addr"].(string)
		}
	}
	if addr == "" {
		t.Fatalf("no started event with the health address:\n%s", errb.String())
	}
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	var got health.Status
	_ = json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || got.Rounds != 1 || got.Status != "ok" {
		t.Errorf("GET /healthz: %d %+v, want 200 after one round", resp.StatusCode, got)
	}

	stop() // SIGTERM while it waits an hour for the next round
	if code := exited(t, done, 30*time.Second, "the watcher did not stop while waiting between rounds"); code != 0 {
		t.Errorf("exit %d after the stop, want 0; stderr:\n%s", code, errb.String())
	}
	if s := readHealth(t, healthFile); s.Status != "stopped" || s.Rounds != 1 {
		t.Errorf("last health: %+v, want stopped after 1 round", s)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Errorf("the health endpoint still answers after the stop")
	}

	events = parseEvents(t, errb.String())
	kinds := map[string]int{}
	for _, e := range events {
		kinds[e["event"].(string)]++
		if e["event"] == "warning" {
			if e["reservation"] != b.CapacityReservationId || e["region"] != b.Region || e["level"] != "WARN" {
				t.Errorf("warning event %v, want reservation %s, region %s, level WARN", e, b.CapacityReservationId, b.Region)
			}
		}
	}
	for _, k := range []string{"started", "round-started", "round-ended", "warning", "stopped"} {
		if kinds[k] == 0 {
			t.Errorf("no %q event in:\n%s", k, errb.String())
		}
	}
	if kinds["round-ended"] != 1 || !strings.Contains(errb.String(), `"msg":"▲ EXTEND BY`) {
		t.Errorf("events %v: want one round and its EXTEND BY warning:\n%s", kinds, errb.String())
	}
}

// parseEvents parses every line of a JSON log, failing on any line that is not an event.
func parseEvents(t *testing.T, log string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON line: %q (%v)", line, err)
		}
		for _, k := range []string{"time", "level", "msg", "event"} {
			if _, ok := e[k].(string); !ok {
				t.Fatalf("line without %q: %q", k, line)
			}
		}
		if _, err := time.Parse(time.RFC3339Nano, e["time"].(string)); err != nil {
			t.Fatalf("time of %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

// Bad service flags are bad usage before anything is called.
func TestWatchBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--log-format", "xml"},
		{"-o", "json"},
		{"--stale-after", "-1m"},
	} {
		var errb cmdtest.Buffer
		if code := runWatch(context.Background(), &errb, append([]string{"--demo"}, args...)...); code != 2 {
			t.Errorf("watch %v: exit %d, want 2; stderr %s", args, code, errb.String())
		}
	}
}

// A health address already in use is said, and the watcher exits 1 before any round.
func TestWatchHealthAddressInUse(t *testing.T) {
	_, stop, err := health.Serve("127.0.0.1:0", health.New(time.Now, time.Minute, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// The address of a running server: listen on it again.
	bound, stop2, err := health.Serve("127.0.0.1:0", health.New(time.Now, time.Minute, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	var errb cmdtest.Buffer
	code := runWatch(context.Background(), &errb, "--demo", "--region", "us-east-1", "--health-addr", bound, "--log-format", "json")
	if code != 1 || !strings.Contains(errb.String(), "--health-addr") || strings.Contains(errb.String(), "round-started") {
		t.Errorf("exit %d, stderr %s: want 1, the address named, no round", code, errb.String())
	}
}

// A stop asked while a round's calls are in flight lets the round finish: its end is logged
// and recorded, and only then does the watcher stop, with exit 0.
func TestWatchFinishesTheRoundUnderWayOnStop(t *testing.T) {
	cs := cmdtest.StartSim(t)
	var errb cmdtest.Buffer
	// The calls of the first round (those after its start is logged) wait for the test.
	var released atomic.Bool
	held, release := make(chan struct{}, 1), make(chan struct{})
	gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !released.Load() && strings.Contains(errb.String(), `"event":"round-started"`) {
			select {
			case held <- struct{}{}:
			default:
			}
			<-release
		}
		cs.Emulator.ServeHTTP(w, r)
	}))
	defer gate.Close()
	healthFile := filepath.Join(t.TempDir(), "health.json")
	done, stop := startWatch(t, &errb, "--endpoint-url", gate.URL, "--region", "us-east-1", "--log-format", "json",
		"--interval", "1h", "--health-file", healthFile)
	select {
	case <-held:
	case code := <-done:
		t.Fatalf("exit %d before any call:\n%s", code, errb.String())
	}
	stop() // SIGTERM while the round waits for AWS
	released.Store(true)
	close(release)
	if code := exited(t, done, 60*time.Second, "the watcher did not stop after its round"); code != 0 {
		t.Errorf("exit %d, want 0:\n%s", code, errb.String())
	}
	events := parseEvents(t, errb.String())
	var ended, stopped bool
	for _, e := range events {
		switch e["event"] {
		case "round-ended":
			ended = e["outcome"] == "ok" && !stopped
		case "stopped":
			stopped = true
		}
	}
	if !ended || !stopped {
		t.Errorf("want the round's end (ok), then the stop:\n%s", errb.String())
	}
	if s := readHealth(t, healthFile); s.Rounds != 1 || s.Status != "stopped" || s.Outcome != "ok" {
		t.Errorf("health %+v, want 1 round, ok, stopped", s)
	}
}

// watchOneRound runs gpublock watch with JSON logs until its first round ended, stops it,
// and returns its events.
func watchOneRound(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var errb cmdtest.Buffer
	done, stop := startWatch(t, &errb, append([]string{"--log-format", "json", "--interval", "1h"}, args...)...)
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(errb.String(), `"event":"round-ended"`); time.Sleep(10 * time.Millisecond) {
		select {
		case code := <-done:
			t.Fatalf("exit %d before a round ended:\n%s", code, errb.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no round ended:\n%s", errb.String())
		}
	}
	stop()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d:\n%s", code, errb.String())
	}
	return parseEvents(t, errb.String())
}

// A launch attached to a block's start, fired by the watcher, is a launch event that names
// the block.
func TestWatchLogsTheLaunchAtTheStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cli.AttachAtStart(t, cs, b)
	cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
	var launches []map[string]any
	for _, e := range watchOneRound(t, "--endpoint-url", cs.URL, "--region", "us-east-1") {
		if e["event"] == "launch" {
			launches = append(launches, e)
		}
	}
	if len(launches) != 1 || launches[0]["reservation"] != b.CapacityReservationId || launches[0]["level"] != "INFO" ||
		!strings.Contains(launches[0]["msg"].(string), "started i-") {
		t.Errorf("launch events %v, want one naming %s", launches, b.CapacityReservationId)
	}
}

// An extension by policy is an extension event that names the block.
func TestWatchLogsTheAutoExtension(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.RunningBlock(t, cs)
	var exts []map[string]any
	for _, e := range watchOneRound(t, "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-leads", "3d", "--auto-extend", "1d") {
		if e["event"] == "extension" && strings.Contains(e["msg"].(string), "AUTO-EXTENDED") {
			exts = append(exts, e)
		}
	}
	if len(exts) != 1 || exts[0]["reservation"] != b.CapacityReservationId || exts[0]["level"] != "INFO" || exts[0]["region"] != "us-east-1" {
		t.Errorf("extension events %v, want one naming %s", exts, b.CapacityReservationId)
	}
	if n := extensions(t, cs); n != 1 {
		t.Errorf("%d extensions, want 1", n)
	}
}
