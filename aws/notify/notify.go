// Package notify tells people outside the terminal about the blocks' warnings: it runs a
// command with the warning as JSON on its standard input (and GPUBLOCK_* variables), and
// posts the warning to a webhook as JSON with a "text" field, which Slack-style incoming
// webhooks accept. Each warning goes out once per key (block and lead) to each of them: the
// record of what each received is shared, under a lock, by every gpublock on one state
// directory, and a warning is claimed there before it is sent, so that two runs at once
// send it once. A failed delivery is tried again a few times, then reported, and not
// recorded: the next run tries it again. Sending never waits for a delivery, and no report
// shows more of the webhook's URL than its scheme and host (its path and query are its
// secret), nor a credential.
package notify

import (
	"github.com/gpublock/gpublock/aws/store"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Event is one warning of one block, as the command reads it on stdin and the webhook
// receives it (its "text" is what chat tools show).
type Event struct {
	Text    string `json:"text"`
	Key     string `json:"key"`
	Kind    string `json:"kind"`
	Warning string `json:"warning"`
	// Account is the AWS account that owns the block, "" when the listing did not say.
	Account          string    `json:"account,omitempty"`
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
	// An auto-extension's facts: what it adds, for how much, the end it gives, and why it
	// was declined.
	Length string    `json:"length,omitempty"`
	Fee    string    `json:"fee,omitempty"`
	NewEnd time.Time `json:"new_end,omitzero"`
	Reason string    `json:"reason,omitempty"`
}

// EventOf is the warning w of block b at now.
func EventOf(b model.Block, w model.Warning, now time.Time) Event {
	e := Event{Text: "gpublock: " + w.Cell(b, now) + ": " + w.Sentence(b, now), Key: w.Key(b), Kind: w.Kind.Name(), Warning: w.Cell(b, now),
		Account: b.Account, ReservationID: b.ReservationID, Region: b.Region, AvailabilityZone: b.AvailabilityZone, InstanceType: b.InstanceType,
		Count: b.TotalCount, State: string(b.State), End: b.End.UTC(), ExtendBy: b.ExtendBy().UTC(), At: now.UTC()}
	if w.Lead > 0 {
		e.Lead = model.FormatWarnLeads([]time.Duration{w.Lead})
	}
	return e
}

// NamingAccount is e for a listing of several accounts: its text names the block's account,
// which a reservation id alone does not say, and a training plan's key takes the account,
// since a plan's name is unique only within its account.
func (e Event) NamingAccount() Event {
	if e.Account == "" {
		return e
	}
	if rest, ok := strings.CutPrefix(e.Text, "gpublock: "); ok {
		e.Text = "gpublock: account " + e.Account + ": " + rest
	}
	if strings.HasPrefix(e.Key, "training-plan/") {
		e.Key = e.Account + "/" + e.Key
	}
	return e
}

// Config says where warnings go.
type Config struct {
	Command string // run with sh -c; "" for none
	URL     string // webhook; "" for none
	// State remembers what was sent (the record notified.json), so that a cron job, a
	// restarted watch or another machine sharing the store does not send a warning again;
	// nil with StatePath "" keeps it in memory only.
	State store.Store
	// StatePath is the record as a local file, when State is nil.
	StatePath string
	Attempts  int           // per delivery; 0 means 3
	Backoff   time.Duration // before the second attempt, doubled after; 0 means 2 s
	Timeout   time.Duration // of one attempt; 0 means 20 s
	// Lease is how long a claim on a warning holds the other gpublocks off (one that died
	// while sending holds them that long); 0 means the time every attempt may take, and a
	// minute more.
	Lease  time.Duration
	Client *http.Client // nil: a client of its own; its redirects are never followed
	// Report is told of each delivery that failed for good, and of a record of what was
	// sent that cannot be kept, in words safe to print.
	Report func(string)
}

// Notifier delivers events.
type Notifier struct {
	cfg     Config
	targets []target
	queue   chan Event
	wg      sync.WaitGroup
	once    sync.Once
	// ctx ends the deliveries still going when Close runs out of time.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	inflight map[string]bool // keys queued or being delivered by this process
	state    *state          // the record as last read or written (all of it when there is no file)
	stateErr error           // the last failure to keep the record; nil when it is kept
	saidErr  bool
}

// target is one place a warning goes: the command or the webhook. Its id in the record is
// only which of the two it is: a warning is not sent again because the command or the URL
// was edited, and the record holds no secret.
type target struct {
	id      string
	name    string // for reports: --notify-cmd or --notify-url and its host
	deliver func(ctx context.Context, e Event, body []byte) (again bool, err error)
}

// queueSize is how many events wait for the worker; one queued past it is not claimed,
// so the next run sends it.
const queueSize = 256

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
	client := &http.Client{}
	if cfg.Client != nil {
		c := *cfg.Client
		client = &c
	}
	// A redirect is not followed: it would carry the POST's secret URL in a Referer to
	// another host, and a 302 would turn the POST into a GET without the warning.
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.Client = client
	if cfg.Report == nil {
		cfg.Report = func(string) {}
	}
	n := &Notifier{cfg: cfg, queue: make(chan Event, queueSize), inflight: map[string]bool{}, state: newState()}
	if cfg.Command != "" {
		n.targets = append(n.targets, target{id: "cmd", name: "--notify-cmd",
			deliver: func(ctx context.Context, e Event, body []byte) (bool, error) {
				return true, runCommand(ctx, cfg.Command, e, body)
			}})
	}
	if cfg.URL != "" {
		n.targets = append(n.targets, target{id: "url", name: "--notify-url " + Redact(cfg.URL),
			deliver: func(ctx context.Context, _ Event, body []byte) (bool, error) { return n.post(ctx, body) }})
	}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if n.Enabled() {
		n.transact(func(*state) {}) // reads the record, and says at once when it cannot
	}
	n.wg.Add(1)
	go n.work()
	return n, nil
}

