package health

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func get(t *testing.T, h *Health) (int, Status) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	var s Status
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		t.Fatalf("body %q: %v", rec.Body.String(), err)
	}
	return rec.Code, s
}

// The endpoint passes from the start until stale-after with no round, again after each
// round for stale-after, and fails once no round ended for longer; the file says the same.
func TestHealthGoesStale(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 12, 6, 4, 0, 0, 0, time.UTC)}
	file := filepath.Join(t.TempDir(), "health.json")
	h := New(clock.now, 3*time.Minute, file)

	if code, s := get(t, h); code != 200 || s.Status != "ok" || s.Rounds != 0 {
		t.Errorf("at the start: %d %+v", code, s)
	}
	clock.t = clock.t.Add(3*time.Minute + time.Second)
	if code, s := get(t, h); code != 503 || s.Status != "stale" {
		t.Errorf("no first round for stale-after: %d %+v, want 503 stale", code, s)
	}
	if err := h.RoundEnded(3); err != nil {
		t.Fatal(err)
	}
	ended := clock.t
	clock.t = clock.t.Add(2 * time.Minute)
	if code, s := get(t, h); code != 200 || s.Outcome != "warning" || s.ExitCode != 3 || !s.LastRoundEnd.Equal(ended) {
		t.Errorf("2 minutes after a round: %d %+v", code, s)
	}
	clock.t = ended.Add(3*time.Minute + time.Nanosecond)
	if code, s := get(t, h); code != 503 || s.Status != "stale" || s.Rounds != 1 {
		t.Errorf("stale-after past the last round: %d %+v", code, s)
	}
	if err := h.RoundEnded(1); err != nil {
		t.Fatal(err)
	}
	if code, s := get(t, h); code != 200 || s.Outcome != "failed" || s.Rounds != 2 {
		t.Errorf("a round that failed still ended: %d %+v, want 200", code, s)
	}
	var f Status
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &f); err != nil || f.Rounds != 2 || f.Outcome != "failed" || !f.LastRoundEnd.Equal(clock.t) {
		t.Errorf("file %s: %+v %v", data, f, err)
	}
	if err := h.Stopped(); err != nil {
		t.Fatal(err)
	}
	if code, s := get(t, h); code != 503 || s.Status != "stopped" {
		t.Errorf("after the stop: %d %+v", code, s)
	}
	data, _ = os.ReadFile(file)
	if err := json.Unmarshal(data, &f); err != nil || f.Status != "stopped" {
		t.Errorf("file after the stop %s: %v", data, err)
	}
}

func TestHealthOnlyGetHealthz(t *testing.T) {
	h := New(time.Now, time.Minute, "")
	for _, c := range []struct {
		method, path string
		want         int
	}{{"GET", "/", 404}, {"GET", "/healthz/x", 404}, {"POST", "/healthz", 405}, {"HEAD", "/healthz", 200}} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.want {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.want)
		}
	}
}

// A health file in a directory that cannot be written is an error at once.
func TestHealthFileUnwritable(t *testing.T) {
	h := New(time.Now, time.Minute, filepath.Join(t.TempDir(), "missing", "dir", "health.json"))
	if err := h.Write(); err == nil {
		t.Fatal("no error writing into a missing directory")
	}
}
