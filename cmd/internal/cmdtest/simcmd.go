package cmdtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"
)

// Buffer lets a test read what a serving goroutine writes.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// ServeSim runs `gpublock sim --addr 127.0.0.1:0 args...` through the CLI's commands (one
// of them must be sim) until the test ends, and returns its URL as the command prints it,
// its stdout, and a wait for its exit status after cancel.
func (c *CLI) ServeSim(t *testing.T, args ...string) (base string, out *Buffer, cancel context.CancelFunc, wait func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	out = &Buffer{}
	var errb Buffer
	done := make(chan int, 1)
	go func() {
		done <- c.RunContext(ctx, out, &errb, append([]string{"sim", "--addr", "127.0.0.1:0"}, args...)...)
	}()
	urlRE := regexp.MustCompile(`AWS_ENDPOINT_URL_EC2=(http://127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("no endpoint printed; stdout %q stderr %q", out.String(), errb.String())
	}
	wait = func() int {
		select {
		case code := <-done:
			return code
		case <-time.After(10 * time.Second):
			t.Fatal("sim did not stop when its context was cancelled")
			return -1
		}
	}
	return base, out, cancel, wait
}

// Get is the body of a GET of url: an emulator's own pages (/_sim/...).
func Get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
