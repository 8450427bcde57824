package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSimBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		mention string
	}{
		{[]string{"--fault", "throttle=2"}, "0 to 1"},
		{[]string{"--fault", "explode=1"}, "lost-reply"},
		{[]string{"--fault", "latency=soon"}, "duration"},
		{[]string{"--fault", "down=mars-1"}, "us-east-1"},
		{[]string{"--speed", "0"}, "positive number"},
		{[]string{"--speed", "fast"}, "positive number"},
		{[]string{"--clock", "tomorrow"}, "RFC 3339"},
		{[]string{"--seed", "x"}, "seed"},
		{[]string{"--region", "moon-1"}, "us-east-1"},
		{[]string{"--colour"}, "flag provided but not defined"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"sim"}, tc.args...), &out, &errb)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errb.String())
		}
		if !strings.Contains(errb.String(), tc.mention) {
			t.Errorf("%v: stderr %q does not mention %q", tc.args, errb.String(), tc.mention)
		}
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"sim", "-h"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "--fault") {
		t.Errorf("sim -h: exit %d, %q", code, errb.String())
	}
}

// lockedBuffer lets the test read what the serving goroutine writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestSimServesUntilCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"sim", "--addr", "127.0.0.1:0", "--seed", "5", "--clock", "2026-12-01T12:00:00Z",
			"--fault", "latency=1ms", "--fault", "down=us-west-2"}, &out, &errb)
	}()
	urlRE := regexp.MustCompile(`AWS_ENDPOINT_URL_EC2=(http://127\.0\.0\.1:\d+)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := urlRE.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("no endpoint printed; stdout %q stderr %q", out.String(), errb.String())
	}
	for _, want := range []string{"AWS_ENDPOINT_URL_STS=" + base, "AWS_ACCESS_KEY_ID=", "AWS_REGION=us-east-1", "/_sim/clock"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("instructions lack %q:\n%s", want, out.String())
		}
	}
	resp, err := http.Get(base + "/_sim/clock")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(b), "2026-12-01T12:0") {
		t.Errorf("clock = %q, want the --clock time", b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after cancel; stderr %q", code, errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("sim did not stop when its context was cancelled")
	}
}
