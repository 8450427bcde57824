package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// --watch-every: how often a watched search runs again, 1m to 24h; a bad value exits 2 with
// a message naming the flag, before any backend starts.
func TestTUIWatchEvery(t *testing.T) {
	var errw bytes.Buffer
	if a, err := parseTUI(nil, &errw); err != nil || a.watchEvery != 5*time.Minute {
		t.Errorf("default: %s, err %v; want 5m", a.watchEvery, err)
	}
	for _, ok := range []struct {
		arg  string
		want time.Duration
	}{{"1m", time.Minute}, {"90m", 90 * time.Minute}, {"24h", 24 * time.Hour}} {
		if a, err := parseTUI([]string{"--watch-every", ok.arg}, &errw); err != nil || a.watchEvery != ok.want {
			t.Errorf("--watch-every %s: read as %s, err %v", ok.arg, a.watchEvery, err)
		}
	}
	for _, bad := range []struct{ arg, want string }{
		{"59s", "--watch-every 59s: allowed 1m to 24h"},
		{"24h1s", "--watch-every 24h0m1s: allowed 1m to 24h"},
		{"0", "--watch-every 0s: allowed 1m to 24h"},
		{"-5m", "allowed 1m to 24h"},
		{"often", `--watch-every "often": want a duration`},
	} {
		var out, errw bytes.Buffer
		if code := cli.RunContext(context.Background(), &out, &errw, "--watch-every", bad.arg); code != 2 {
			t.Errorf("--watch-every %s: exit %d, want 2", bad.arg, code)
		}
		if !strings.Contains(errw.String(), bad.want) || out.Len() != 0 {
			t.Errorf("--watch-every %s: stderr %q, stdout %q; want %q on stderr only", bad.arg, errw.String(), out.String(), bad.want)
		}
	}
}
