package cmdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// refreshLine is the first line of a watch's refresh of us-east-1 in a table.
var refreshLine = regexp.MustCompile(`\d+ blocks? in us-east-1`)

// Refreshes counts the refreshes of us-east-1 a watch printed as a table.
func Refreshes(out string) int { return len(refreshLine.FindAllStringIndex(out, -1)) }

// CancelAfter is stdout that cancels the command's context once it has seen n refreshes.
type CancelAfter struct {
	mu     sync.Mutex
	Buf    bytes.Buffer
	N      int
	Cancel context.CancelFunc
}

func (w *CancelAfter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.Buf.Write(p)
	if Refreshes(w.Buf.String()) >= w.N {
		w.Cancel()
	}
	return len(p), nil
}

// Watch runs args, a watch of us-east-1, until stdout has shown n refreshes or ctx ends,
// and returns the exit status and what the command wrote.
func (c *CLI) Watch(ctx context.Context, n int, args ...string) (int, string, string) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &CancelAfter{N: n, Cancel: cancel}
	var errb bytes.Buffer
	code := c.RunContext(ctx, out, &errb, args...)
	return code, out.Buf.String(), errb.String()
}

// Hook is a local webhook receiver that keeps the kinds it was sent.
type Hook struct {
	Mu    sync.Mutex
	Kinds []string
	Texts []string
	URL   string // where StartHook serves it
}

// StartHook serves a Hook, at its URL, until the test ends.
func StartHook(t *testing.T) *Hook {
	h := &Hook{}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	h.URL = srv.URL
	return h
}

// SortedKinds is the kinds sent so far, sorted and joined with commas.
func (h *Hook) SortedKinds() string {
	h.Mu.Lock()
	defer h.Mu.Unlock()
	return strings.Join(slices.Sorted(slices.Values(h.Kinds)), ",")
}

func (h *Hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	h.Mu.Lock()
	defer h.Mu.Unlock()
	k, _ := m["kind"].(string)
	if l, _ := m["lead"].(string); l != "" {
		k += "/" + l
	}
	h.Kinds = append(h.Kinds, k)
	text, _ := m["text"].(string)
	h.Texts = append(h.Texts, text)
}
