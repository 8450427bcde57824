package filelock

import (
	"os"
	"path/filepath"
)

// Locked runs f holding the lock file at lockPath (made, and its directory, its owner's
// only): a file's lock of its own beside it, since the file itself is replaced whole on
// every write (WriteAtomic), and a lock on a replaced file would exclude nobody.
func Locked(lockPath string, f func() error) error {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o700); err != nil {
		return err
	}
	lf, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := Lock(lf); err != nil {
		return err
	}
	defer Unlock(lf)
	return f()
}