// Enabled reports whether the notifier delivers anywhere.
func (n *Notifier) Enabled() bool { return n != nil && (n.cfg.Command != "" || n.cfg.URL != "") }

// StateError is the last failure to keep the record of what was sent (nil when it was
// kept): warnings are then still sent, once per process, but the next run sends them again.
func (n *Notifier) StateError() error {
	if n == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.stateErr
}

// Delivered reports whether every target received key, as far as the record said when
// this notifier last read it; false when it delivers nowhere.
func (n *Notifier) Delivered(key string) bool {
	if !n.Enabled() {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.state.deliveredAll(n.targets, key)
}

// Send queues the event unless every target received its key before (as far as this
// process knows; the worker asks the record again before sending); it never waits. It
// reports whether the event was queued.
func (n *Notifier) Send(e Event) bool {
	if !n.Enabled() || !n.take(e.Key) {
		return false
	}
	select {
	case n.queue <- e:
		return true
	default:
		n.release(e.Key)
		n.cfg.Report(fmt.Sprintf("notification for %s (%s) not sent now: %d are waiting to be delivered; it is tried again on the next run", e.ReservationID, e.Kind, queueSize))
		return false
	}
}

// Close stops taking events and waits for the queued ones until ctx ends; then those still
// going are stopped, reported as timed out, and left unrecorded for the next run.
func (n *Notifier) Close(ctx context.Context) {
	if n == nil {
		return
	}
	n.once.Do(func() { close(n.queue) })
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	n.cancel()
	t := time.NewTimer(5 * time.Second) // the worker gives back its claims and reports
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		n.cfg.Report("notifications still being delivered were abandoned at exit; they are tried again on the next run")
	}
}

// Now delivers the event at once unless its key was sent before, for a caller that runs
// off its own loop (the TUI's commands); sent is false for an old key.
func (n *Notifier) Now(ctx context.Context, e Event) (sent bool, failures []string) {
	if !n.Enabled() || !n.take(e.Key) {
		return false, nil
	}
	defer n.release(e.Key)
	return n.deliverOnce(ctx, e)
}

// take marks the key as this process's to deliver, unless it is already or the record
// says every target has it.
func (n *Notifier) take(key string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.inflight[key] || n.state.deliveredAll(n.targets, key) {
		return false
	}
	n.inflight[key] = true
	return true
}

func (n *Notifier) release(key string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.inflight, key)
}

func (n *Notifier) work() {
	defer n.wg.Done()
	skipped := 0
	for e := range n.queue {
		if n.ctx.Err() != nil {
			skipped++ // out of time: not claimed, so the next run sends it
		} else {
			n.deliverOnce(n.ctx, e)
		}
		n.release(e.Key)
	}
	if skipped > 0 {
		n.cfg.Report(model.Plural(skipped, "notification", "notifications") + " not sent before gpublock exited; they are tried again on the next run")
	}
}

// lease is how long a claim keeps other processes from sending the same warning: every
// attempt of every target, with room to spare. A process that dies holding a claim only
// delays the warning by this much.
func (n *Notifier) lease() time.Duration {
	if n.cfg.Lease > 0 {
		return n.cfg.Lease
	}
	d := time.Duration(n.cfg.Attempts) * n.cfg.Timeout
	d += n.cfg.Backoff * (time.Duration(1)<<n.cfg.Attempts - 1)
	return time.Duration(len(n.targets))*d + time.Minute
}

