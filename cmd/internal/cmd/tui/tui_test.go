package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// Bad flags and arguments end with exit code 2 and a message, before any backend starts.
func TestTUIBadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"--demo", "extra"}, `unknown command "extra"`},
		{[]string{"--endpoint-url", "ftp://x"}, "--endpoint-url"},
		{[]string{"--demo", "--endpoint-url", "http://127.0.0.1:1"}, "--demo and --endpoint-url"},
		{[]string{"--region", "mars-1"}, `"mars-1" is not a Capacity Block region`},
		{[]string{"--no-color=maybe"}, `--no-color "maybe": want true or false`},
	} {
		var out, errw bytes.Buffer
		code := cli.RunContext(context.Background(), &out, &errw, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if !strings.Contains(errw.String(), tc.want) {
			t.Errorf("%v: stderr %q, want it to mention %q", tc.args, errw.String(), tc.want)
		}
		if out.Len() != 0 {
			t.Errorf("%v: wrote %q to stdout", tc.args, out.String())
		}
	}
}

func TestTUIHelp(t *testing.T) {
	var out, errw bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errw, "-h"); code != 0 || errw.Len() != 0 {
		t.Errorf("-h: exit %d, want 0; stderr %q", code, errw.String())
	}
	for _, flag := range []string{"--demo", "--no-color", "--profile", "--region", "--endpoint-url"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("-h does not list %s:\n%s", flag, out.String())
		}
	}
}

func TestTUINoColor(t *testing.T) {
	var errw bytes.Buffer
	t.Setenv("NO_COLOR", "")
	if _, noColor, err := tuiOptions(nil, &errw); err != nil || noColor {
		t.Errorf("no flag, NO_COLOR empty: noColor=%v err=%v, want colour", noColor, err)
	}
	if _, noColor, err := tuiOptions([]string{"--no-color"}, &errw); err != nil || !noColor {
		t.Errorf("--no-color: noColor=%v err=%v", noColor, err)
	}
	t.Setenv("NO_COLOR", "1")
	if _, noColor, err := tuiOptions(nil, &errw); err != nil || !noColor {
		t.Errorf("NO_COLOR=1: noColor=%v err=%v", noColor, err)
	}
	f, _, err := tuiOptions([]string{"--demo", "--profile", "p", "--region", "us-west-2"}, &errw)
	if err != nil || !f.Demo || f.Profile != "p" || f.HomeRegion() != "us-west-2" || !f.AutoDemo {
		t.Errorf("flags read as %+v, err %v", f, err)
	}
	// The SDK's own warnings would be written over the screen: the TUI sends them nowhere.
	if f.SDKLog != io.Discard || f.ClientConfig().SDKLog != io.Discard {
		t.Errorf("the TUI leaves the SDK's warnings on stderr: %v", f.SDKLog)
	}
}
