package awsapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/gpublock/gpublock/aws/source"
)

// BackendDemo is the Backend of the built-in simulator (--demo).
const BackendDemo = "demo"

// BackendEmulator is the Backend of the emulator (gpublock sim). It is not told apart by
// its endpoint: one emulator is reached by several URLs (a proxy, localhost or 127.0.0.1),
// and an intent made through one must still be settled, not bought again, through another.
const BackendEmulator = "emulator"

// BackendAWS is the Backend of real AWS; a line written before entries carried a backend
// is taken as AWS's in the live journal, and as no backend's in the simulated one.
const BackendAWS = "aws"

// OfBackend splits entries into those made against backend and the number of others.
// An entry without a backend counts as legacy: it belongs to legacy (BackendAWS for the
// live journal, "" for the simulated one, where it could be either and is never settled).
func OfBackend(entries []source.JournalEntry, backend, legacy string) (mine []source.JournalEntry, hidden int) {
	for _, e := range entries {
		b := e.Backend
		if b == "" {
			b = legacy
		}
		if b == backend {
			mine = append(mine, e)
		} else {
			hidden++
		}
	}
	return mine, hidden
}

type journal struct {
	dir string
	// backend is written into every entry (JournalEntry.Backend).
	backend string
	mu      sync.Mutex
	// writeFile writes a line; nil is (*os.File).Write. Tests make it fail part-way.
	writeFile func(*os.File, []byte) (int, error)
}

// WriteJournal appends e to the journal, fsynced (see journal.write).
func (c *Client) WriteJournal(e source.JournalEntry) error { return c.journal.write(e) }

// SetJournalWrite replaces how the journal writes a line (nil: (*os.File).Write): tests
// make it fail part-way.
func (c *Client) SetJournalWrite(f func(*os.File, []byte) (int, error)) { c.journal.writeFile = f }

// JournalPath is where the journal is written.
func (c *Client) JournalPath() (string, error) { return c.journal.path() }

// DefaultJournalDir is $XDG_STATE_HOME/gpublock, or ~/.local/state/gpublock.
func DefaultJournalDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "gpublock"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("journal: no home directory for ~/.local/state/gpublock: %w", err)
	}
	return filepath.Join(home, ".local", "state", "gpublock"), nil
}

func (j *journal) path() (string, error) {
	dir := j.dir
	if dir == "" {
		d, err := DefaultJournalDir()
		if err != nil {
			return "", err
		}
		dir = d
	}
	return filepath.Join(dir, "journal.jsonl"), nil
}

// write appends one line and fsyncs it. A purchase does not go ahead when its intent
// cannot be written: an unrecorded purchase is the thing the journal exists to prevent.
// The line always starts on a line of its own, so a torn last line (a crash mid-write, a
// full disk) cannot swallow it; a write that fails part-way is cut off again, so that it
// does not tear the next one. Readers skip a broken line (ReadJournal).
func (j *journal) write(e source.JournalEntry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	p, err := j.path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("journal %s: %w", p, err)
	}
	e.Error = source.Redact(e.Error)
	e.Backend = j.backend
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal %s: %w", p, err)
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("journal %s: %w", p, err)
	}
	size, torn, err := tornEnd(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("journal %s: %w", p, err)
	}
	if torn {
		line = append([]byte{'\n'}, line...)
	}
	line = append(line, '\n')
	wr := j.writeFile
	if wr == nil {
		wr = (*os.File).Write
	}
	if n, err := wr(f, line); err != nil || n != len(line) {
		if err == nil {
			err = io.ErrShortWrite
		}
		// O_APPEND wrote at the end that tornEnd saw; cutting back to it removes the part
		// line. Another process appending in between is not guarded against.
		_ = f.Truncate(size)
		_ = f.Sync()
		f.Close()
		return fmt.Errorf("journal %s: %w", p, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("journal %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("journal %s: %w", p, err)
	}
	return nil
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

// ReadJournal reads the journal at path. A missing file is an empty journal. A line that
// is not a whole entry (torn by a crash, or damaged) is skipped and counted in bad: one
// broken line must not hide the entries after it.
func ReadJournal(path string) (entries []source.JournalEntry, bad int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("journal %s: %w", path, err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		line, rerr := r.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			var e source.JournalEntry
			if json.Unmarshal(t, &e) == nil && e.Phase != "" {
				entries = append(entries, e)
			} else {
				bad++
			}
		}
		if rerr == io.EOF {
			return entries, bad, nil
		}
		if rerr != nil {
			return entries, bad, fmt.Errorf("journal %s: %w", path, rerr)
		}
	}
}

// Journal reads this client's journal (see ReadJournal): the entries made against this
// client's backend only.
func (c *Client) Journal() ([]source.JournalEntry, int, error) {
	mine, _, bad, err := c.JournalOfBackend()
	return mine, bad, err
}

// JournalOfBackend reads the journal, and splits it into this backend's entries and the
// number of the others' (see OfBackend).
func (c *Client) JournalOfBackend() (mine []source.JournalEntry, hidden, bad int, err error) {
	p, err := c.journal.path()
	if err != nil {
		return nil, 0, 0, err
	}
	all, bad, err := ReadJournal(p)
	mine, hidden = OfBackend(all, c.journal.backend, c.legacyBackend())
	return mine, hidden, bad, err
}

// legacyBackend is the backend of a journal line written without one: AWS in the live
// journal, none in a journal of the emulator's.
func (c *Client) legacyBackend() string {
	if c.journal.backend == BackendAWS {
		return BackendAWS
	}
	return ""
}

// Backend is what this client's journal entries are made against (Config.Backend).
func (c *Client) Backend() string { return c.journal.backend }
