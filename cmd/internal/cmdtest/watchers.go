package cmdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
)

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
	if strings.Count(w.Buf.String(), "block(s) in us-east-1") >= w.N {
		w.Cancel()
	}
	return len(p), nil
}

// Hook is a local webhook receiver that keeps the kinds it was sent.
type Hook struct {
	Mu    sync.Mutex
	Kinds []string
	Texts []string
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
