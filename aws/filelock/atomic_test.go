package filelock

import (
	"os"
	"path/filepath"
	"testing"
)

// A write replaces the file whole, leaves no temporary file beside it, and keeps it its
// owner's; a directory that is not there is an error, not a file elsewhere.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	for _, body := range []string{"first", "second, longer"} {
		if err := WriteAtomic(path, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != body {
			t.Fatalf("read %q, %v; want %q", got, err, body)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files beside it, want the one: %v", len(entries), entries)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("mode %v, %v: others may read it", fi.Mode(), err)
	}
	if err := WriteAtomic(filepath.Join(dir, "missing", "x"), []byte("x")); err == nil {
		t.Error("a write into a missing directory succeeded")
	}
}
