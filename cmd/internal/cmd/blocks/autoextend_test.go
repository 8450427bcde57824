package blocks

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/model"
)

// fastClock is a watch's stdout that moves the emulator's clock on by step at each
// refresh and ends the watch after n: the emulator's fast clock, refresh by refresh, so
// that an extension's payment goes through and its end moves while the watch runs.
type fastClock struct {
	mu     sync.Mutex
	buf    strings.Builder
	seen   int
	n      int
	step   time.Duration
	cs     *cmdtest.Sim
	cancel context.CancelFunc
}

func (w *fastClock) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for c := cmdtest.Refreshes(w.buf.String()); w.seen < c; w.seen++ {
		w.cs.Emulator.Advance(w.step)
		if w.seen+1 >= w.n {
			w.cancel()
		}
	}
	return len(p), nil
}

// watchRounds runs `blocks --watch` against cs for n refreshes on the fast clock, the
// webhook h receiving its notifications; it returns the exit status and stderr.
func watchRounds(t *testing.T, cs *cmdtest.Sim, h *cmdtest.Hook, n int, extra ...string) (int, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &fastClock{n: n, step: 6 * time.Minute, cs: cs, cancel: cancel}
	var errb strings.Builder
	args := append([]string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s",
		"--warn-leads", "3d", "--notify-url", srv.URL + "/x"}, extra...)
	code := cli.RunContext(ctx, out, &errb, args...)
	return code, errb.String()
}

// extensions is how many extensions the emulator lists for the account's one block.
func extensions(t *testing.T, cs *cmdtest.Sim) int {
	t.Helper()
	return cli.ListedBlock(t, cs.URL).Extensions
}

// decisions are the journal's auto-extension decision lines, as outcome/error.
func decisions(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, e := range cmdtest.JournalLines(t) {
		if e.Phase == "decision" && e.Action == autoextend.Action {
			out = append(out, e.Outcome+": "+e.Error)
		}
	}
	return out
}

func kinds(h *cmdtest.Hook) string {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	var out []string
	for _, k := range h.Kinds {
		if strings.HasPrefix(k, "auto-extend") {
			out = append(out, k)
		}
	}
	return strings.Join(out, ",")
}

// A running block is extended once: over refreshes that see the extension paid and the end
// moved (its new end still within the lead), and over a restart of the watch, which reads
// the decision back from the journal.
func TestAutoExtendOnceAcrossRoundsAndRestart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	h := &cmdtest.Hook{}
	code, errs := watchRounds(t, cs, h, 4, "--auto-extend", "1d")
	if code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions after the first watch, want 1\n%s", n, errs)
	}
	code, errs = watchRounds(t, cs, h, 3, "--auto-extend", "1d")
	if code != 0 || strings.Contains(errs, "AUTO-EXTEND") {
		t.Fatalf("the restarted watch: exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions after a restart, want 1\n%s", n, errs)
	}
	if d := decisions(t); len(d) != 1 || d[0] != "extend: " {
		t.Errorf("journal decisions %q, want one extend", d)
	}
	bought := 0
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "PurchaseCapacityBlockExtension" && e.Phase == "outcome" && e.Outcome == "bought" {
			bought++
		}
	}
	if bought != 1 {
		t.Errorf("%d extensions bought in the journal, want 1", bought)
	}
	if got := kinds(h); got != "auto-extended/72h" {
		t.Errorf("the webhook got %q, want the extension once", got)
	}
}

// Declines: over the cap, in read-only mode, and refused by the approval command, each
// once however many refreshes, journalled and notified, and the emulator has no extension.
func TestAutoExtendDeclines(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		why  string
	}{
		{"approval refused", []string{"--approve-cmd", "exit 3"}, "approval command refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := cmdtest.StartSim(t)
			cli.RunningBlock(t, cs)
			h := &cmdtest.Hook{}
			code, errs := watchRounds(t, cs, h, 3, append([]string{"--auto-extend", "1d"}, tc.args...)...)
			if code != 0 || !strings.Contains(errs, "AUTO-EXTEND DECLINED") || !strings.Contains(errs, tc.why) {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if n := extensions(t, cs); n != 0 {
				t.Fatalf("%d extensions, want none", n)
			}
			if d := decisions(t); len(d) != 1 || !strings.HasPrefix(d[0], "declined: ") || !strings.Contains(d[0], tc.why) {
				t.Errorf("journal decisions %q, want one declined: …%s…", d, tc.why)
			}
			if got := kinds(h); got != "auto-extend-declined/72h" {
				t.Errorf("the webhook got %q, want the decline once", got)
			}
		})
	}
}

