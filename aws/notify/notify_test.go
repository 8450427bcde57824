package notify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

var end = time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)

func block() model.Block {
	return model.Block{ReservationID: "cr-0abc", Region: "eu-north-1", AvailabilityZone: "eu-north-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, RunningCount: 2, State: model.StateActive, Start: end.Add(-72 * time.Hour), End: end}
}

// receiver is a local webhook: it keeps every body and can fail the first calls.
type receiver struct {
	mu     sync.Mutex
	bodies []map[string]any
	paths  []string
	fail   int
	got    chan struct{}
}

func newReceiver(t *testing.T, fail int) (*receiver, *httptest.Server) {
	rc := &receiver{fail: fail, got: make(chan struct{}, 100)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.paths = append(rc.paths, r.URL.Path)
		if rc.fail > 0 {
			rc.fail--
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || r.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		rc.bodies = append(rc.bodies, m)
		rc.got <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return rc, srv
}

// Walking the block's last day, the command and the webhook each receive every warning
// once, each at its lead, with the warning as JSON and the GPUBLOCK_* variables.
func TestEachWarningDeliveredOnce(t *testing.T) {
	rc, srv := newReceiver(t, 0)
	dir := t.TempDir()
	out := filepath.Join(dir, "cmd.log")
	cmd := `cat >> ` + out + ` && echo "$GPUBLOCK_WARNING $GPUBLOCK_RESERVATION_ID $GPUBLOCK_REGION $GPUBLOCK_LEAD" >> ` + out + `.env`
	n, err := New(Config{Command: cmd, URL: srv.URL + "/services/T000/B000/SECRET", Backoff: time.Millisecond, StatePath: filepath.Join(dir, "sent.json")})
	if err != nil {
		t.Fatal(err)
	}
	leads, _ := model.ParseWarnLeads("24h,2h,40m")
	rules := model.NewWarnRules(leads)
	b := block()
	queued := 0
	for now := end.Add(-25 * time.Hour); now.Before(end); now = now.Add(time.Minute) {
		for _, w := range rules.Warnings(b, now) {
			if n.Send(EventOf(b, w, now)) {
				queued++
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n.Close(ctx)
	// extend-by 24h and 2h, can't extend once (at the cutoff, not again at 40m), expiring,
	// terminating
	if queued != 5 {
		t.Fatalf("%d warnings queued, want 5", queued)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.bodies) != 5 {
		t.Fatalf("the webhook received %d, want 5", len(rc.bodies))
	}
	kinds := map[string]int{}
	for _, m := range rc.bodies {
		text, _ := m["text"].(string)
		if !strings.Contains(text, "cr-0abc") {
			t.Errorf("text %q", text)
		}
		kinds[m["kind"].(string)]++
	}
	if kinds["extend-by"] != 2 || kinds["cant-extend"] != 1 || kinds["expiring"] != 1 || kinds["terminating"] != 1 {
		t.Errorf("kinds %v", kinds)
	}
	env, _ := os.ReadFile(out + ".env")
	lines := strings.Split(strings.TrimSpace(string(env)), "\n")
	if len(lines) != 5 || lines[0] != "extend-by cr-0abc eu-north-1 24h" {
		t.Errorf("the command's variables:\n%s", env)
	}
	stdin, _ := os.ReadFile(out)
	dec := json.NewDecoder(strings.NewReader(string(stdin)))
	count := 0
	for dec.More() {
		var e Event
		if err := dec.Decode(&e); err != nil {
			t.Fatalf("stdin is not JSON: %v\n%s", err, stdin)
		}
		if e.ReservationID != "cr-0abc" || e.Text == "" || !e.End.Equal(end) {
			t.Errorf("event %+v", e)
		}
		count++
	}
	if count != 5 {
		t.Errorf("the command read %d events, want 5", count)
	}

	// A restarted watch (or the next cron run) remembers what was sent.
	again, err := New(Config{URL: srv.URL + "/x", StatePath: filepath.Join(dir, "sent.json")})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close(ctx)
	if again.Send(EventOf(b, rules.Top(b, end.Add(-10*time.Minute)), end.Add(-10*time.Minute))) {
		t.Error("a warning sent before was sent again after a restart")
	}
}

// A failing webhook is tried again; one that stays down is reported without the URL's
// secret, and Send never waits for it.
func TestRetriesAndReportsWithoutTheSecret(t *testing.T) {
	rc, srv := newReceiver(t, 2)
	var mu sync.Mutex
	var reports []string
	report := func(s string) { mu.Lock(); reports = append(reports, s); mu.Unlock() }
	n, err := New(Config{URL: srv.URL + "/services/T000/B000/SECRET?token=SECRET2", Backoff: time.Millisecond, Report: report})
	if err != nil {
		t.Fatal(err)
	}
	b := block()
	now := end.Add(-35 * time.Minute)
	n.Send(EventOf(b, model.DefaultWarnRules().Top(b, now), now))
	<-rc.got // the third attempt got through
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	n.Close(ctx)
	if len(reports) != 0 {
		t.Errorf("reported %v for a delivery that succeeded on its third attempt", reports)
	}

	// A receiver that is gone: reported, secret-free.
	srv.Close()
	down, _ := New(Config{URL: srv.URL + "/services/T000/B000/SECRET?token=SECRET2", Backoff: time.Millisecond, Report: report})
	start := time.Now()
	if !down.Send(EventOf(b, model.Warning{Kind: model.WarnTerminating}, now)) {
		t.Fatal("not queued")
	}
	if time.Since(start) > time.Second {
		t.Error("Send waited for the delivery")
	}
	down.Close(ctx)
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "after 3 attempt") {
		t.Fatalf("reports %v", reports)
	}
	if strings.Contains(reports[0], "SECRET") || strings.Contains(reports[0], "/services") || !strings.Contains(reports[0], "http://127.0.0.1") {
		t.Errorf("the report shows the URL's secret, or no host: %s", reports[0])
	}
}

func TestCheckAndRedact(t *testing.T) {
	for _, bad := range []string{"ftp://x/y", "hooks.slack.com/services/SECRET", "http://"} {
		err := Check("", bad)
		if err == nil || strings.Contains(err.Error(), "SECRET") {
			t.Errorf("Check(%q) = %v", bad, err)
		}
	}
	if err := Check("", "https://hooks.slack.com/services/T/B/X"); err != nil {
		t.Error(err)
	}
	if got := Redact("https://hooks.slack.com/services/T/B/X?a=b"); got != "https://hooks.slack.com/…" {
		t.Errorf("Redact = %q", got)
	}
}

// A failing command is tried again and reported with its last line of stderr.
func TestCommandFailureReported(t *testing.T) {
	var reports []string
	n, _ := New(Config{Command: "echo broken pipe to pager >&2; exit 3", Backoff: time.Millisecond, Report: func(s string) { reports = append(reports, s) }})
	b := block()
	sent, failed := n.Now(context.Background(), EventOf(b, model.Warning{Kind: model.WarnExpiring}, end.Add(-35*time.Minute)))
	n.Close(context.Background())
	if !sent || len(failed) != 1 || !strings.Contains(failed[0], "broken pipe to pager") || len(reports) != 1 {
		t.Errorf("sent %v, failed %v, reports %v", sent, failed, reports)
	}
	// Not delivered, so not recorded: the next try sends it again.
	if again, _ := n.Now(context.Background(), EventOf(b, model.Warning{Kind: model.WarnExpiring}, end.Add(-34*time.Minute))); !again {
		t.Error("a warning whose delivery failed was recorded as sent")
	}
}

// In a listing of several accounts a warning names its block's account, and a plan's key
// is its account's, since two accounts may name plans alike.
func TestEventNamingAccount(t *testing.T) {
	end := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	b := model.Block{Account: "222233334444", ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", State: model.StateActive, End: end}
	e := EventOf(b, model.Warning{Kind: model.WarnExpiring}, end.Add(-35*time.Minute))
	if e.Account != "222233334444" || strings.Contains(e.Text, "222233334444") {
		t.Errorf("one account: %+v", e)
	}
	n := e.NamingAccount()
	if !strings.HasPrefix(n.Text, "gpublock: account 222233334444: ") || n.Key != e.Key {
		t.Errorf("several accounts: text %q key %q", n.Text, n.Key)
	}
	p := b
	p.Source, p.ReservationID = model.SourceTrainingPlan, "my-plan"
	pe := EventOf(p, model.Warning{Kind: model.WarnExpiring}, end.Add(-35*time.Minute))
	if got := pe.NamingAccount().Key; got != "222233334444/"+pe.Key {
		t.Errorf("plan key %q", got)
	}
	if !slices.Contains(eventEnv(n), "GPUBLOCK_ACCOUNT=222233334444") {
		t.Errorf("env %v", eventEnv(n))
	}
}
