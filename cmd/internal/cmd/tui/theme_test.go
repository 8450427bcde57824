package tui

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

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
