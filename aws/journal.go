package aws

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// JournalEntry is one line of the purchase journal. It holds what was bought, where and
// for how much, never credentials: the client has no field that could carry them here.
type JournalEntry struct {
	Time      time.Time         `json:"time"`
	Phase     string            `json:"phase"`  // "intent" before the call, "outcome" after
	Action    string            `json:"action"` // PurchaseCapacityBlock, PurchaseCapacityBlockExtension, RunInstances
	RequestID string            `json:"request_id"`
	Account   string            `json:"account,omitempty"`
	Region    string            `json:"region"`
	Zone      string            `json:"availability_zone,omitempty"`
	Offering  string            `json:"offering_id,omitempty"`
	Type      string            `json:"instance_type,omitempty"`
	Count     int               `json:"instance_count,omitempty"`
	Start     *time.Time        `json:"start,omitempty"`
	End       *time.Time        `json:"end,omitempty"`
	Fee       string            `json:"upfront_fee,omitempty"`
	Currency  string            `json:"currency,omitempty"`
	Platform  string            `json:"platform,omitempty"`
	Target    string            `json:"capacity_reservation_id,omitempty"` // the block extended or launched into
	Tags      map[string]string `json:"tags,omitempty"`
	Outcome   string            `json:"outcome,omitempty"` // bought, not-bought, unknown, launched, not-launched
	Recovered bool              `json:"recovered,omitempty"`
	Result    string            `json:"result_id,omitempty"` // reservation id, instance ids
	Error     string            `json:"error,omitempty"`
}

type journal struct {
	dir string
	mu  sync.Mutex
}

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
func (j *journal) write(e JournalEntry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	p, err := j.path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("journal: %w", err)
	}
	return f.Close()
}
