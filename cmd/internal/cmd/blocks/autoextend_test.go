package blocks

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
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
	for c := strings.Count(w.buf.String(), "block(s) in us-east-1"); w.seen < c; w.seen++ {
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

// runningBlock is an active 2-day block with an instance running in it: its end is within
// the 3-day lead the tests warn at, so the policy covers it at once.
func runningBlock(t *testing.T, cs *cmdtest.Sim) printers.BlockJSON {
	t.Helper()
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "1")...); code != 0 {
		t.Fatalf("launch: exit %d\n%s", code, errs)
	}
	return b
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
	runningBlock(t, cs)
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
		{"over the cap", []string{"--max-spend", "1"}, "spending cap"},
		{"read-only", []string{"--read-only"}, "nothing can be extended"},
		{"approval refused", []string{"--approve-cmd", "exit 3"}, "approval command refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := cmdtest.StartSim(t)
			runningBlock(t, cs)
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
	b := runningBlock(t, cs)
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
	runningBlock(t, cs)
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
	runningBlock(t, cs)
	if code, errs := watchRounds(t, cs, &cmdtest.Hook{}, 2, "--auto-extend", "1d"); code != 0 || !strings.Contains(errs, "AUTO-EXTENDED") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// What a crash right after the call leaves: the intent, and no outcome line.
	path := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "simulated", "journal.jsonl")
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
