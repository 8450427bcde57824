package newfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var at = time.Date(2026, 12, 6, 5, 12, 3, 0, time.FixedZone("PST", -8*3600))

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func put(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A save takes the first name free of itself and of its siblings, in UTC, and never
// writes over a file.
func TestWriteTakesTheFirstFreeName(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "gpublock-offerings-20261206-131203")
	put(t, base+".csv", "mine")
	put(t, base+"-2.png", "mine too")
	got, err := Write(dir, "offerings", at, ".csv", []string{".png"}, text("a,b\n"))
	if err != nil || got != base+"-3.csv" {
		t.Fatalf("saved as %s (%v), want %s-3.csv", got, err, base)
	}
	if b, _ := os.ReadFile(got); string(b) != "a,b\n" {
		t.Errorf("%s holds %q", got, b)
	}
	for path, want := range map[string]string{base + ".csv": "mine", base + "-2.png": "mine too"} {
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("%s was written over: %q", path, b)
		}
	}
	if _, err := os.Stat(base + "-2.csv"); err == nil {
		t.Error("the name whose sibling is taken was used")
	}
}

// A file that could not be finished is removed; every name taken is an error naming them.
func TestWriteLeavesNoHalfFile(t *testing.T) {
	dir := t.TempDir()
	broken := errors.New("disk full")
	if _, err := Write(dir, "report", at, ".svg", nil, func(w io.Writer) error {
		io.WriteString(w, "<svg")
		return broken
	}); !errors.Is(err, broken) {
		t.Fatalf("a failed write: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a half file was left: %v", left)
	}
	put(t, filepath.Join(dir, Name("report", at)+".svg"), "")
	for i := 2; i <= most; i++ {
		put(t, filepath.Join(dir, Name("report", at)+"-"+strconv.Itoa(i)+".svg"), "")
	}
	if _, err := Write(dir, "report", at, ".svg", nil, text("x")); err == nil || !strings.Contains(err.Error(), "is taken") {
		t.Errorf("every name taken: %v", err)
	}
}
