package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

// A watcher killed with SIGKILL once EC2 carried out the order's purchase, before it read
// the reply: the restarted watcher settles the claim from AWS by its request tag (the dead
// process's claim is not waited for), records the order filled with that reservation, and
// buys nothing more.
func TestOrderWatcherKilledAfterThePurchaseThenRestarted(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	// Every command reaches the emulator through one proxy, which kills the watcher once
	// the purchase is carried out: one endpoint is one backend's records.
	proxy := newKiller(t, cs, "PurchaseCapacityBlock")
	at := []string{"--endpoint-url", proxy.url, "--region", "us-east-1"}
	code, _, errs := cli.Run(append([]string{"order", "--type", "p5.48xlarge,p5en.48xlarge", "--count", "2", "--duration", "2d-4d",
		"--max-per-accelerator-hour", "100", "--yes"}, at...)...)
	if code != 0 {
		t.Fatalf("order: exit %d\n%s", code, errs)
	}
	proxy.run(t, append([]string{"blocks", "--watch", "--interval", "1s"}, at...)...)
	if lines := cmdtest.JournalLines(t); len(lines) != 1 || lines[0].Phase != "intent" {
		t.Fatalf("after the kill the journal holds %+v, want the purchase's intent alone", lines)
	}
	orders := func() []model.Order {
		code, out, errs := cli.Run(append([]string{"order", "--list", "-o", "json"}, at...)...)
		var os []model.Order
		if code != 0 || json.Unmarshal([]byte(out), &os) != nil || len(os) != 1 {
			t.Fatalf("order --list: exit %d\n%s\n%s", code, out, errs)
		}
		return os
	}
	if o := orders()[0]; o.State != model.OrderFilling || o.Claim == nil {
		t.Fatalf("after the kill the order is %s (%+v), want filling under the dead watcher's claim", o.State, o.Claim)
	}
	// The restarted watcher runs until the order is filled; the deadline only bounds a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var errb cmdtest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runWith(ctx, cli.Factory(&cmdtest.Buffer{}, &errb), append([]string{"blocks", "--watch", "--interval", "1s"}, at...))
	}()
	var o model.Order
	for o = orders()[0]; o.State != model.OrderFilled && ctx.Err() == nil; o = orders()[0] {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	<-done
	rows := cli.Reservations(t, proxy.url)
	if o.State != model.OrderFilled || o.Filled == nil || !o.Filled.Recovered || len(rows) != 1 || len(o.Filled.Reservations) != 1 ||
		o.Filled.Reservations[0] != rows[0].CapacityReservationId {
		t.Fatalf("order %+v, reservations %+v: want filled, recovered, with the one reservation\n%s", o, rows, errb.String())
	}
	intents := 0
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "PurchaseCapacityBlock" && e.Phase == "intent" {
			intents++
		}
	}
	if intents != 1 || !strings.Contains(errb.String(), "FILLED") {
		t.Errorf("%d purchase intents, want 1; watcher said:\n%s", intents, errb.String())
	}
}

// killer is a proxy to the emulator that, once, lets the emulator carry out action and
// kills the child process that sent it (SIGKILL) before it can read the reply.
type killer struct {
	url    string
	child  atomic.Pointer[os.Process]
	armed  atomic.Bool
	killed chan struct{}
}

func newKiller(t *testing.T, cs *cmdtest.Sim, action string) *killer {
	k := &killer{killed: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if k.armed.Load() && strings.Contains(string(body), "Action="+action+"&") && !strings.Contains(string(body), "DryRun=true") {
			k.armed.Store(false)
			cs.Emulator.ServeHTTP(httptest.NewRecorder(), r) // committed; the reply is never sent
			if p := k.child.Load(); p != nil {
				_ = p.Kill()
			}
			close(k.killed)
			return
		}
		cs.Emulator.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	k.url = srv.URL
	return k
}

// run runs args in a child process until the proxy kills it.
func (k *killer) run(t *testing.T, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "GPUBLOCK_HELPER_ARGS="+strings.Join(args, "\x1f"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	k.child.Store(cmd.Process)
	k.armed.Store(true)
	err := cmd.Wait()
	select {
	case <-k.killed:
	case <-time.After(5 * time.Second):
		t.Fatalf("the command ended before its purchase was carried out: %v\n%s", err, out.String())
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() {
		t.Fatalf("the child was not killed: %v\n%s", err, out.String())
	}
}
