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
//
// Watcher is the flow of a watcher that decides by itself, once per refresh: it closes
// the decisions a stopped gpublock left taken, asks the approval command, and records
// each decision before it buys through the spend path.
package autoextend

import (
	"path/filepath"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/store"
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
	// NewEnd is the block's end with the extension, when it was looked up.
	NewEnd time.Time `json:"new_end,omitzero"`
	// Cloud is what it was decided against (awsapi.Client.Cloud): the simulated
	// state directory is shared by --demo and gpublock sim, whose ids can be the same.
	Cloud string `json:"backend,omitempty"`
	// InTurn marks a decision taken in a watcher's turn, which buys before it lets the
	// lock go: whoever holds the lock next and finds it still taken knows that the watcher
	// died, and settles it at once. A TUI buys after its turn, so its decisions get a while.
	InTurn    bool      `json:"in_turn,omitempty"`
	DecidedAt time.Time `json:"decided_at"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// Store is the records of one account of one backend, auto-extend.json in its store.
type Store = store.Records[Record]

// StoreAt is the store beside the local journal file at journalPath.
func StoreAt(journalPath string) Store {
	return store.RecordsOf[Record](store.NewLocal(filepath.Dir(journalPath)), "auto-extend")
}

// StoreIn is the records in st.
func StoreIn(st store.Store) Store { return store.RecordsOf[Record](st, "auto-extend") }
