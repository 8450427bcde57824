package main

// The journal across crashes: a command or a watcher killed (SIGKILL, in a child process)
// or cut off between a call's commit and its outcome line; the re-run buys nothing new.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmd/journal"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// simJournal is the journal the commands write against the emulator.
func simJournal() string {
	dir := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "simulated")
	if ps, _ := filepath.Glob(filepath.Join(dir, "*", "*", "journal.jsonl")); len(ps) == 1 {
		return ps[0]
	}
	return filepath.Join(dir, "journal.jsonl") // none (or several): said by the reader
}

// inFront serves next behind a server of the test's own, which first shows see each
// request with its body: a request see answers (true) goes no further.
func inFront(t *testing.T, next http.Handler, see func(w http.ResponseWriter, r *http.Request, body string) bool) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if !see(w, r, string(body)) {
			next.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// carriesOut reports whether a request's body asks for action itself, not its dry run.
func carriesOut(body, action string) bool {
	return strings.Contains(body, "Action="+action+"&") && !strings.Contains(body, "DryRun=true")
}

// boughtOffering buys an offering of cmdtest.PurchaseSearch with `gpublock purchase --yes`.
func boughtOffering(t *testing.T, cs *cmdtest.Sim) printers.OfferingJSON {
	t.Helper()
	off := cli.PickOffering(t, cs.URL)
	if code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	return off
}

// journalled counts the journal's lines of action: its intents, and its outcomes that are
// outcome with result.
func journalled(t *testing.T, action, outcome, result string) (intents, outcomes int) {
	t.Helper()
	for _, e := range cmdtest.JournalLines(t) {
		switch {
		case e.Action != action:
		case e.Phase == "intent":
			intents++
		case e.Phase == "outcome" && e.Outcome == outcome && e.Result == result:
			outcomes++
		}
	}
	return intents, outcomes
}

// killedAfterCommit leaves the journal as a kill -9 between the call's commit and its
// outcome line leaves it: the last outcome line of action is gone, its intent stays.
func killedAfterCommit(t *testing.T, action string) source.JournalEntry {
	t.Helper()
	raw, err := os.ReadFile(simJournal())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		var e source.JournalEntry
		if json.Unmarshal([]byte(lines[i]), &e) == nil && e.Phase == "outcome" && e.Action == action {
			lines = append(lines[:i], lines[i+1:]...)
			if err := os.WriteFile(simJournal(), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return e
		}
	}
	t.Fatalf("no %s outcome in the journal:\n%s", action, raw)
	return source.JournalEntry{}
}

func TestPurchaseKilledAfterCommitRerunBuysNothingNew(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := boughtOffering(t, cs)
	lost := killedAfterCommit(t, "PurchaseCapacityBlock")
	url, purchases := cmdtest.CountPurchases(t, cs.Emulator)
	for run := 1; run <= 2; run++ {
		code, out, errs := cli.Run(cmdtest.PurchaseArgs(url, off.CapacityBlockOfferingId, "--yes")...)
		if code != 0 || out != "" || !strings.Contains(errs, lost.Result) || !strings.Contains(errs, "Nothing new was bought") ||
			strings.Contains(errs, "nothing was bought") {
			t.Errorf("re-run %d: exit %d, stdout %q\n%s", run, code, out, errs)
		}
		if run == 1 && (!strings.Contains(errs, "went through") || !strings.Contains(errs, lost.RequestID)) {
			t.Errorf("re-run 1 does not say the interrupted purchase went through:\n%s", errs)
		}
	}
	if n := purchases.Load(); n != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls (dry runs included) on re-runs", n)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 1 || rows[0].CapacityReservationId != lost.Result {
		t.Fatalf("want exactly the one reservation %s: %+v", lost.Result, rows)
	}
	rows := runJSON[[]journal.Row](t, "journal", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
	if len(rows) != 1 || rows[0].Outcome != "bought" || !rows[0].SettledLater || rows[0].CapacityReservationId != lost.Result ||
		rows[0].UpfrontFee != off.UpfrontFee {
		t.Errorf("journal rows %+v", rows)
	}
	code, out, _ := cli.Run("journal", "--endpoint-url", cs.URL)
	if code != 0 || !strings.Contains(out, lost.Result) || !strings.Contains(out, "bought (settled later)") {
		t.Errorf("journal table: exit %d\n%s", code, out)
	}
}

func TestExtendKilledAfterCommitRerunExtendsNothingNew(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	if code, _, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...); code != 0 {
		t.Fatalf("extend: exit %d\n%s", code, errs)
	}
	lost := killedAfterCommit(t, "PurchaseCapacityBlockExtension")
	cmdtest.Paid(cs) // the first payment settles; the end moves
	moved := cli.ListedBlock(t, cs.URL)
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 0 || out != "" || !strings.Contains(errs, "Already extended") || !strings.Contains(errs, b.CapacityReservationId) ||
		!strings.Contains(errs, lost.RequestID) {
		t.Errorf("re-run: exit %d, stdout %q\n%s", code, out, errs)
	}
	cmdtest.Paid(cs)
	if after := cli.ListedBlock(t, cs.URL); after.Extensions != 1 || after.EndDate != moved.EndDate {
		t.Errorf("after the re-run: %d extensions, end %s; want 1, %s", after.Extensions, after.EndDate, moved.EndDate)
	}
}

