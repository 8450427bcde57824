//go:build unix

package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func event(kind model.WarningKind) Event {
	b := block()
	return EventOf(b, model.Warning{Kind: kind}, end.Add(-35*time.Minute))
}

// Runs at once on one record (here goroutines with notifiers of their own, each as a
// separate gpublock would be: flock locks belong to the open file) send each warning once
// to each target, and the record keeps every run's deliveries.
func TestRunsAtOnceSendEachWarningOnce(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond) // a slow receiver widens the window of a race
		hits.Add(1)
	}))
	defer srv.Close()
	dir := t.TempDir()
	log := filepath.Join(dir, "cmd.log")
	state := filepath.Join(dir, "notified.json")
	kinds := []model.WarningKind{model.WarnExpiring, model.WarnTerminating, model.WarnCantExtend}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := New(Config{Command: "echo $GPUBLOCK_WARNING >> " + log, URL: srv.URL + "/hook", StatePath: state, Backoff: time.Millisecond})
			if err != nil {
				t.Error(err)
				return
			}
			for _, k := range kinds {
				n.Send(event(k))
			}
			n.Close(context.Background())
		}()
	}
	wg.Wait()
	if got := hits.Load(); got != int32(len(kinds)) {
		t.Errorf("the webhook received %d posts from 3 runs at once, want %d", got, len(kinds))
	}
	b, _ := os.ReadFile(log)
	if lines := strings.Fields(string(b)); len(lines) != len(kinds) {
		t.Errorf("the command ran %d times, want %d: %v", len(lines), len(kinds), lines)
	}
	s, err := readStateFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Delivered) != 2*len(kinds) || len(s.Claimed) != 0 {
		t.Errorf("the record holds %d deliveries and %d claims, want %d and 0: %v", len(s.Delivered), len(s.Claimed), 2*len(kinds), s)
	}
}

// A warning claimed by another run (its claim not yet expired) is left to it; once the
// claim expires (that run died) it is taken over.
func TestClaimHeldByAnotherRun(t *testing.T) {
	s := newState()
	now := time.Now()
	if !s.claim("url", "k", now, now.Add(time.Minute)) {
		t.Fatal("a free warning could not be claimed")
	}
	if s.claim("url", "k", now.Add(time.Second), now.Add(time.Minute)) {
		t.Error("a claimed warning was claimed twice")
	}
	if !s.claim("cmd", "k", now, now.Add(time.Minute)) {
		t.Error("a claim of one target held up another")
	}
	if !s.claim("url", "k", now.Add(2*time.Minute), now.Add(3*time.Minute)) {
		t.Error("an expired claim was not taken over")
	}
	s.settle("url", "k", false, now)
	if !s.claim("url", "k", now, now.Add(time.Minute)) {
		t.Error("a failed delivery was not free for the next run")
	}
	s.settle("url", "k", true, now)
	if s.claim("url", "k", now, now.Add(time.Minute)) {
		t.Error("a delivered warning was claimed again")
	}
}

// One target failing does not mark the warning sent to it when the other succeeds; the
// next run sends it to the failed one alone.
func TestFailedTargetRetriedNextRun(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1) }))
	defer srv.Close()
	dir := t.TempDir()
	state := filepath.Join(dir, "notified.json")
	flag := filepath.Join(dir, "ok")
	cmd := "test -e " + flag + " || { echo pager down >&2; exit 1; }"
	var reports []string
	n, _ := New(Config{Command: cmd, URL: srv.URL, StatePath: state, Backoff: time.Millisecond, Attempts: 2, Report: func(s string) { reports = append(reports, s) }})
	sent, failed := n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	if !sent || len(failed) != 1 || !strings.Contains(failed[0], "pager down") || !strings.Contains(failed[0], "tried again on the next run") || posts.Load() != 1 {
		t.Fatalf("sent %v, failures %v, posts %d", sent, failed, posts.Load())
	}
	os.WriteFile(flag, nil, 0o600)
	again, _ := New(Config{Command: cmd + "; echo ran >> " + flag, URL: srv.URL, StatePath: state, Backoff: time.Millisecond})
	sent, failed = again.Now(context.Background(), event(model.WarnExpiring))
	again.Close(context.Background())
	ran, _ := os.ReadFile(flag)
	if !sent || len(failed) != 0 || posts.Load() != 1 || strings.TrimSpace(string(ran)) != "ran" {
		t.Errorf("the next run: sent %v, failures %v, posts %d (want 1: the webhook had it), command ran %q", sent, failed, posts.Load(), ran)
	}
	third, _ := New(Config{Command: cmd, URL: srv.URL, StatePath: state})
	defer third.Close(context.Background())
	if third.Send(event(model.WarnExpiring)) {
		t.Error("a warning delivered to both targets was queued again")
	}
}

