//go:build unix

package marketcache

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, so two processes updating one cache do
// not lose each other's cells.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
