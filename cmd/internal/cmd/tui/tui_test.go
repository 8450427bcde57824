package tui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/ui"
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

// --no-mouse is read; the mouse is on without it.
func TestTUINoMouseFlag(t *testing.T) {
	var errw bytes.Buffer
	if a, err := parseTUI([]string{"--no-mouse"}, &errw); err != nil || !a.noMouse {
		t.Errorf("--no-mouse read as %v, err %v", a.noMouse, err)
	}
	if a, err := parseTUI(nil, &errw); err != nil || a.noMouse {
		t.Errorf("default read as noMouse %v, err %v", a.noMouse, err)
	}
}

// --theme takes auto, light or dark; anything else is bad usage, before any backend.
func TestTUIThemeFlag(t *testing.T) {
	for _, name := range []string{"auto", "light", "dark"} {
		var errw bytes.Buffer
		a, err := parseTUI([]string{"--demo", "--theme", name}, &errw)
		if err != nil || a.theme != name {
			t.Errorf("--theme %s: %v, read as %q", name, err, a.theme)
		}
	}
	if a, err := parseTUI([]string{"--demo"}, &bytes.Buffer{}); err != nil || a.theme != "auto" {
		t.Errorf("no --theme: %v, read as %q; want auto", err, a.theme)
	}
	var out, errw bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errw, "--theme", "solarized"); code != 2 ||
		!strings.Contains(errw.String(), `--theme "solarized": allowed auto, light or dark`) || out.Len() != 0 {
		t.Errorf("--theme solarized: exit %d, stderr %q, stdout %q", code, errw.String(), out.String())
	}
	out.Reset()
	cli.RunContext(context.Background(), &out, &errw, "-h")
	if !strings.Contains(out.String(), "--theme") {
		t.Errorf("-h does not list --theme:\n%s", out.String())
	}
}

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

// The file's theme is the TUI's unless --theme is given.
func TestYAMLThemeIsTheTUIsUnlessTheFlagIsGiven(t *testing.T) {
	cmdtest.Env(t)
	cmdtest.WriteConfig(t, "theme: dark\n")
	var errw strings.Builder
	a, err := parseTUI([]string{"--demo"}, &errw)
	if err != nil || a.themeGiven {
		t.Fatalf("%+v, %v", a, err)
	}
	if a, err = parseTUI([]string{"--demo", "--theme", "auto"}, &errw); err != nil || !a.themeGiven {
		t.Fatalf("--theme auto: %+v, %v", a, err)
	}
	s, err := cmdutil.TUIConfigFor(a.AWS, cmdutil.LoadUserConfig)
	if err != nil || s.Theme != "dark" {
		t.Errorf("theme from the file: %+v, %v", s, err)
	}
}

// `mouse: false` in the file leaves the mouse to the terminal, as --no-mouse does; true or
// no key changes nothing.
func TestConfigMouseKey(t *testing.T) {
	no, yes := false, true
	for _, tc := range []struct {
		mouse *bool
		want  bool
	}{{nil, false}, {&yes, false}, {&no, true}} {
		var opts ui.Options
		applyConfigMouse(&opts, tc.mouse)
		if opts.NoMouse != tc.want {
			t.Errorf("mouse %v: NoMouse %v, want %v", tc.mouse, opts.NoMouse, tc.want)
		}
	}
}

// The accessible mode: --accessible when given (either way), else $ACCESSIBLE when set,
// else the file's accessible.
func TestAccessibleMode(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		flag, given bool
		env         string
		file        *bool
		want        bool
	}{
		{want: false},
		{flag: true, given: true, want: true},
		{flag: false, given: true, env: "1", file: &on, want: false},
		{env: "1", want: true},
		{env: "0", file: &on, want: false},
		{file: &on, want: true},
		{file: &off, want: false},
	} {
		if got := accessibleMode(tc.flag, tc.given, tc.env, tc.file); got != tc.want {
			t.Errorf("flag %v (given %v), env %q, file %v: %v, want %v", tc.flag, tc.given, tc.env, tc.file, got, tc.want)
		}
	}
}

// Against an emulator the notice says nothing is real, and does not say nothing can be
// bought: buying works there, which is what the emulator is for.
func TestTUINoticeForAnEmulator(t *testing.T) {
	cs := cmdtest.StartSim(t)
	f := cmdutil.AWSFlags{PerRegion: 4, Overall: 32, EndpointURL: cs.URL}
	c, err := connect(context.Background(), &f, nil)
	if err != nil {
		t.Fatal(err)
	}
	// It fits a 100-column terminal with the endpoint of a local `gpublock sim` (the
	// notice line is cut to the width).
	if !c.Simulated || !strings.Contains(c.Notice, "nothing is real") || strings.Contains(c.Notice, "nothing can be bought") || len([]rune(c.Notice)) > 100-len("▲ ")-len("http://127.0.0.1:4566")+len(cs.URL) {
		t.Errorf("simulated %v, notice %q", c.Simulated, c.Notice)
	}
}

// tuiOptions reads the TUI's flags, without a terminal: its AWS flags and whether it
// draws without colour.
func tuiOptions(args []string, stderr io.Writer) (*cmdutil.AWSFlags, bool, error) {
	a, err := parseTUI(args, stderr)
	return a.AWS, a.noColor, err
}

// parseTUI reads the TUI's flags as the root command does, for the tests of parsing.
func parseTUI(args []string, stderr io.Writer) (Options, error) {
	var got Options
	root := NewCmdTUI(cmdutil.New("test", cmdutil.System(io.Discard, stderr)), func(a *Options) error { got = *a; return nil })
	err := cmdtest.Parse(root, args, stderr)
	return got, err
}

// cli runs `gpublock` with no command, the TUI, as the program does.
var cli = cmdtest.CLI{Exec: func(ctx context.Context, f *cmdutil.Factory, args []string) int {
	return cmdtest.ExecRoot(ctx, f, NewCmdTUI(f, nil), args...)
}}
