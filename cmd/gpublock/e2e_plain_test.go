//go:build unix

package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/ui/a11y"
)

var sgrRE = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colourSGR reports whether an SGR's parameters set a colour (30–49, 90–107), as opposed
// to a weight or a reset.
func colourSGR(params string) bool {
	for _, p := range strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' }) {
		switch {
		case len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9'):
			return true
		case len(p) == 3 && p[0] == '1' && p[1] == '0':
			return true
		}
	}
	return false
}

// The commands on a terminal never depend on colour or drawing characters: under
// NO_COLOR they print no colour, under TERM=dumb no escape sequence at all (not even a
// query of the terminal's colours), and in neither a box-drawing, block or braille
// character.
func TestE2ECommandsPlainUnderNoColorAndDumb(t *testing.T) {
	home := t.TempDir()
	base := []string{
		"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
	}
	commands := [][]string{
		{"help"},
		{"help", "offerings"},
		{"offerings", "--demo", "--type", "p5.48xlarge", "--duration", "2d"},
		{"advise", "--demo", "--type", "p5.48xlarge", "--instances", "1", "--hours", "48"},
		{"report", "--demo"},
		{"offerings", "--demo", "--type", "nope"},
	}
	for _, term := range []string{"NO_COLOR=1 TERM=xterm-256color", "TERM=dumb"} {
		for _, args := range commands {
			t.Run(term+" "+strings.Join(args, " "), func(t *testing.T) {
				env := append(append([]string(nil), base...), strings.Fields(term)...)
				tm := startE2ETerm(t, env, 120, 40, nil, args...)
				_, raw := tm.exit()
				out := string(raw)
				if len(strings.TrimSpace(out)) < 20 {
					t.Fatalf("printed almost nothing: %q", out)
				}
				if strings.ContainsFunc(out, a11y.IsGraphic) {
					t.Errorf("a drawing character in:\n%s", out)
				}
				if term == "TERM=dumb" {
					if i := strings.IndexByte(out, 0x1b); i >= 0 {
						t.Errorf("an escape sequence on a dumb terminal at %d: %q", i, out[i:min(len(out), i+20)])
					}
					return
				}
				for _, m := range sgrRE.FindAllStringSubmatch(out, -1) {
					if colourSGR(m[1]) {
						t.Errorf("colour under NO_COLOR: %q", m[0])
						break
					}
				}
			})
		}
	}
}