// An event that finds the queue full is not claimed: it is reported, and the next run
// sends it.
func TestFullQueueNotRecordedAsSent(t *testing.T) {
	release := make(chan struct{})
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1); <-release }))
	defer srv.Close()
	defer close(release)
	state := filepath.Join(t.TempDir(), "notified.json")
	var mu sync.Mutex
	var reports []string
	n, _ := New(Config{URL: srv.URL, StatePath: state, Report: func(s string) { mu.Lock(); reports = append(reports, s); mu.Unlock() }})
	b := block()
	queued := 0
	for i := 0; i < queueSize+10; i++ {
		b.ReservationID = fmt.Sprintf("cr-%04d", i)
		if n.Send(EventOf(b, model.Warning{Kind: model.WarnExpiring}, end.Add(-35*time.Minute))) {
			queued++
		}
	}
	mu.Lock()
	dropped := len(reports)
	mu.Unlock()
	if queued+dropped != queueSize+10 || dropped < 9 || !strings.Contains(reports[0], "tried again on the next run") {
		t.Fatalf("queued %d, reported %d: %v", queued, dropped, reports)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	n.Close(ctx)
	s, _ := readStateFile(state)
	for id := range s.Delivered {
		t.Errorf("%s recorded as delivered, though no post was answered", id)
	}
}

// A redirect is not followed: the receiver it points to gets nothing (no Referer with the
// secret URL, no body-less GET), and the delivery is a failure said without the secret.
func TestRedirectNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/collect", http.StatusFound)
	}))
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "notified.json")
	n, _ := New(Config{URL: srv.URL + "/services/SECRET", StatePath: state, Client: &http.Client{}})
	sent, failed := n.Now(context.Background(), event(model.WarnTerminating))
	n.Close(context.Background())
	if !sent || len(failed) != 1 || !strings.Contains(failed[0], "HTTP 302") || !strings.Contains(failed[0], "redirect") {
		t.Fatalf("sent %v, failures %v", sent, failed)
	}
	if strings.Contains(failed[0], "SECRET") || strings.Contains(failed[0], "collect") || elsewhere.Load() != 0 {
		t.Errorf("the failure %q shows a secret or the redirect was followed (%d)", failed[0], elsewhere.Load())
	}
	s, _ := readStateFile(state)
	if len(s.Delivered) != 0 {
		t.Errorf("a redirected post was recorded as delivered: %v", s.Delivered)
	}
}

// A record that cannot be written (a directory in its place) is said once, loudly; the
// warnings are still sent, once per run.
func TestUnwritableRecordSaidAndSentOnce(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1) }))
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "notified.json")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	var reports []string
	n, _ := New(Config{URL: srv.URL, StatePath: state, Report: func(s string) { reports = append(reports, s) }})
	if n.StateError() == nil || len(reports) != 1 || !strings.Contains(reports[0], "cannot be kept") || !strings.Contains(reports[0], state) {
		t.Fatalf("state error %v, reports %v", n.StateError(), reports)
	}
	n.Now(context.Background(), event(model.WarnExpiring))
	n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	if posts.Load() != 1 || len(reports) != 1 {
		t.Errorf("%d posts (want 1), reports %v (want the one)", posts.Load(), reports)
	}
}

// The command gets none of the AWS credential variables, and what it says on stderr is
// redacted before it is printed.
func TestCommandWithoutCredentials(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE")
	t.Setenv("AWS_SESSION_TOKEN", "FwoGZXIvYXdzEJr//////////wEaDEXAMPLE")
	t.Setenv("AWS_REGION", "us-east-1")
	out := filepath.Join(t.TempDir(), "env")
	n, _ := New(Config{Command: "env > " + out + `; echo "leak $AWS_SECRET_ACCESS_KEY ` + secret + ` AKIAIOSFODNN7EXAMPLE" >&2; exit 1`, Attempts: 1})
	_, failed := n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	env, _ := os.ReadFile(out)
	for _, v := range []string{"AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN"} {
		if strings.Contains(string(env), v+"=") {
			t.Errorf("the command inherited %s", v)
		}
	}
	if !strings.Contains(string(env), "AWS_REGION=us-east-1") || !strings.Contains(string(env), "GPUBLOCK_WARNING=expiring") {
		t.Errorf("the command lost a variable that is no secret:\n%s", env)
	}
	if len(failed) != 1 || !strings.Contains(failed[0], "leak") || strings.Contains(failed[0], secret) || strings.Contains(failed[0], "AKIAIOSFODNN7EXAMPLE") {
		t.Errorf("failures %q: want the stderr line, redacted", failed)
	}
}

