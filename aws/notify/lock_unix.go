//go:build unix

package notify

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on f, waiting for it (as the emulator's state
// file is locked): flock locks belong to the open file, so two notifiers in one process
// exclude each other too.
func lockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func unlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