// The approval command gets the facts (and no credentials); exit 0 approves.
func TestAutoExtendApproved(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.RunningBlock(t, cs)
	facts := filepath.Join(t.TempDir(), "facts")
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d", "--approve-cmd", "env > "+facts)
	if code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions, want 1", n)
	}
	env, err := os.ReadFile(facts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GPUBLOCK_RESERVATION_ID=" + b.CapacityReservationId, "GPUBLOCK_REGION=us-east-1", "GPUBLOCK_LENGTH=1d", "GPUBLOCK_FEE=", "GPUBLOCK_NEW_END=20"} {
		if !strings.Contains(string(env), want) {
			t.Errorf("the approval command's environment lacks %s", want)
		}
	}
	if strings.Contains(string(env), "AWS_SECRET_ACCESS_KEY") || strings.Contains(string(env), "cli-test-secret") {
		t.Error("the approval command was given the credentials")
	}
}

// A block with no instance running is left alone, unless it carries the tag, and the
// config file's auto_extend section turns the policy on as the flags do.
func TestAutoExtendTagAndConfig(t *testing.T) {
	cs := cmdtest.StartSim(t)
	off := cli.PickOffering(t, cs.URL)
	if code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--tag", "keep=yes")...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	cli.Activate(t, cs, cli.ListedBlock(t, cs.URL))
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d")
	if code != 0 || strings.Contains(errs, "AUTO-EXTEND") || extensions(t, cs) != 0 {
		t.Fatalf("an idle untagged block: exit %d, stderr %q", code, errs)
	}
	cfg := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("auto_extend:\n  length: 1d\n  tag: keep=yes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, errs = watchRounds(t, cs, &cmdtest.Hook{}, 2)
	if code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") || extensions(t, cs) != 1 {
		t.Fatalf("a tagged block, by the config file: exit %d, stderr %q", code, errs)
	}
}

// Bad input is bad usage (exit 2) and buys nothing.
func TestAutoExtendUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	for _, args := range [][]string{
		{"--watch", "--auto-extend", "5x"},
		{"--watch", "--auto-extend", "2d-3d"},
		{"--auto-extend", "1d"},
		{"--watch", "--approve-cmd", "true"},
		{"--watch", "--auto-extend", "1d", "--approve-cmd", "no-such-approver-gpublock"},
		{"--watch", "--auto-extend", "1d", "--auto-extend-tag", "novalue"},
		{"--watch", "--auto-extend", "1d", "--warn-leads", "40m"},
		{"--watch", "--auto-extend", "off", "--approve-cmd", "true"},
	} {
		code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1"}, args...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2; stderr %q", args, code, errs)
		}
	}
	if n := extensions(t, cs); n != 0 {
		t.Errorf("%d extensions after bad usage", n)
	}
	// Off unless asked: a watch of the same running block, within the lead, extends nothing.
	if code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2); code != 0 || strings.Contains(errs, "AUTO-EXTEND") || extensions(t, cs) != 0 {
		t.Errorf("a watch without --auto-extend: exit %d, stderr %q", code, errs)
	}
}

// A watch killed (kill -9) between the extension's call and its outcome line leaves an open
// intent; even had its decision been lost too (its journal line and its record beside the
// journal), the next watch settles that intent from the block's extension history and
// buys nothing new.
func TestAutoExtendAfterACrash(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	if code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d"); code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// What a crash right after the call leaves: the intent, and no outcome line.
	path := cmdtest.StateFile(t, "journal.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		extensionOutcome := strings.Contains(l, `"phase":"outcome"`) && strings.Contains(l, `"PurchaseCapacityBlockExtension"`)
		if !extensionOutcome && !strings.Contains(l, `"phase":"decision"`) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(filepath.Dir(path), "auto-extend.json")); err != nil {
		t.Fatal(err)
	}
	cmdtest.Paid(cs)
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d")
	if code != 0 || !strings.Contains(errs, "settled an interrupted run") || !strings.Contains(errs, "Already extended") {
		t.Fatalf("after the crash: exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions after the crash, want 1\n%s", n, errs)
	}
}