func TestPurchaseRefusedWhileInterruptedOneCannotBeSettled(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	boughtOffering(t, cs)
	killedAfterCommit(t, "PurchaseCapacityBlock")
	// An hour old, it is asked once rather than a few times a couple of seconds apart.
	raw, err := os.ReadFile(simJournal())
	if err != nil {
		t.Fatal(err)
	}
	var e source.JournalEntry
	if err := json.Unmarshal([]byte(strings.TrimSpace(string(raw))), &e); err != nil || e.Phase != "intent" {
		t.Fatalf("journal %q: %v", raw, err)
	}
	e.Time = e.Time.Add(-time.Hour)
	line, _ := json.Marshal(e)
	if err := os.WriteFile(simJournal(), append(line, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_MAX_ATTEMPTS", "1")
	var purchases atomic.Int64
	// DescribeCapacityReservations fails, so that the interrupted purchase cannot be settled.
	failing := cmdtest.Failing(cs.Emulator, "down", func(body string) bool { return strings.Contains(body, "Action=DescribeCapacityReservations&") })
	url := inFront(t, failing, func(_ http.ResponseWriter, _ *http.Request, body string) bool {
		if strings.Contains(body, "Action=PurchaseCapacityBlock&") {
			purchases.Add(1)
		}
		return false
	})
	other := cli.PickOffering(t, cs.URL)
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(url, other.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "gpublock journal --endpoint-url "+url+" --region us-east-1") || strings.Contains(errs, "nothing was bought") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if n := purchases.Load(); n != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls while unsettled", n)
	}
	code, _, errs = cli.Run("journal", "--endpoint-url", url, "--region", "us-east-1")
	if code != 1 || !strings.Contains(errs, "cannot be learnt") {
		t.Errorf("journal while AWS cannot be asked: exit %d\n%s", code, errs)
	}
}

// When the outcome line cannot be written, the purchase is still reported as bought, and
// the failure is said with the file and the reason.
func TestPurchaseOutcomeNotRecordedIsSaid(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	url := inFront(t, cs.Emulator, func(_ http.ResponseWriter, _ *http.Request, body string) bool {
		if carriesOut(body, "PurchaseCapacityBlock") {
			// The intent is on disk; the journal then cannot be written (here: its path
			// becomes a directory, which fails as a full disk would, also for root).
			p := simJournal()
			if err := os.Rename(p, p+".moved"); err != nil {
				t.Error(err)
			}
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Error(err)
			}
		}
		return false
	})
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(url, off.CapacityBlockOfferingId, "--yes")...)
	if code != 0 || !strings.Contains(out, "Reservation") || !strings.Contains(errs, "could not be recorded") || !strings.Contains(errs, simJournal()) {
		t.Errorf("exit %d, stdout %q\n%s", code, out, errs)
	}
	if rows := cli.Reservations(t, cs.URL); len(rows) != 1 {
		t.Errorf("%d reservations, want 1", len(rows))
	}
}

// An emulator reached through an address that is not loopback (the 0.0.0.0 a `gpublock
// sim --addr 0.0.0.0:P` listens on) is known by what it answers: SIMULATED, and its
// purchases go to the simulated journal, never the real one.
func TestEmulatorAtAnUnspecifiedAddressIsSimulated(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	t.Setenv("AWS_ENDPOINT_URL_EC2", strings.Replace(cs.URL, "127.0.0.1", "0.0.0.0", 1))
	args := append([]string{"purchase", off.CapacityBlockOfferingId, "--yes"}, cmdtest.PurchaseSearch...)
	code, _, errs := cli.Run(args...)
	if code != 0 || !strings.Contains(errs, "PURCHASE (SIMULATED)") || strings.Contains(errs, "LIVE") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if live, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "aws", "*", "journal.jsonl")); len(live) != 0 {
		t.Errorf("a simulated purchase reached a live journal %v", live)
	}
	if _, err := os.Stat(simJournal()); err != nil {
		t.Errorf("the simulated journal: %v", err)
	}
}

