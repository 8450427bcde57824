//go:build unix

package filelock

import (
	"os"
	"syscall"
)

// Lock takes an exclusive advisory lock on f, waiting for it. flock locks belong to the
// open file, not the process, so two users in one process exclude each other too.
func Lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// Unlock releases Lock.
func Unlock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// syncDir makes a rename in dir survive a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
