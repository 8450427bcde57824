package filelock

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Records is a JSON list of T kept in one file, NAME.json in a directory, changed only under
// the lock NAME.lock beside it: the records gpublock keeps beside its journal.
type Records[T any] struct{ dir, name string }

// RecordsIn is the records NAME.json in the directory of the file at beside (the journal).
func RecordsIn[T any](beside, name string) Records[T] {
	return Records[T]{dir: filepath.Dir(beside), name: name}
}

// Path is the records' file.
func (s Records[T]) Path() string { return filepath.Join(s.dir, s.name+".json") }

// List reads the records. It takes no lock and creates nothing: every save replaces the
// file whole, so a reader sees the records before a save or after it.
func (s Records[T]) List() ([]T, error) { return s.read() }

// Update runs f on the records under the lock; save replaces them atomically (written,
// synced, renamed), as often as f calls it. The lock is held while f runs, so f may call
// AWS between saves: another gpublock waits for it.
func (s Records[T]) Update(f func(rs []T, save func([]T) error) error) error {
	return Locked(filepath.Join(s.dir, s.name+".lock"), func() error {
		rs, err := s.read()
		if err != nil {
			return err
		}
		return f(rs, s.write)
	})
}

func (s Records[T]) read() ([]T, error) {
	raw, err := os.ReadFile(s.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rs []T
	if err := json.Unmarshal(raw, &rs); err != nil {
		// Never taken for "none": what the records hold (a launch's token, a decision taken)
		// would be done again.
		return nil, fmt.Errorf("%s is damaged (%v): fix or remove it", s.Path(), err)
	}
	return rs, nil
}

func (s Records[T]) write(rs []T) error {
	raw, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(s.Path(), append(raw, '\n'))
}