// TestHelperProcess is not a test: run by killAfterCommit as a child process, it runs the
// gpublock command in GPUBLOCK_HELPER_ARGS, so that the command can be killed for real.
func TestHelperProcess(t *testing.T) {
	args := os.Getenv("GPUBLOCK_HELPER_ARGS")
	if args == "" {
		t.Skip("only run as a child process")
	}
	os.Exit(run(context.Background(), strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// killer is a proxy to the emulator that, once, lets the emulator carry out action and
// kills the child process that sent it (SIGKILL) before it can read the reply.
type killer struct {
	url, action string
	armed       atomic.Bool   // by run: the commands the test runs in its own process before pass
	child       *os.Process   // the process run started, set before started is closed
	started     chan struct{} // closed once child is set: the kill waits for it, not on luck
	killed      chan struct{}
}

func newKiller(t *testing.T, cs *cmdtest.Sim, action string) *killer {
	k := &killer{action: action, started: make(chan struct{}), killed: make(chan struct{})}
	k.url = inFront(t, cs.Emulator, func(_ http.ResponseWriter, r *http.Request, body string) bool {
		if !carriesOut(body, action) || !k.armed.CompareAndSwap(true, false) {
			return false
		}
		cs.Emulator.ServeHTTP(httptest.NewRecorder(), r) // committed; the reply is never sent
		<-k.started
		_ = k.child.Kill()
		close(k.killed)
		return true
	})
	return k
}

// run runs args in a child process until the proxy kills it.
func (k *killer) run(t *testing.T, args ...string) {
	t.Helper()
	// A child that never reaches the action is stopped, not waited for forever.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "GPUBLOCK_HELPER_ARGS="+strings.Join(args, "\x1f"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	k.armed.Store(true)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	k.child = cmd.Process
	close(k.started)
	err := cmd.Wait()
	select {
	case <-k.killed:
	case <-time.After(5 * time.Second): // the handler may still be returning from the kill
		t.Fatalf("the command ended before its %s was carried out: %v\n%s", k.action, err, out.String())
	}
	if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !st.Signaled() {
		t.Fatalf("the child was not killed: %v\n%s", err, out.String())
	}
}

// killAfterCommit runs a gpublock command in a child process against the emulator, lets the
// emulator carry out the command's (non dry-run) action, and kills the child with SIGKILL
// before it can read the reply: the state a kill -9 at that moment leaves.
func killAfterCommit(t *testing.T, cs *cmdtest.Sim, action string, args ...string) {
	t.Helper()
	k := newKiller(t, cs, action)
	k.run(t, append(args, "--endpoint-url", k.url)...)
}

func TestPurchaseKilledByASignalAfterCommitThenRerun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	killAfterCommit(t, cs, "PurchaseCapacityBlock", append([]string{"purchase", off.CapacityBlockOfferingId, "--yes"}, cmdtest.PurchaseSearch...)...)
	lines := cmdtest.JournalLines(t)
	if len(lines) != 1 || lines[0].Phase != "intent" {
		t.Fatalf("after the kill the journal holds %+v, want the intent alone", lines)
	}
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...)
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != 1 {
		t.Fatalf("%d reservations after the re-run, want exactly 1: %+v", len(rows), rows)
	}
	if code != 0 || out != "" || !strings.Contains(errs, rows[0].CapacityReservationId) || !strings.Contains(errs, "went through") ||
		!strings.Contains(errs, "Nothing new was bought") {
		t.Errorf("re-run: exit %d, stdout %q\n%s", code, out, errs)
	}
}

func TestExtendKilledByASignalAfterCommitThenRerun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	killAfterCommit(t, cs, "PurchaseCapacityBlockExtension", "extend", b.CapacityReservationId, "--region", "us-east-1", "--duration", "1d", "--yes")
	cmdtest.Paid(cs)
	moved := cli.ListedBlock(t, cs.URL)
	code, out, errs := cli.Run(cmdtest.ExtendArgs(cs.URL, b.CapacityReservationId, "--yes")...)
	if code != 0 || out != "" || !strings.Contains(errs, "Already extended") || !strings.Contains(errs, b.CapacityReservationId) {
		t.Errorf("re-run: exit %d, stdout %q\n%s", code, out, errs)
	}
	cmdtest.Paid(cs)
	if after := cli.ListedBlock(t, cs.URL); after.Extensions != 1 || after.EndDate != moved.EndDate {
		t.Errorf("after the re-run: %d extensions, end %s; want 1, %s", after.Extensions, after.EndDate, moved.EndDate)
	}
}

