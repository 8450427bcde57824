// Package health says whether a watcher is alive: when its last round ended and how, in a
// file written after every round (--health-file) and over HTTP (--health-addr, GET
// /healthz), for systemd, a container's health check or a Kubernetes liveness probe.
//
// Alive means rounds keep ending: a round that found AWS unreachable still ended, and a
// restart would not make AWS reachable, so the outcome is reported but does not make the
// watcher unhealthy. A watcher whose round hangs, or whose loop died, goes stale.
package health

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
)

// Status is what the file holds and the endpoint answers.
type Status struct {
	// Status is "ok" while the last round ended (or, before the first, the watcher started)
	// within StaleAfter; "stale" after; "stopped" once the watcher stopped.
	Status       string    `json:"status"`
	Started      time.Time `json:"started"`
	LastRoundEnd time.Time `json:"last_round_end,omitzero"`
	// Outcome is the last round's: "ok", "warning" (a block's warning is within
	// --warn-within) or "failed" (a region or account could not be listed whole, or an
	// output failed); ExitCode is the status a one-shot `blocks` would have exited with.
	Outcome    string `json:"outcome,omitempty"`
	ExitCode   int    `json:"exit_code"`
	Rounds     int    `json:"rounds"`
	StaleAfter string `json:"stale_after"`
}

// Healthy reports whether a probe should pass.
func (s Status) Healthy() bool { return s.Status == "ok" }

// Health is a watcher's health, updated at the end of every round.
type Health struct {
	now        func() time.Time
	staleAfter time.Duration
	file       string

	mu      sync.Mutex
	started time.Time
	last    time.Time
	code    int
	rounds  int
	stopped bool
}

// New is the health of a watcher starting now, stale when no round ended for staleAfter;
// file, when not "", is written after every round.
func New(now func() time.Time, staleAfter time.Duration, file string) *Health {
	return &Health{now: now, staleAfter: staleAfter, file: file, started: now()}
}

// Outcome names the exit status of a round.
func Outcome(code int) string {
	switch code {
	case 0:
		return "ok"
	case 3:
		return "warning"
	}
	return "failed"
}

// RoundEnded records a round that ended with the exit status code, and writes the file.
func (h *Health) RoundEnded(code int) error {
	h.mu.Lock()
	h.last, h.code = h.now(), code
	h.rounds++
	h.mu.Unlock()
	return h.Write()
}

// Stopped records that the watcher stopped, and writes the file a last time.
func (h *Health) Stopped() error {
	h.mu.Lock()
	h.stopped = true
	h.mu.Unlock()
	return h.Write()
}

// Status is the health now.
func (h *Health) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := Status{Status: "ok", Started: h.started.UTC(), ExitCode: h.code, Rounds: h.rounds, StaleAfter: h.staleAfter.String()}
	since := h.started
	if h.rounds > 0 {
		since = h.last
		s.LastRoundEnd, s.Outcome = h.last.UTC(), Outcome(h.code)
	}
	switch {
	case h.stopped:
		s.Status = "stopped"
	case h.now().Sub(since) > h.staleAfter:
		s.Status = "stale"
	}
	return s
}

// Write writes the status to the file, whole or not at all: a reader never sees half. A
// watcher writes it once as it starts, so that a file it cannot write is said at once.
func (h *Health) Write() error {
	if h.file == "" {
		return nil
	}
	data, err := json.MarshalIndent(h.Status(), "", "  ")
	if err != nil {
		return err
	}
	if err := filelock.WriteAtomic(h.file, append(data, '\n')); err != nil {
		return fmt.Errorf("health file: %w", err)
	}
	return nil
}

// ServeHTTP answers GET /healthz: 200 with the status while healthy, 503 otherwise.
func (h *Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/healthz" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s := h.Status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !s.Healthy() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(s)
}

// Serve listens on addr at once (so that an address in use is said before the first
// round) and serves h until stop is called; bound is the address listened on (port 0 is
// given one).
func Serve(addr string, h *Health) (bound string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("--health-addr %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln) // ErrServerClosed once stopped
	}()
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		<-done
	}, nil
}
