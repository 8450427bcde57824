//go:build unix

package simcore

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it; every emulator on one
// state file locks the same lock file, also two in one process (flock locks belong to the
// open file, not the process).
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
