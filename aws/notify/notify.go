// Package notify tells people outside the terminal about the blocks' warnings: it runs a
// command with the warning as JSON on its standard input (and GPUBLOCK_* variables), and
// posts the warning to a webhook as JSON with a "text" field, which Slack-style incoming
// webhooks accept. Each warning goes out once per key (block and lead); a failed delivery
// is tried again a few times, then reported. Sending never waits for a delivery, and no
// report ever shows more of the webhook's URL than its scheme and host: the path and query
// of an incoming webhook are its secret.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Event is one warning of one block, as the command reads it on stdin and the webhook
// receives it (its "text" is what chat tools show).
type Event struct {
	Text             string    `json:"text"`
	Key              string    `json:"key"`
	Kind             string    `json:"kind"`
	Warning          string    `json:"warning"`
	ReservationID    string    `json:"reservation_id"`
	Region           string    `json:"region"`
	AvailabilityZone string    `json:"availability_zone"`
	InstanceType     string    `json:"instance_type"`
	Count            int       `json:"instance_count"`
	State            string    `json:"state"`
	End              time.Time `json:"end"`
	ExtendBy         time.Time `json:"extend_by"`
	Lead             string    `json:"lead,omitempty"`
	At               time.Time `json:"at"`
}

// EventOf is the warning w of block b at now.
func EventOf(b model.Block, w model.Warning, now time.Time) Event {
	e := Event{Text: "gpublock: " + w.Cell(b, now) + ": " + w.Sentence(b, now), Key: w.Key(b), Kind: w.Kind.Name(), Warning: w.Cell(b, now),
		ReservationID: b.ReservationID, Region: b.Region, AvailabilityZone: b.AvailabilityZone, InstanceType: b.InstanceType,
		Count: b.TotalCount, State: string(b.State), End: b.End.UTC(), ExtendBy: b.ExtendBy().UTC(), At: now.UTC()}
	if w.Lead > 0 {
		e.Lead = model.FormatWarnLeads([]time.Duration{w.Lead})
	}
	return e
}

// Config says where warnings go.
type Config struct {
	Command string // run with sh -c; "" for none
	URL     string // webhook; "" for none
	// StatePath remembers what was sent, so that a cron job or a restarted watch does not
	// send a warning again; "" keeps it in memory only.
	StatePath string
	Attempts  int           // per delivery; 0 means 3
	Backoff   time.Duration // before the second attempt, doubled after; 0 means 2 s
	Timeout   time.Duration // of one attempt; 0 means 20 s
	Client    *http.Client  // nil: a client of its own
	// Report is told of each delivery that failed for good, in words safe to print.
	Report func(string)
}

// Notifier delivers events.
type Notifier struct {
	cfg   Config
	queue chan Event
	wg    sync.WaitGroup
	once  sync.Once

	mu   sync.Mutex
	sent map[string]time.Time
}

// Check validates a command and a webhook URL before anything runs.
func Check(command, rawURL string) error {
	if command != "" && strings.TrimSpace(command) == "" {
		return errors.New("--notify-cmd is empty")
	}
	if rawURL == "" {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		// The URL itself is not repeated: it may hold the webhook's secret.
		return errors.New("--notify-url: want an http:// or https:// URL such as https://hooks.slack.com/services/…")
	}
	return nil
}

// New returns a notifier; with neither a command nor a URL it delivers nothing. Its worker
// runs until Close.
func New(cfg Config) (*Notifier, error) {
	if err := Check(cfg.Command, cfg.URL); err != nil {
		return nil, err
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 3
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 2 * time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	if cfg.Report == nil {
		cfg.Report = func(string) {}
	}
	n := &Notifier{cfg: cfg, queue: make(chan Event, 256), sent: loadSent(cfg.StatePath)}
	n.wg.Add(1)
	go n.work()
	return n, nil
}

// Enabled reports whether the notifier delivers anywhere.
func (n *Notifier) Enabled() bool { return n != nil && (n.cfg.Command != "" || n.cfg.URL != "") }

// Send queues the event unless its key was sent before; it never waits. It reports
// whether the event was queued.
func (n *Notifier) Send(e Event) bool {
	if !n.Enabled() || !n.claim(e.Key) {
		return false
	}
	select {
	case n.queue <- e:
		return true
	default:
		n.cfg.Report(fmt.Sprintf("notification for %s dropped: %d are waiting to be delivered", e.ReservationID, cap(n.queue)))
		return false
	}
}

// Close stops taking events and waits for the queued ones until ctx ends.
func (n *Notifier) Close(ctx context.Context) {
	if n == nil {
		return
	}
	n.once.Do(func() { close(n.queue) })
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		n.cfg.Report("notifications still being delivered were abandoned at exit")
	}
}

// Now delivers the event at once unless its key was sent before, for a caller that runs
// off its own loop (the TUI's commands); sent is false for an old key.
func (n *Notifier) Now(ctx context.Context, e Event) (sent bool, failures []string) {
	if !n.Enabled() || !n.claim(e.Key) {
		return false, nil
	}
	return true, n.Deliver(ctx, e)
}

