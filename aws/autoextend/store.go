// Package autoextend records the decisions of the auto-extension policy, once for every
// gpublock that makes them: `blocks --watch --auto-extend`, which decides by itself (or
// after its approval command), and the TUI, where a person decides in the extend dialog
// the policy opens. A decision is made once per block and lead (model.AutoExtendKey):
// taken (recorded before the extension is bought) or declined.
//
// Each decision is a journal line (phase "decision"), the record of what was spent, and
// a record in a file beside the journal, which also keeps what became of an extension
// taken. Both are read back, so that no watcher decides a key again after a restart, and
// they are read and written under one advisory lock, so that two watchers at once take
// turns: the second reads the first's decision before making its own. A decline, and the
// outcome of an extension, are notified as the warnings are.
package autoextend

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/source"
)

// Record is one decision, as the file beside the journal keeps it.
type Record struct {
	Key           string `json:"key"`
	ReservationID string `json:"reservation_id"`
	Region        string `json:"region"`
	Account       string `json:"account,omitempty"`
	Lead          string `json:"lead"`
	// Step is the decision (extend, declined), then what became of an extension taken
	// (extended, failed).
	Step      source.AutoExtendStep `json:"step"`
	Reason    string                `json:"reason,omitempty"`
	Hours     int                   `json:"duration_hours,omitempty"`
	Offering  string                `json:"offering_id,omitempty"`
	Fee       string                `json:"upfront_fee,omitempty"`
	RequestID string                `json:"request_id,omitempty"`
	// Backend is what it was decided against (awsapi.Client.Backend): the simulated
	// state directory is shared by --demo and gpublock sim, whose ids can be the same.
	Backend   string    `json:"backend,omitempty"`
	DecidedAt time.Time `json:"decided_at"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// Store is the records of one state directory (the journal's).
type Store struct{ dir string }

// StoreAt is the store beside the journal at journalPath.
func StoreAt(journalPath string) Store { return Store{dir: filepath.Dir(journalPath)} }

func (s Store) path() string { return filepath.Join(s.dir, "auto-extend.json") }

// List reads the records. It takes no lock and creates nothing: every save replaces the
// file whole, so a reader sees the records before a save or after it.
func (s Store) List() ([]Record, error) { return s.read() }

// Update runs f on the records under the lock; save replaces them atomically (written,
// synced, renamed), as often as f calls it. The lock is held while f runs, so f may call
// AWS between saves (blocks --watch buys the extension it decided): another gpublock
// waits for it.
func (s Store) Update(f func(rs []Record, save func([]Record) error) error) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	// A lock file of its own: the records' file is replaced on every save, and a lock on
	// a replaced file would exclude nobody.
	lf, err := os.OpenFile(filepath.Join(s.dir, "auto-extend.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return err
	}
	defer filelock.Unlock(lf)
	rs, err := s.read()
	if err != nil {
		return err
	}
	return f(rs, s.write)
}

func (s Store) read() ([]Record, error) {
	raw, err := os.ReadFile(s.path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rs []Record
	if err := json.Unmarshal(raw, &rs); err != nil {
		// Never taken for "none decided": a block could be extended twice at one lead.
		return nil, fmt.Errorf("%s is damaged (%v): fix or remove it", s.path(), err)
	}
	return rs, nil
}

func (s Store) write(rs []Record) error {
	raw, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	return filelock.WriteAtomic(s.path(), append(raw, '\n'))
}
