package autoextend

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/notify"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

var now = simtest.Start

var sims = map[*testing.T]string{}

// client is an adapter whose state directory is dir; it calls nothing but STS (whose
// records these are), of an emulator of its own.
func client(t *testing.T, dir string) *awsapi.Client {
	t.Helper()
	url, ok := sims[t]
	if !ok {
		// One emulator per test: a restarted watcher reaches the same backend.
		_, url = simtest.ServeWith(t, ec2sim.Options{Start: now, Speed: 1e-9})
		sims[t] = url
	}
	return apitest.Client(t, url, func(cfg *awsapi.Config) { cfg.JournalDir = dir })
}

// running is an active block with an instance running, 10 hours from its end.
func running(id string) model.Block {
	return model.Block{Source: model.SourceCapacityBlock, ReservationID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", State: model.StateActive, TotalCount: 1, RunningCount: 1,
		Start: now.Add(-24 * time.Hour), End: now.Add(10 * time.Hour)}
}

func policy(t *testing.T) model.AutoExtendPolicy {
	t.Helper()
	p, err := model.NewAutoExtendPolicy(1, "", model.NewWarnRules([]time.Duration{12 * time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func decisionLines(t *testing.T, c *awsapi.Client) []string {
	t.Helper()
	entries, _, err := c.Journal()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Phase == "decision" && e.Action == Action {
			out = append(out, e.Target+" "+e.Outcome+": "+e.Error)
		}
	}
	return out
}

// A decline recorded by one watcher is every watcher's: the journal has it once, the
// record beside it too, it is notified once, no recorder on the directory (a restarted
// one, another process) finds it due, and deciding it again is refused, saying what was
// decided.
func TestADecisionIsEveryWatchersOnce(t *testing.T) {
	dir := t.TempDir()
	sent := filepath.Join(t.TempDir(), "sent")
	n, err := notify.New(notify.Config{Command: "cat >> " + sent + "; echo >> " + sent, StatePath: filepath.Join(dir, "notified.json")})
	if err != nil {
		t.Fatal(err)
	}
	c := client(t, dir)
	first, p := New(c, n, nil), policy(t)
	b, other := running("cr-0aaaaaaaaaaaaaaa1"), running("cr-0aaaaaaaaaaaaaaa2")
	asks, err := first.Due(p, []model.Block{b, other}, now)
	if err != nil || len(asks) != 2 || asks[0].Verdict != model.AutoExtendNow || asks[0].Key != model.AutoExtendKey(b, 12*time.Hour) || asks[0].Days != 1 {
		t.Fatalf("due: %+v, %v", asks, err)
	}
	declined := source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: "declined on screen by the person"}
	if err := first.Decide(asks[0], declined, now); err != nil {
		t.Fatalf("decline: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	n.Close(ctx)

	again := New(client(t, dir), nil, nil) // a restart, or another watcher
	due, err := again.Due(p, []model.Block{b, other}, now.Add(time.Hour))
	if err != nil || len(due) != 1 || due[0].Block.ReservationID != other.ReservationID {
		t.Fatalf("due after the decline: %+v, %v; want only the other block", due, err)
	}
	err = again.Decide(asks[0], source.AutoExtendOutcome{Step: source.AutoExtendTaken}, now)
	if !errors.Is(err, source.ErrAutoExtendDecided) || !strings.Contains(err.Error(), "declined (declined on screen by the person)") {
		t.Errorf("deciding again: %v", err)
	}
	if got := decisionLines(t, c); len(got) != 1 || got[0] != b.ReservationID+" declined: declined on screen by the person" {
		t.Errorf("journal decisions %q", got)
	}
	recs, err := Records(c)
	if r := recs[asks[0].Key]; err != nil || len(recs) != 1 || r.Step != source.AutoExtendDeclined || r.Lead != "12h" {
		t.Errorf("records %+v, %v", recs, err)
	}
	raw, _ := os.ReadFile(sent)
	if s := string(raw); strings.Count(s, `"kind":"auto-extend-declined"`) != 1 || !strings.Contains(s, "AUTO-EXTEND DECLINED "+b.ReservationID+": declined on screen by the person. Nothing was extended.") {
		t.Errorf("notified: %s", s)
	}
}

// A decision taken, then the extension's outcome: the record says what became of it,
// the journal keeps the one decision line, and the outcome is said.
func TestTakenThenExtended(t *testing.T) {
	dir := t.TempDir()
	c := client(t, dir)
	var said []string
	r := New(c, nil, func(s string) { said = append(said, s) })
	asks, err := r.Due(policy(t), []model.Block{running("cr-0aaaaaaaaaaaaaaa1")}, now)
	if err != nil || len(asks) != 1 {
		t.Fatalf("due: %+v, %v", asks, err)
	}
	off := model.ExtensionOffering{ID: "cbe-0123456789abcdef0", DurationHours: 48, End: now.Add(58 * time.Hour), Fee: fee(t, "1234.50"), Currency: "USD"}
	if err := r.Decide(asks[0], source.AutoExtendOutcome{Step: source.AutoExtendTaken, Extension: off}, now); err != nil {
		t.Fatal(err)
	}
	if err := r.Decide(asks[0], source.AutoExtendOutcome{Step: source.AutoExtendExtended, Extension: off, RequestID: "gpb-1"}, now); err != nil {
		t.Fatal(err)
	}
	recs, _ := Records(c)
	if x := recs[asks[0].Key]; x.Step != source.AutoExtendExtended || x.RequestID != "gpb-1" || x.Hours != 48 || x.Offering != off.ID {
		t.Errorf("record %+v", x)
	}
	if got := decisionLines(t, c); len(got) != 1 || got[0] != "cr-0aaaaaaaaaaaaaaa1 extend: " {
		t.Errorf("journal decisions %q", got)
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "AUTO-EXTENDED cr-0aaaaaaaaaaaaaaa1: p5.48xlarge in us-east-1, 2d added for $1,234.50") || !strings.HasSuffix(said[0], "(journal id gpb-1)") {
		t.Errorf("said %q", said)
	}
}

// A damaged record file is never read as "nothing decided".
func TestADamagedRecordDecidesNothing(t *testing.T) {
	dir := t.TempDir()
	c := client(t, dir)
	jp, err := c.JournalPath()
	if err != nil || !strings.HasPrefix(jp, dir) {
		t.Fatalf("the journal %s is not in the state directory given (%v)", jp, err)
	}
	if err := os.MkdirAll(filepath.Dir(jp), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(jp), "auto-extend.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := New(c, nil, nil)
	if _, err := r.Due(policy(t), []model.Block{running("cr-0aaaaaaaaaaaaaaa1")}, now); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("due over a damaged file: %v", err)
	}
	ran := false
	if err := r.Turn(func(*Turn) { ran = true }); err == nil || ran {
		t.Errorf("a turn over a damaged file: ran %v, %v", ran, err)
	}
}

func fee(t *testing.T, s string) model.Money {
	t.Helper()
	m, err := model.ParseMoney(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