func (n *Notifier) claim(key string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.sent[key]; ok {
		return false
	}
	n.sent[key] = time.Now().UTC()
	return true
}

func (n *Notifier) work() {
	defer n.wg.Done()
	for e := range n.queue {
		n.Deliver(context.Background(), e)
	}
}

// Deliver sends one event now, to the command and to the webhook, each tried up to
// Attempts times; it returns the failures, in words safe to print, after reporting them.
// It does not look at what was sent before: Send does.
func (n *Notifier) Deliver(ctx context.Context, e Event) []string {
	body, err := json.Marshal(e)
	if err != nil {
		return []string{err.Error()}
	}
	var failed []string
	if n.cfg.Command != "" {
		if err := n.retry(ctx, func(ctx context.Context) (bool, error) { return true, n.run(ctx, e, body) }); err != nil {
			failed = append(failed, fmt.Sprintf("--notify-cmd failed for %s (%s): %v", e.ReservationID, e.Kind, err))
		}
	}
	if n.cfg.URL != "" {
		if err := n.retry(ctx, func(ctx context.Context) (bool, error) { return n.post(ctx, body) }); err != nil {
			failed = append(failed, fmt.Sprintf("--notify-url %s failed for %s (%s): %v", Redact(n.cfg.URL), e.ReservationID, e.Kind, err))
		}
	}
	for _, f := range failed {
		n.cfg.Report(f)
	}
	if len(failed) == 0 {
		n.save()
	}
	return failed
}

// retry calls try until it succeeds, says not to try again, or the attempts are spent.
func (n *Notifier) retry(ctx context.Context, try func(context.Context) (again bool, err error)) error {
	wait := n.cfg.Backoff
	var err error
	for i := 0; i < n.cfg.Attempts; i++ {
		if i > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
			wait *= 2
		}
		actx, cancel := context.WithTimeout(ctx, n.cfg.Timeout)
		var again bool
		again, err = try(actx)
		cancel()
		if err == nil {
			return nil
		}
		if !again {
			break
		}
	}
	return fmt.Errorf("%w (after %d attempt(s))", err, n.cfg.Attempts)
}

func (n *Notifier) run(ctx context.Context, e Event, body []byte) error {
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", n.cfg.Command)
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	cmd.Env = append(os.Environ(),
		"GPUBLOCK_WARNING="+e.Kind,
		"GPUBLOCK_TEXT="+e.Text,
		"GPUBLOCK_RESERVATION_ID="+e.ReservationID,
		"GPUBLOCK_REGION="+e.Region,
		"GPUBLOCK_INSTANCE_TYPE="+e.InstanceType,
		"GPUBLOCK_END="+e.End.Format(time.RFC3339),
		"GPUBLOCK_EXTEND_BY="+e.ExtendBy.Format(time.RFC3339),
		"GPUBLOCK_LEAD="+e.Lead,
		"GPUBLOCK_KEY="+e.Key,
	)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := lastLine(stderr.String()); msg != "" {
			return fmt.Errorf("%v: %s", err, msg)
		}
		return err
	}
	return nil
}

// post sends the event; a refusal other than 429 is not tried again, since it will not change.
func (n *Notifier) post(ctx context.Context, body []byte) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return false, errors.New("the URL cannot be used")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gpublock-notify")
	resp, err := n.cfg.Client.Do(req)
	if err != nil {
		// A *url.Error names the whole URL: only its cause is kept.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return true, errors.New(strings.ReplaceAll(err.Error(), n.cfg.URL, Redact(n.cfg.URL)))
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return false, nil
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		return true, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return false, fmt.Errorf("HTTP %d (refused; check the webhook URL)", resp.StatusCode)
}

// Redact is the URL without its secret parts: scheme and host only.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(the URL)"
	}
	s := u.Scheme + "://" + u.Host
	if u.Path != "" && u.Path != "/" || u.RawQuery != "" {
		s += "/…"
	}
	return s
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	return l
}

// keepSent is how long a sent key is remembered: a block's warnings are over by then.
const keepSent = 200 * 24 * time.Hour

func loadSent(path string) map[string]time.Time {
	sent := map[string]time.Time{}
	if path == "" {
		return sent
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return sent
	}
	_ = json.Unmarshal(b, &sent) // a damaged file is started afresh: at worst a warning again
	for k, at := range sent {
		if time.Since(at) > keepSent {
			delete(sent, k)
		}
	}
	return sent
}

func (n *Notifier) save() {
	if n.cfg.StatePath == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock() // also keeps two deliveries from writing the file at once
	b, err := json.Marshal(n.sent)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(n.cfg.StatePath), 0o700); err != nil {
		return
	}
	tmp := n.cfg.StatePath + ".tmp"
	if os.WriteFile(tmp, b, 0o600) == nil {
		_ = os.Rename(tmp, n.cfg.StatePath)
	}
}