// A watcher that may not spend (read-only, or a cap below the fee) decides nothing: it
// says so once, notifies once, and leaves the decision open, so that a later watcher that
// may spend (a raised cap, no read-only) extends the block.
func TestAutoExtendLeftOpenByAWatcherThatCannotAct(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		why  string
	}{
		{"over the cap", []string{"--max-spend", "1"}, "spending cap"},
		{"read-only", []string{"--read-only"}, "read-only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := cmdtest.StartSim(t)
			cli.RunningBlock(t, cs)
			h := &cmdtest.Hook{}
			code, errs := watchRounds(t, cs, h, 3, append([]string{"--auto-extend", "1d"}, tc.args...)...)
			if code != 0 || strings.Count(errs, "AUTO-EXTEND NOT DECIDED") != 1 || strings.Contains(errs, "DECLINED") {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			if n := extensions(t, cs); n != 0 {
				t.Fatalf("%d extensions, want none", n)
			}
			if d := decisions(t); len(d) != 0 {
				t.Errorf("journal decisions %q, want none: the decision is left open", d)
			}
			if got := kinds(h); got != "auto-extend-not-decided/72h" {
				t.Errorf("the webhook got %q, want the warning once", got)
			}
			code, errs = watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d", "--max-spend", "100000000")
			if code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
				t.Fatalf("the watcher that may spend: exit %d, stderr %q", code, errs)
			}
			if n := extensions(t, cs); n != 1 {
				t.Errorf("%d extensions after the watcher that may spend, want 1", n)
			}
		})
	}
}

// The approval command runs outside every lock: while it runs, another watcher may take
// the decisions' lock (here the command takes it itself, without waiting, and refuses if
// it cannot). Only the decision it leads to is taken under the lock.
func TestAutoExtendApprovalRunsOutsideTheLock(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	probe := `for f in $(find "$XDG_STATE_HOME" -name 'auto-extend.json.lock'); do flock -n "$f" true || { echo "the decisions' lock is held" >&2; exit 1; }; done`
	script := filepath.Join(t.TempDir(), "probe.sh")
	if err := os.WriteFile(script, []byte(probe+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d", "--approve-cmd", "sh "+script)
	if code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") || strings.Contains(errs, "lock is held") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Errorf("%d extensions, want 1", n)
	}
}

// A watch killed (kill -9) between the extension's call and its outcome (no outcome line
// in the journal, its record still at the decision, nothing notified): the restarted watch
// finds the extension in the block's history, reports "auto-extended" once, and closes the
// journal's intent and the record; a later watch reports nothing.
func TestAutoExtendBoughtWhenItsWatcherWasKilledIsReportedOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	// What the kill leaves: the decision and the intent, no outcome line, the record at
	// its decision, nothing notified.
	path, _ := interruptedExtension(t, cs, func(r *autoextend.Record) {
		if !r.InTurn {
			t.Fatalf("the record after the first watch: %+v, want its decision taken in its turn", r)
		}
		r.Step, r.RequestID, r.UpdatedAt = source.AutoExtendTaken, "", time.Time{}
	})
	recPath := filepath.Join(filepath.Dir(path), "auto-extend.json")

	h := &cmdtest.Hook{}
	code, errs := watchRounds(t, cs, h, 3, "--auto-extend", "1d")
	if code != 0 || strings.Count(errs, "AUTO-EXTENDED") != 1 || !strings.Contains(errs, "settled an interrupted run") {
		t.Fatalf("the restarted watch: exit %d, stderr %q", code, errs)
	}
	if got := kinds(h); got != "auto-extended/72h" {
		t.Errorf("the webhook got %q, want the extension once", got)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions, want 1\n%s", n, errs)
	}
	var recs []autoextend.Record
	if raw, err := os.ReadFile(recPath); err != nil || json.Unmarshal(raw, &recs) != nil || len(recs) != 1 || recs[0].Step != source.AutoExtendExtended || recs[0].RequestID == "" {
		t.Errorf("the record after the restart: %+v (%v); want extended, with its journal id", recs, err)
	}
	settled := 0
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "PurchaseCapacityBlockExtension" && e.Phase == "outcome" {
			if e.Outcome != "bought" || !e.SettledLater || e.RequestID != recs[0].RequestID {
				t.Errorf("the extension's outcome line %+v; want bought, settled later, of the record's request", e)
			}
			settled++
		}
	}
	if settled != 1 {
		t.Errorf("%d outcome lines of the extension, want 1", settled)
	}
	h2 := &cmdtest.Hook{}
	if code, errs := watchRounds(t, cs, h2, 2, "--auto-extend", "1d"); code != 0 || strings.Contains(errs, "AUTO-EXTEND") || kinds(h2) != "" {
		t.Errorf("a later watch: exit %d, webhook %q, stderr %q", code, kinds(h2), errs)
	}
}

