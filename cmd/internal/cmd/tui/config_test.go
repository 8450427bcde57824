package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/ui"
)

// The file's theme is the TUI's unless --theme is given.
func TestYAMLThemeIsTheTUIsUnlessTheFlagIsGiven(t *testing.T) {
	cmdtest.Env(t)
	dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "gpublock")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("theme: dark\n"), 0o600); err != nil {
		t.Fatal(err)
	}
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
