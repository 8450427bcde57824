package awsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"
)

// The cloud a client acts on, which what it records belongs to: real AWS, the demo or an
// emulator, whose ids can be alike (source.Backend is another thing: what the front ends
// call).
//
// CloudDemo is the cloud of the built-in simulator (--demo).
const CloudDemo = "demo"

// CloudEmulator is the cloud of the emulator (gpublock sim). It is not told apart by
// its endpoint: one emulator is reached by several URLs (a proxy, localhost or 127.0.0.1),
// and an intent made through one must still be settled, not bought again, through another.
const CloudEmulator = "emulator"

// CloudAWS is real AWS; a line written before entries carried a cloud is taken as AWS's
// in the live journal, and as no cloud's in the simulated one.
const CloudAWS = "aws"

// OfCloud splits entries into those made against cloud and the number of others.
// An entry without a cloud counts as legacy: it belongs to legacy (CloudAWS for the
// live journal, "" for the simulated one, where it could be either and is never settled).
func OfCloud(entries []source.JournalEntry, cloud, legacy string) (mine []source.JournalEntry, hidden int) {
	for _, e := range entries {
		b := e.Cloud
		if b == "" {
			b = legacy
		}
		if b == cloud {
			mine = append(mine, e)
		} else {
			hidden++
		}
	}
	return mine, hidden
}

type journal struct {
	// store is the client's store of records (Client.StateStore), where the journal is
	// the log "journal".
	store func() (store.Store, error)
	// cloud is Config.Cloud; label, what is written into every entry
	// (JournalEntry.Cloud), is Client.Cloud.
	cloud string
	label func() string
	mu    sync.Mutex
	// writeFile writes a line; nil is (*os.File).Write. Tests make it fail part-way.
	writeFile func(*os.File, []byte) (int, error)
}

// journalLog is the name of the journal in a store.
const journalLog = "journal"

// WriteJournal appends e to the journal, fsynced (see journal.write).
func (c *Client) WriteJournal(e source.JournalEntry) error { return c.journal.write(e) }

// SetJournalWrite replaces how the journal writes a line (nil: (*os.File).Write): tests
// make it fail part-way.
func (c *Client) SetJournalWrite(f func(*os.File, []byte) (int, error)) { c.journal.writeFile = f }

// JournalPath is where the journal is written: a file in the local store, an s3:// URL
// in a bucket. It asks STS whose records they are, once (see StateStore).
func (c *Client) JournalPath() (string, error) {
	st, err := c.journal.store()
	if err != nil {
		return "", err
	}
	return journalWhere(st), nil
}

func journalWhere(st store.Store) string {
	if l, ok := st.(store.Local); ok {
		return l.Path(journalLog + ".jsonl")
	}
	return st.Where() + "/" + journalLog + "/"
}

// DefaultJournalDir is $XDG_STATE_HOME/gpublock, or ~/.local/state/gpublock: the root of
// the local store, under which each backend and account has its directory.
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

// write appends one line, fsynced. A purchase does not go ahead when its intent cannot
// be written: an unrecorded purchase is the thing the journal exists to prevent. Readers
// skip a broken line (ReadJournal).
func (j *journal) write(e source.JournalEntry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	st, err := j.store()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	where := journalWhere(st)
	e.Error = source.Redact(e.Error)
	e.Cloud = j.cloud
	if j.label != nil {
		e.Cloud = j.label()
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal %s: %w", where, err)
	}
	if l, ok := st.(store.Local); ok {
		if err := os.MkdirAll(l.Dir, 0o700); err != nil {
			return fmt.Errorf("journal %s: %w", where, err)
		}
		err = store.AppendLine(where, line, j.writeFile)
	} else {
		err = st.Append(context.Background(), journalLog, line)
	}
	if err != nil {
		return fmt.Errorf("journal %s: %w", where, err)
	}
	return nil
}

// ReadJournal reads the journal file at path. A missing file is an empty journal. A line
// that is not a whole entry (torn by a crash, or damaged) is skipped and counted in bad:
// one broken line must not hide the entries after it.
func ReadJournal(path string) (entries []source.JournalEntry, bad int, err error) {
	lines, _, err := store.NewLocal(filepath.Dir(path)).Lines(context.Background(), strings.TrimSuffix(filepath.Base(path), ".jsonl"))
	entries, bad = parseJournal(lines)
	if err != nil {
		return entries, bad, fmt.Errorf("journal %s: %w", path, err)
	}
	return entries, bad, nil
}

func parseJournal(lines [][]byte) (entries []source.JournalEntry, bad int) {
	for _, t := range lines {
		var e source.JournalEntry
		if json.Unmarshal(t, &e) == nil && e.Phase != "" {
			entries = append(entries, e)
		} else {
			bad++
		}
	}
	return entries, bad
}

// Journal reads this client's journal (see ReadJournal): the entries made against this
// client's backend only.
func (c *Client) Journal() ([]source.JournalEntry, int, error) {
	mine, _, bad, err := c.JournalOfCloud()
	return mine, bad, err
}

// JournalOfCloud reads the journal, and splits it into this cloud's entries and the
// number of the others' (see OfCloud).
func (c *Client) JournalOfCloud() (mine []source.JournalEntry, hidden, bad int, err error) {
	st, err := c.journal.store()
	if err != nil {
		return nil, 0, 0, err
	}
	lines, badLines, err := st.Lines(context.Background(), journalLog)
	if err != nil {
		err = fmt.Errorf("journal %s: %w", journalWhere(st), err)
	}
	all, bad := parseJournal(lines)
	bad += badLines
	mine, hidden = OfCloud(all, c.Cloud(), c.legacyCloud())
	return mine, hidden, bad, err
}

// legacyCloud is the cloud of a journal line written without one: AWS in the live
// journal, none in a journal of the emulator's.
func (c *Client) legacyCloud() string {
	if c.Cloud() == CloudAWS {
		return CloudAWS
	}
	return ""
}

// Cloud is what this client's journal entries are made against (Config.Cloud): an
// endpoint taken for AWS when the client was made (an emulator that was down) is the
// emulator once its STS answer said so, so that its entries are read as the emulator's.
func (c *Client) Cloud() string {
	if c.journal.cloud != CloudAWS {
		return c.journal.cloud
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.simID != "" {
		return CloudEmulator
	}
	return CloudAWS
}
