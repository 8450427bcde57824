package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"time"

	"github.com/gpublock/gpublock/aws/store"
)

// keepSent is how long a delivery is remembered: a block's warnings are over by then.
const keepSent = 200 * 24 * time.Hour

// stateVersion marks the record kept per target; the first record (a map of key to time,
// without targets) is read as sent to every target.
const stateVersion = 2

// state is the record of what was sent, shared by every gpublock on one state directory.
// Its ids are a target's id, a space, and a warning's key.
type state struct {
	Version int `json:"version"`
	// Delivered is when each target received each warning.
	Delivered map[string]time.Time `json:"delivered"`
	// Claimed is until when a process sending a warning to a target holds it: the others
	// leave it alone until then, and take it over after (the claimant died).
	Claimed map[string]time.Time `json:"claimed,omitempty"`
}

func newState() *state {
	return &state{Version: stateVersion, Delivered: map[string]time.Time{}, Claimed: map[string]time.Time{}}
}

func (s *state) clone() *state {
	return &state{Version: stateVersion, Delivered: maps.Clone(s.Delivered), Claimed: maps.Clone(s.Claimed)}
}

// allTargets is the target of the first record's keys.
const allTargets = "*"

func (s *state) delivered(target, key string) bool {
	_, a := s.Delivered[target+" "+key]
	_, b := s.Delivered[allTargets+" "+key]
	return a || b
}

func (s *state) deliveredAll(targets []target, key string) bool {
	for _, t := range targets {
		if !s.delivered(t.id, key) {
			return false
		}
	}
	return true
}

// claim takes the warning for the target unless it was delivered or another holds it.
func (s *state) claim(target, key string, now, until time.Time) bool {
	if s.delivered(target, key) {
		return false
	}
	id := target + " " + key
	if exp, ok := s.Claimed[id]; ok && now.Before(exp) {
		return false
	}
	s.Claimed[id] = until
	return true
}

// settle gives back a claim, recording the delivery when it succeeded; a failed one stays
// unrecorded, for the next run.
func (s *state) settle(target, key string, ok bool, now time.Time) {
	id := target + " " + key
	delete(s.Claimed, id)
	if ok {
		s.Delivered[id] = now.UTC()
	}
}

func (s *state) prune(now time.Time) {
	for id, at := range s.Delivered {
		if now.Sub(at) > keepSent {
			delete(s.Delivered, id)
		}
	}
	for id, until := range s.Claimed {
		if !now.Before(until) {
			delete(s.Claimed, id)
		}
	}
}

// readState reads the record; a missing one is empty. A damaged one is an error
// (store.DamagedError), said and never overwritten: what it held is for a person to fix
// or remove, and until then each run sends its warnings once.
func readState(b []byte, where string) (*state, error) {
	if b == nil {
		return newState(), nil
	}
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, &store.DamagedError{Where: where, Err: err}
	}
	if probe.Version < stateVersion {
		// The first record: a map of key to time, without a version.
		s := newState()
		var old map[string]time.Time
		if err := json.Unmarshal(b, &old); err != nil {
			return nil, &store.DamagedError{Where: where, Err: err}
		}
		for k, at := range old {
			s.Delivered[allTargets+" "+k] = at
		}
		return s, nil
	}
	s := newState()
	if err := json.Unmarshal(b, s); err != nil {
		return nil, &store.DamagedError{Where: where, Err: err}
	}
	if s.Delivered == nil {
		s.Delivered = map[string]time.Time{}
	}
	if s.Claimed == nil {
		s.Claimed = map[string]time.Time{}
	}
	s.Version = stateVersion
	return s, nil
}

// transact reads the record under its lock, lets f change it, and writes it back, so that
// runs at once merge their changes instead of overwriting each other's. When the record
// cannot be kept, f changes this process's copy, which still sends each warning once, and
// the failure is reported once, loudly: the next run will send the warnings again.
func (n *Notifier) transact(f func(*state)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.cfg.State == nil && n.cfg.StatePath == "" {
		f(n.state)
		return
	}
	s, err := n.lockedUpdate(f)
	if err == nil {
		n.state, n.stateErr, n.saidErr = s, nil, false
		return
	}
	f(n.state)
	n.stateErr = err
	if !n.saidErr {
		n.saidErr = true
		var damaged *store.DamagedError
		if errors.As(err, &damaged) {
			n.cfg.Report(fmt.Sprintf("the record of warnings sent, %s, is damaged (%v): each warning is sent once by this run, but the next run sends it again until the record is fixed or removed", damaged.Where, damaged.Err))
		} else {
			n.cfg.Report(fmt.Sprintf("the record of warnings sent cannot be kept (%v): each warning is sent once by this run, but the next run sends it again; fix or remove %s", err, n.where()))
		}
	}
}

// stateName is the record of warnings sent, in a store.
const stateName = "notified.json"

// stateStore is where the record is kept, and its name there.
func (n *Notifier) stateStore() (store.Store, string) {
	if n.cfg.State != nil {
		return n.cfg.State, stateName
	}
	return store.NewLocal(filepath.Dir(n.cfg.StatePath)), filepath.Base(n.cfg.StatePath)
}

func (n *Notifier) where() string {
	st, name := n.stateStore()
	return st.Where() + "/" + name
}

func (n *Notifier) lockedUpdate(f func(*state)) (*state, error) {
	st, name := n.stateStore()
	var out *state
	err := st.Locked(context.Background(), name, func(cur []byte, write func([]byte) error) error {
		s, err := readState(cur, st.Where()+"/"+name)
		if err != nil {
			return err
		}
		// What this process claimed and sent while the record could not be kept is kept
		// with it.
		if n.stateErr != nil {
			for id, at := range n.state.Delivered {
				if _, ok := s.Delivered[id]; !ok {
					s.Delivered[id] = at
				}
			}
			for id, until := range n.state.Claimed {
				if _, ok := s.Claimed[id]; !ok {
					s.Claimed[id] = until
				}
			}
		}
		f(s)
		s.prune(time.Now())
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if err := write(b); err != nil {
			return err
		}
		out = s.clone()
		return nil
	})
	return out, err
}
