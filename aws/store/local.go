package store

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gpublock/gpublock/aws/filelock"
)

// Local is a store in a directory: an object is a file, its lock an advisory lock on the
// file NAME.lock beside it, a write an atomic replacement, and a log an append-only file
// of lines, fsynced.
type Local struct{ Dir string }

// NewLocal is the store in dir.
func NewLocal(dir string) Local { return Local{Dir: dir} }

func (l Local) Where() string { return l.Dir }

func (l Local) Sub(key ...string) Store {
	return Local{Dir: filepath.Join(append([]string{l.Dir}, key...)...)}
}

// Path is the file of the object name.
func (l Local) Path(name string) string { return filepath.Join(l.Dir, name) }

func (l Local) Read(_ context.Context, name string) ([]byte, error) {
	if err := regularOrMissing(l.Path(name)); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(l.Path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// regularOrMissing refuses what is not a regular file (a link to /dev/zero would be read
// without end).
func regularOrMissing(p string) error {
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	return nil
}

func (l Local) Locked(ctx context.Context, name string, f func(cur []byte, write func([]byte) error) error) error {
	// A lock file of its own: the object's file is replaced on every write, and a lock on
	// a replaced file would exclude nobody.
	return filelock.Locked(l.Path(name+".lock"), func() error {
		cur, err := l.Read(ctx, name)
		if err != nil {
			return err
		}
		return f(cur, func(b []byte) error { return filelock.WriteAtomic(l.Path(name), b) })
	})
}

// Append adds the line to the file NAME.jsonl, on a line of its own, fsynced (see
// AppendLine).
func (l Local) Append(_ context.Context, name string, line []byte) error {
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return err
	}
	return AppendLine(l.Path(name+".jsonl"), line, nil)
}

// AppendLine appends one line to the file at p and fsyncs it. The line always starts on a
// line of its own, so a torn last line (a crash mid-write, a full disk) cannot swallow it;
// a write that fails part-way is cut off again, so that it does not tear the next one.
// write replaces how the line is written (nil: (*os.File).Write); tests make it fail.
func AppendLine(p string, line []byte, write func(*os.File, []byte) (int, error)) error {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	size, torn, err := tornEnd(f)
	if err != nil {
		f.Close()
		return err
	}
	if torn {
		line = append([]byte{'\n'}, line...)
	}
	line = append(line, '\n')
	if write == nil {
		write = (*os.File).Write
	}
	if n, err := write(f, line); err != nil || n != len(line) {
		if err == nil {
			err = io.ErrShortWrite
		}
		// O_APPEND wrote at the end that tornEnd saw; cutting back to it removes the part
		// line. Another process appending in between is not guarded against.
		_ = f.Truncate(size)
		_ = f.Sync()
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tornEnd reports the file's size and whether its last line lacks its newline.
func tornEnd(f *os.File) (int64, bool, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	if st.Size() == 0 {
		return 0, false, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], st.Size()-1); err != nil {
		return 0, false, err
	}
	return st.Size(), last[0] != '\n', nil
}

// Lines reads the log's lines; empty lines are skipped. Whether a line is whole is the
// reader's to say (it parses them), so bad is always 0 here.
func (l Local) Lines(_ context.Context, name string) ([][]byte, int, error) {
	p := l.Path(name + ".jsonl")
	if err := regularOrMissing(p); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var out [][]byte
	r := bufio.NewReader(f)
	for {
		line, rerr := r.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			out = append(out, t)
		}
		if rerr == io.EOF {
			return out, 0, nil
		}
		if rerr != nil {
			return out, 0, rerr
		}
	}
}
