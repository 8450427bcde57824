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
	"path/filepath"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"
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
	// Starts is the block's start as it was when the launch was attached: when it will
	// run (an extension never moves a start).
	Starts time.Time `json:"starts,omitzero"`
	State  State     `json:"state"`
	// Sent is set before the first attempt is sent: from then on the launch may have
	// started instances, and only the same token may be sent again.
	Sent      bool      `json:"sent,omitempty"`
	Instances []string  `json:"instances,omitempty"`
	Reason    string    `json:"reason,omitempty"` // why it failed or was cancelled
	DoneAt    time.Time `json:"done_at,omitzero"`
}

// Done reports whether nothing more happens to the launch.
func (l Launch) Done() bool { return l.State != Pending }

// Store is the records of one account of one backend, launches-at-start.json in its store.
type Store = store.Records[Launch]

// StoreAt is the store beside the local journal file at journalPath.
func StoreAt(journalPath string) Store {
	return store.RecordsOf[Launch](store.NewLocal(filepath.Dir(journalPath)), "launches-at-start")
}

// StoreIn is the records in st.
func StoreIn(st store.Store) Store { return store.RecordsOf[Launch](st, "launches-at-start") }