// deliverOnce claims the event's key for each target that has not received it, delivers
// it to those, and records each that received it; the failures are reported and returned,
// in words safe to print. sent is false when no target was left to claim.
func (n *Notifier) deliverOnce(ctx context.Context, e Event) (sent bool, failures []string) {
	var mine []target
	now := time.Now()
	n.transact(func(s *state) {
		for _, t := range n.targets {
			if s.claim(t.id, e.Key, now, now.Add(n.lease())) {
				mine = append(mine, t)
			}
		}
	})
	if len(mine) == 0 {
		return false, nil
	}
	failures = n.deliver(ctx, e, mine)
	failed := map[string]bool{}
	for i, f := range failures {
		if f != "" {
			failed[mine[i].id] = true
		}
	}
	n.transact(func(s *state) {
		for _, t := range mine {
			s.settle(t.id, e.Key, !failed[t.id], time.Now())
		}
	})
	var out []string
	for _, f := range failures {
		if f != "" {
			n.cfg.Report(f)
			out = append(out, f)
		}
	}
	return true, out
}

// Deliver sends one event now, to the command and to the webhook, each tried up to
// Attempts times, and returns the failures in words safe to print. It neither looks at nor
// changes the record of what was sent: Send and Now do.
func (n *Notifier) Deliver(ctx context.Context, e Event) []string {
	var out []string
	for _, f := range n.deliver(ctx, e, n.targets) {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// deliver sends the event to each target; failures[i] is target i's failure, "" if none.
func (n *Notifier) deliver(ctx context.Context, e Event, targets []target) []string {
	failures := make([]string, len(targets))
	body, err := json.Marshal(e)
	if err != nil {
		for i := range failures {
			failures[i] = err.Error()
		}
		return failures
	}
	for i, t := range targets {
		err := n.retry(ctx, func(ctx context.Context) (bool, error) { return t.deliver(ctx, e, body) })
		if err == nil {
			continue
		}
		what := err.Error()
		if ctx.Err() != nil {
			what = "timed out before gpublock exited; it is tried again on the next run"
		} else {
			what += "; it is tried again on the next run"
		}
		// Whatever the command or the server said passes the one redaction step.
		failures[i] = source.Redact(fmt.Sprintf("%s failed for %s (%s): %s", t.name, e.ReservationID, e.Kind, what))
	}
	return failures
}

// retry calls try until it succeeds, says not to try again, or the attempts are spent.
func (n *Notifier) retry(ctx context.Context, try func(context.Context) (again bool, err error)) error {
	wait := n.cfg.Backoff
	var err error
	attempts := 0
	for i := 0; i < n.cfg.Attempts; i++ {
		if i > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("%w (after %s)", err, model.Plural(attempts, "attempt", "attempts"))
			case <-t.C:
			}
			wait *= 2
		}
		actx, cancel := context.WithTimeout(ctx, n.cfg.Timeout)
		var again bool
		again, err = try(actx)
		attempts++
		cancel()
		if err == nil {
			return nil
		}
		if !again || ctx.Err() != nil {
			break
		}
	}
	return fmt.Errorf("%w (after %s)", err, model.Plural(attempts, "attempt", "attempts"))
}

// post sends the event; a refusal other than 429 is not tried again, since it will not
// change, and neither is a redirect, which is not followed.
func (n *Notifier) post(ctx context.Context, body []byte) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.URL, bytes.NewReader(body))
	if err != nil {
		return false, errors.New("the URL cannot be used")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "gpublock-notify")
	resp, err := n.cfg.Client.Do(req)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return true, fmt.Errorf("timed out: no answer within %s", n.cfg.Timeout)
	}
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
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		// Where it points is not said: it may be as secret as the URL.
		return false, fmt.Errorf("HTTP %d: the webhook answered with a redirect, which is not followed (check the webhook URL)", resp.StatusCode)
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
	lines := strings.Split(strings.TrimSpace(withoutControls(s)), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	return l
}

// withoutControls is a command's output without its terminal control sequences (CSI such
// as clear screen, OSC such as a title change, other escapes) and control characters but
// the newline: what a command writes is shown on a terminal, journalled and passed on in
// GPUBLOCK_REASON, where a raw escape would act instead of being read.
func withoutControls(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[': // CSI: parameters, then a final byte
			i += 2
			for i < len(s) && (s[i] < 0x40 || s[i] > 0x7e) {
				i++
			}
		case c == 0x1b && i+1 < len(s) && (s[i+1] == ']' || s[i+1] == 'P' || s[i+1] == '_' || s[i+1] == '^'):
			// OSC, DCS, APC, PM: a string ended by BEL or ESC \
			i += 2
			for i < len(s) && s[i] != 0x07 && !(s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\') {
				i++
			}
			if i < len(s) && s[i] == 0x1b {
				i++
			}
		case c == 0x1b: // a two-byte escape
			i++
		case c == '\n':
			b.WriteByte(c)
		case c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || c == 0x7f:
		default:
			b.WriteByte(c)
		}
	}
	// C1 controls (U+0080–U+009F) as UTF-8, which some terminals obey too.
	return strings.Map(func(r rune) rune {
		if r >= 0x80 && r <= 0x9f {
			return -1
		}
		return r
	}, b.String())
}
