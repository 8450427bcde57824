// Package atstart keeps the launches attached to Capacity Blocks that have not started, and
// fires them, once, when their block becomes active: whichever gpublock watches the blocks
// (`blocks`, `blocks --watch`, the TUI) calls Fire on every round.
//
// A launch is a record on this machine, beside the journal, with a client token fixed when
// it is attached. It is fired through the one spend path under that token, so a watcher
// killed at any moment and started again sends the same token, and EC2 answers with the
// instances it started the first time instead of starting more. The records are read and
// written under one advisory lock, held across a firing, so two watchers never both send.
package atstart

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

// State is where a launch attached at the start is.
type State string

const (
	Pending   State = "pending"   // waiting for its block to start
	Launched  State = "launched"  // its instances were started
	Failed    State = "failed"    // EC2 refused it; nothing was started
	Cancelled State = "cancelled" // by a person, or because its block ended first
)

// Launch is one launch attached to a block.
type Launch struct {
	ReservationID string            `json:"reservation_id"`
	Region        string            `json:"region"`
	Spec          source.LaunchSpec `json:"spec"`
	// Token is the request id and RunInstances client token of every attempt.
	Token      string    `json:"token"`
	AttachedAt time.Time `json:"attached_at"`
	State      State     `json:"state"`
	// Sent is set before the first attempt is sent: from then on the launch may have
	// started instances, and only the same token may be sent again.
	Sent      bool      `json:"sent,omitempty"`
	Instances []string  `json:"instances,omitempty"`
	Reason    string    `json:"reason,omitempty"` // why it failed or was cancelled
	DoneAt    time.Time `json:"done_at,omitzero"`
}

// Done reports whether nothing more happens to the launch.
func (l Launch) Done() bool { return l.State != Pending }

// Store is the records of one state directory (the journal's).
type Store struct{ dir string }

// StoreAt is the store beside the journal at journalPath.
func StoreAt(journalPath string) Store { return Store{dir: filepath.Dir(journalPath)} }

func (s Store) path() string { return filepath.Join(s.dir, "launches-at-start.json") }

// List reads the records. It takes no lock and creates nothing: every save replaces the
// file whole, so a reader sees the records before a save or after it.
func (s Store) List() ([]Launch, error) { return s.read() }

// Update runs f on the records under the lock; save replaces them atomically (written,
// synced, renamed), as often as f calls it. The lock is held while f runs, so f may call
// AWS between saves: another gpublock waits for it.
func (s Store) Update(f func(ls []Launch, save func([]Launch) error) error) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	// A lock file of its own: the records' file is replaced on every save, and a lock on
	// a replaced file would exclude nobody.
	lf, err := os.OpenFile(filepath.Join(s.dir, "launches-at-start.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return err
	}
	defer filelock.Unlock(lf)
	ls, err := s.read()
	if err != nil {
		return err
	}
	return f(ls, s.write)
}

func (s Store) read() ([]Launch, error) {
	raw, err := os.ReadFile(s.path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ls []Launch
	if err := json.Unmarshal(raw, &ls); err != nil {
		// Never taken for "none": a launch it holds might be fired again without its token.
		return nil, fmt.Errorf("%s is damaged (%v): fix or remove it", s.path(), err)
	}
	return ls, nil
}

func (s Store) write(ls []Launch) error {
	raw, err := json.MarshalIndent(ls, "", "  ")
	if err != nil {
		return err
	}
	return filelock.WriteAtomic(s.path(), append(raw, '\n'))
}