// A watcher killed with SIGKILL while firing a launch attached at the start, before the
// launch's call or after EC2 carried it out, is started again: the launch is settled by its
// token, never sent as a second one.
func TestLaunchAtStartWatcherKilledThenRestarted(t *testing.T) {
	for _, at := range []string{"DescribeCapacityReservations", "RunInstances"} {
		t.Run(at, func(t *testing.T) {
			cs := cmdtest.StartSim(t)
			cli.AsPerson(t, false, "")
			b := cli.BoughtBlock(t, cs)
			if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--count", "1", "--yes")...); code != 0 {
				t.Fatalf("attach: exit %d\n%s", code, errs)
			}
			cs.Emulator.SetTime(cmdtest.MustTime(t, b.StartDate).Add(time.Minute))
			killAfterCommit(t, cs, at, "blocks", "--region", "us-east-1")
			for range 2 {
				if code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1"); code != 0 {
					t.Fatalf("restarted watcher: exit %d\n%s", code, errs)
				}
			}
			rows := cli.Reservations(t, cs.URL)
			// The block holds 2: a second launch of 1 would fit, so only the token stops it.
			if len(rows) != 1 || len(rows[0].InstanceIds) != 1 {
				t.Fatalf("after the restart: %+v; want the 1 instance of one launch", rows)
			}
			// The journal's launch is closed, with what it started, whichever run did it.
			intents, launched := journalled(t, "RunInstances", "launched", rows[0].InstanceIds[0])
			if intents != 1 || launched != 1 {
				t.Errorf("journal: %d launch intents, %d launched outcomes; want 1 and 1", intents, launched)
			}
		})
	}
}

// A kill -9 while a segmented offering is bought (one reservation per segment): the re-run
// finds every reservation by the request tag, names them all, buys nothing more, and the
// journal lists them all.
func TestSegmentedPurchaseKilledByASignalThenRerun(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickSegmented(t, cs.URL)
	n := len(off.CapacityBlockOfferingSegments)
	args := append([]string{"purchase", off.CapacityBlockOfferingId}, cmdtest.SegmentedSearch...)
	killAfterCommit(t, cs, "PurchaseCapacityBlock", append(args, "--yes")...)
	if lines := cmdtest.JournalLines(t); len(lines) != 1 || lines[0].Phase != "intent" || len(lines[0].Segments) != n {
		t.Fatalf("after the kill the journal holds %+v, want the intent alone with its %d segments", lines, n)
	}
	url, purchases := cmdtest.CountPurchases(t, cs.Emulator)
	code, out, errs := cli.Run(append(args, "--endpoint-url", url, "--yes")...)
	rows := cli.Reservations(t, cs.URL)
	if len(rows) != n {
		t.Fatalf("%d reservations after the re-run, want the %d the purchase made: %+v", len(rows), n, rows)
	}
	if code != 0 || out != "" || !strings.Contains(errs, "went through") || !strings.Contains(errs, "Nothing new was bought") {
		t.Errorf("re-run: exit %d, stdout %q\n%s", code, out, errs)
	}
	for _, r := range rows {
		if !strings.Contains(errs, r.CapacityReservationId) {
			t.Errorf("the re-run does not name %s:\n%s", r.CapacityReservationId, errs)
		}
	}
	if got := purchases.Load(); got != 0 {
		t.Errorf("%d PurchaseCapacityBlock calls (dry runs included) on the re-run", got)
	}
	jr := runJSON[[]journal.Row](t, "journal", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
	if len(jr) != 1 || !jr[0].SettledLater || len(jr[0].CapacityReservationIds) != n {
		t.Errorf("journal rows %+v, want one settled purchase naming %d reservations", jr, n)
	}
}

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
		os := cli.Orders(t, at...)
		if len(os) != 1 {
			t.Fatalf("order --list: %d orders, want 1: %+v", len(os), os)
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
	intents, _ := journalled(t, "PurchaseCapacityBlock", "", "")
	if intents != 1 || !strings.Contains(errb.String(), "FILLED") {
		t.Errorf("%d purchase intents, want 1; watcher said:\n%s", intents, errb.String())
	}
}