// A damaged record of decisions is said and fails the watch, and nothing is extended:
// deciding again without it could extend twice.
func TestAutoExtendWithADamagedRecordFails(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	recPath := filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "auto-extend.json")
	if err := os.WriteFile(recPath, []byte("[{"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d")
	if code == 0 || !strings.Contains(errs, "damaged") || !strings.Contains(errs, "nothing is extended") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 0 {
		t.Errorf("%d extensions over a damaged record, want 0", n)
	}
}

// A watch killed between its decision and the extension's intent line sent nothing: the
// next watch says so, reopens the decision and extends the block, once.
func TestAutoExtendDecidedButNeverSentIsDecidedAgain(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.RunningBlock(t, cs)
	key := model.AutoExtendKey(model.Block{ReservationID: b.CapacityReservationId}, 72*time.Hour)
	recs := []autoextend.Record{{Key: key, ReservationID: b.CapacityReservationId, Region: "us-east-1", Lead: "3d", Step: source.AutoExtendTaken,
		Hours: 24, Cloud: "emulator", InTurn: true, DecidedAt: time.Now().UTC().Add(-time.Minute)}}
	raw, _ := json.Marshal(recs)
	recPath := filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "auto-extend.json")
	if err := os.WriteFile(recPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	h := &cmdtest.Hook{}
	code, errs := watchRounds(t, cs, h, 3, "--auto-extend", "1d")
	if code != 0 || !strings.Contains(errs, "was never sent") || strings.Count(errs, "AUTO-EXTENDED") != 1 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Fatalf("%d extensions, want 1\n%s", n, errs)
	}
	if got := kinds(h); got != "auto-extended/72h" {
		t.Errorf("the webhook got %q, want the extension once", got)
	}
	recs = nil
	if raw, err := os.ReadFile(recPath); err != nil || json.Unmarshal(raw, &recs) != nil || len(recs) != 1 || recs[0].Step != source.AutoExtendExtended {
		t.Errorf("records %+v (%v); want the one, extended", recs, err)
	}
	if d := decisions(t); len(d) != 2 || !strings.HasPrefix(d[0], "reopened: ") || d[1] != "extend: " {
		t.Errorf("journal decisions %q, want reopened, then extend", d)
	}
}

// A watch killed after it recorded the extension and before the notification went out
// (the record of warnings sent does not hold it): the next watch delivers it, once.
func TestAutoExtendNotificationNotDeliveredIsDeliveredByTheNextWatch(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.RunningBlock(t, cs)
	if code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d"); code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if err := os.Remove(filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "notified.json")); err != nil {
		t.Fatal(err)
	}
	h := &cmdtest.Hook{}
	if code, errs := watchRounds(t, cs, h, 3, "--auto-extend", "1d"); code != 0 || kinds(h) != "auto-extended/72h" {
		t.Fatalf("the next watch: exit %d, webhook %q, stderr %q", code, kinds(h), errs)
	}
	h2 := &cmdtest.Hook{}
	if code, errs := watchRounds(t, cs, h2, 2, "--auto-extend", "1d"); code != 0 || kinds(h2) != "" {
		t.Errorf("a later watch: exit %d, webhook %q, stderr %q", code, kinds(h2), errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Errorf("%d extensions, want 1", n)
	}
}

