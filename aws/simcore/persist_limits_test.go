//go:build unix

package simcore

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A state file that is not a regular file, or that is too large to be an emulator's, is
// refused at once with a message that says so: never read until memory runs out, never
// waited on.
func TestStateFileMustBeARegularFileOfSaneSize(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxStateSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct{ path, want string }{
		{dir, "not a regular file (it is a directory)"},
		{fifo, "not a regular file (it is a fifo)"},
		{zero, "not a regular file (it is a device)"},
		{big, "more than the 67108864 a state file may hold"},
	} {
		_, err := New(Options{StateFile: tc.path})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("state file %s: %v; want %q", tc.path, err, tc.want)
		}
	}
	// A regular file, and a path not yet made, are taken.
	if _, err := New(Options{StateFile: filepath.Join(dir, "new.json")}); err != nil {
		t.Errorf("a new state file: %v", err)
	}
}
