package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Locked makes the lock's directory and file, its owner's only, and returns what f returns.
func TestLockedMakesTheLockAndReturnsFsError(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "new", "dir", "state.json.lock")
	ran := false
	want := errors.New("f's own")
	if err := Locked(lock, func() error { ran = true; return want }); !errors.Is(err, want) || !ran {
		t.Fatalf("Locked = %v (ran %v), want f's error", err, ran)
	}
	fi, err := os.Stat(lock)
	if err != nil || fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("lock file %v, %v: want one only its owner reads", fi, err)
	}
	// Held again once released, and by a nested lock of another file.
	if err := Locked(lock, func() error { return Locked(lock+"2", func() error { return nil }) }); err != nil {
		t.Errorf("the lock was not released: %v", err)
	}
}
