package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The blocks screen's flags: --screen, --refresh and --no-notify, with their bad values.
func TestTUIBlocksFlags(t *testing.T) {
	var errw bytes.Buffer
	a, err := parseTUI([]string{"--demo", "--screen", "blocks", "--refresh", "10s", "--no-notify"}, &errw)
	if err != nil || a.screen != "blocks" || a.refresh != 10*time.Second || !a.noNotify || a.AWS == nil || !a.AWS.Demo {
		t.Errorf("read as %+v, err %v", a, err)
	}
	a, err = parseTUI(nil, &errw)
	if err != nil || a.screen != "search" || a.refresh != 30*time.Second || a.noNotify {
		t.Errorf("defaults: %+v, err %v", a, err)
	}
	for _, bad := range [][]string{{"--screen", "offers"}, {"--refresh", "1s"}, {"--refresh", "0"}} {
		if _, err := parseTUI(bad, &errw); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%v: err %v, want a usage error naming the flag", bad, err)
		}
	}
}