// A decision the terminal UI took (outside a watcher's turn: it buys after it lets the lock
// go) whose extension is still open is the UI's for 10 minutes: a watch leaves it alone,
// then settles it from AWS and reports it once.
func TestAutoExtendTakenByTheTUIIsLeftToItAWhile(t *testing.T) {
	cs := cmdtest.StartSim(t)
	// As a UI that bought it and has not yet written the outcome leaves it: the intent
	// open, the decision taken outside a turn, nothing notified.
	path, kept := interruptedExtension(t, cs, func(r *autoextend.Record) {
		r.Step, r.RequestID, r.UpdatedAt, r.InTurn = source.AutoExtendTaken, "", time.Time{}, false
	})
	h := &cmdtest.Hook{}
	if code, errs := watchRounds(t, cs, h, 2, "--auto-extend", "1d"); code != 0 || strings.Contains(errs, "AUTO-EXTEND") || strings.Contains(errs, "settled") || kinds(h) != "" {
		t.Fatalf("a watch while the UI may be buying: exit %d, webhook %q, stderr %q", code, kinds(h), errs)
	}
	// Ten minutes on (the intent and the decision older than the UI's while).
	for i, l := range kept {
		var e source.JournalEntry
		if json.Unmarshal([]byte(l), &e) == nil && e.Action == "PurchaseCapacityBlockExtension" {
			e.Time = e.Time.Add(-11 * time.Minute)
			b, _ := json.Marshal(e)
			kept[i] = string(b) + "\n"
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	editRecord(t, func(r *autoextend.Record) { r.DecidedAt = r.DecidedAt.Add(-11 * time.Minute) })
	code, errs := watchRounds(t, cs, h, 2, "--auto-extend", "1d")
	if code != 0 || strings.Count(errs, "AUTO-EXTENDED") != 1 || kinds(h) != "auto-extended/72h" {
		t.Fatalf("a watch after the UI's while: exit %d, webhook %q, stderr %q", code, kinds(h), errs)
	}
	if n := extensions(t, cs); n != 1 {
		t.Errorf("%d extensions, want 1", n)
	}
}

// interruptedExtension is a running block whose watch auto-extended it, with the
// extension's outcome taken out of the journal (path; kept, its lines left), its record
// edited by edit, nothing notified, and the extension paid: what a watch or a UI stopped
// before it wrote the outcome leaves.
func interruptedExtension(t *testing.T, cs *cmdtest.Sim, edit func(*autoextend.Record)) (path string, kept []string) {
	t.Helper()
	cli.RunningBlock(t, cs)
	if code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d"); code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	path = cmdtest.StateFile(t, "journal.jsonl")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if !(strings.Contains(l, `"phase":"outcome"`) && strings.Contains(l, `"PurchaseCapacityBlockExtension"`)) {
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	editRecord(t, func(r *autoextend.Record) {
		if r.Step != source.AutoExtendExtended {
			t.Fatalf("the record after the first watch: %+v, want extended", r)
		}
		edit(r)
	})
	if err := os.Remove(filepath.Join(filepath.Dir(path), "notified.json")); err != nil {
		t.Fatal(err)
	}
	cmdtest.Paid(cs)
	return path, kept
}

// editRecord rewrites the one auto-extension record of the state directory by edit.
func editRecord(t *testing.T, edit func(*autoextend.Record)) {
	t.Helper()
	recPath := filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "auto-extend.json")
	var recs []autoextend.Record
	raw, err := os.ReadFile(recPath)
	if err != nil || json.Unmarshal(raw, &recs) != nil || len(recs) != 1 {
		t.Fatalf("records %s (%v)", raw, err)
	}
	edit(&recs[0])
	b, _ := json.Marshal(recs)
	if err := os.WriteFile(recPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