// A command that forks a child and hangs is ended with its whole process group at its
// timeout: the child does not outlive the delivery.
func TestCommandProcessGroupEnded(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	n, _ := New(Config{Command: "sleep 60 & echo $! > " + pidFile + "; wait", Timeout: 300 * time.Millisecond, Attempts: 1})
	start := time.Now()
	_, failed := n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	if time.Since(start) > 5*time.Second || len(failed) != 1 || !strings.Contains(failed[0], "timed out") {
		t.Fatalf("took %s, failures %v", time.Since(start), failed)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(2 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the command's child %d outlived its timeout", pid)
	}
}

// A command that succeeds but leaves a child behind does not keep it, nor wait for it.
func TestCommandChildEndedWithIt(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	n, _ := New(Config{Command: "sleep 60 & echo $! > " + pidFile})
	start := time.Now()
	_, failed := n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	if len(failed) != 0 || time.Since(start) > 3*time.Second {
		t.Fatalf("failures %v after %s", failed, time.Since(start))
	}
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(2 * time.Second)
	for pid > 0 && alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 || alive(pid) {
		t.Errorf("the command's child %d was left running", pid)
	}
}

// alive reports a process that exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	out, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
	return err == nil && !strings.HasPrefix(strings.TrimSpace(string(out)), "Z")
}

// A webhook that hangs is given up at the per-attempt timeout and at the close deadline:
// the failure says it timed out, and the warning is left for the next run.
func TestHungWebhookBounded(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	state := filepath.Join(t.TempDir(), "notified.json")
	var mu sync.Mutex
	var reports []string
	n, _ := New(Config{URL: srv.URL, StatePath: state, Timeout: 200 * time.Millisecond, Backoff: 100 * time.Millisecond,
		Report: func(s string) { mu.Lock(); reports = append(reports, s); mu.Unlock() }})
	n.Send(event(model.WarnExpiring))
	n.Send(event(model.WarnTerminating)) // still queued when the time is up
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
	defer cancel()
	n.Close(ctx)
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Close took %s with a deadline of 400ms", took)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 2 || !strings.Contains(reports[0], "timed out") || !strings.Contains(reports[0], "next run") ||
		!strings.Contains(reports[1], "1 notification not sent") {
		t.Errorf("reports %v: want the delivery that timed out, then the one never started", reports)
	}
	s, _ := readStateFile(state)
	if len(s.Delivered) != 0 || len(s.Claimed) != 0 {
		t.Errorf("a delivery that timed out left %v and claims %v", s.Delivered, s.Claimed)
	}
}

// The first record (key to time, no targets) is read as sent to every target.
func TestFirstRecordFormatRead(t *testing.T) {
	state := filepath.Join(t.TempDir(), "notified.json")
	e := event(model.WarnExpiring)
	b, _ := json.Marshal(map[string]time.Time{e.Key: time.Now().UTC()})
	os.WriteFile(state, b, 0o600)
	n, _ := New(Config{URL: "http://127.0.0.1:1/x", Command: "true", StatePath: state})
	defer n.Close(context.Background())
	if n.Send(e) {
		t.Error("a warning in the first record's format was sent again")
	}
	if !n.Send(event(model.WarnTerminating)) {
		t.Error("a new warning was not queued")
	}
}

// readStateFile reads the record of warnings sent kept in the file at p.
func readStateFile(p string) (*state, error) {
	b, err := os.ReadFile(p)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	return readState(b, p)
}

// A damaged record of warnings sent is said (the run's state error, which fails it) and
// left as it is for a person; the warnings are still sent, once per run.
func TestDamagedRecordSaidKeptAndSentOnce(t *testing.T) {
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { posts.Add(1) }))
	defer srv.Close()
	state := filepath.Join(t.TempDir(), "notified.json")
	const damaged = `{"version":2,"delivered":{"x`
	if err := os.WriteFile(state, []byte(damaged), 0o600); err != nil {
		t.Fatal(err)
	}
	var reports []string
	n, _ := New(Config{URL: srv.URL, StatePath: state, Report: func(s string) { reports = append(reports, s) }})
	n.Now(context.Background(), event(model.WarnExpiring))
	n.Now(context.Background(), event(model.WarnExpiring))
	n.Close(context.Background())
	if n.StateError() == nil || len(reports) != 1 || !strings.Contains(reports[0], "damaged") || !strings.Contains(reports[0], state) {
		t.Fatalf("state error %v, reports %v", n.StateError(), reports)
	}
	if posts.Load() != 1 {
		t.Errorf("%d posts, want 1", posts.Load())
	}
	if b, _ := os.ReadFile(state); string(b) != damaged {
		t.Errorf("the damaged record was overwritten: %q", b)
	}
}

// Config.Lease, when set, is how long a claim holds the other senders off; else the time
// every attempt may take, and a minute more.
func TestClaimLease(t *testing.T) {
	n, _ := New(Config{Command: "true", Lease: 3 * time.Second})
	defer n.Close(context.Background())
	if got := n.lease(); got != 3*time.Second {
		t.Errorf("lease %v, want 3s", got)
	}
	d, _ := New(Config{Command: "true"})
	defer d.Close(context.Background())
	if got := d.lease(); got <= time.Minute {
		t.Errorf("default lease %v, want more than a minute", got)
	}
}
