package snapshot_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/ui/snapshot"
	"github.com/gpublock/gpublock/ui/snapshot/snapshottest"
)

func TestSVGKeepsTextAndColours(t *testing.T) {
	frame := "plain & <text>\n\x1b[1;38;2;255;0;0mbold red\x1b[0m then \x1b[7mreversed\x1b[0m\n\n  last"
	doc := snapshot.SVG(frame, 30, 4, snapshot.Dark)
	lines := snapshottest.Lines(t, doc)
	want := []string{"plain & <text>", "bold red then reversed", "last"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %q", len(lines), len(want), lines)
	}
	for i, w := range want {
		if strings.TrimSpace(lines[i]) != w {
			t.Errorf("line %d: %q, want %q", i, strings.TrimSpace(lines[i]), w)
		}
	}
	s := string(doc)
	if !strings.Contains(s, `fill="#ff0000" font-weight="bold">bold red</tspan>`) {
		t.Errorf("the red bold run lost its colour or weight:\n%s", s)
	}
	// Reverse: the default foreground becomes the cell's background.
	if !strings.Contains(s, `fill="`+"#dddddd"+`"/>`) {
		t.Errorf("the reversed run has no background of the foreground colour:\n%s", s)
	}
	if strings.Contains(s, "\x1b") {
		t.Error("an escape sequence reached the SVG")
	}
	snapshottest.Render(t, doc)
}

// Save never writes over a file: the name taken gets -2; a PNG is drawn where the
// renderer is installed.
func TestSaveNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 12, 6, 5, 12, 0, 0, time.UTC)
	taken := filepath.Join(dir, "gpublock-offerings-20261206-051200.svg")
	if err := os.WriteFile(taken, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Save(context.Background(), dir, "offerings", at, snapshot.SVG("hello", 10, 1, snapshot.Light))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "gpublock-offerings-20261206-051200-2.svg"); s.SVG != want {
		t.Errorf("saved as %s, want %s", s.SVG, want)
	}
	if b, _ := os.ReadFile(taken); string(b) != "mine" {
		t.Errorf("the file there was written over: %q", b)
	}
	if _, err := exec.LookPath(snapshot.Renderer); err == nil {
		if s.PNG == "" || s.PNGErr != nil {
			t.Errorf("rsvg-convert is installed, yet no PNG: %v", s.PNGErr)
		} else if b, _ := os.ReadFile(s.PNG); !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", s.PNG)
		}
	}
}
