package filelock

import (
	"os"
	"path/filepath"
)

// WriteAtomic replaces path with data: written to a temporary file beside it, synced, then
// renamed over path, and the rename synced, so that a reader sees the old file or the new
// one and a crash leaves one of them whole. The file is its owner's only (0600).
func WriteAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(dir)
}
