package ec2sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"time"
)

// stateFile is the JSON kept in Options.StateFile.
type stateFile struct {
	Version int                     `json:"version"`
	Clock   time.Time               `json:"clock"`
	Regions map[string]*regionState `json:"regions"`
	// Services holds the state of the other protocols (Options.Protocols), by name.
	Services map[string]json.RawMessage `json:"services,omitempty"`
}

const stateVersion = 1

// load reads the state file, if any, and returns the emulator time it was saved at.
func (s *Server) load() (time.Time, error) {
	b, err := os.ReadFile(s.opts.StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("ec2sim: reading state: %w", err)
	}
	var sf stateFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return time.Time{}, fmt.Errorf("ec2sim: state file %s is not valid: %w", s.opts.StateFile, err)
	}
	if sf.Version != stateVersion {
		return time.Time{}, fmt.Errorf("ec2sim: state file %s has version %d; this emulator reads version %d", s.opts.StateFile, sf.Version, stateVersion)
	}
	if err := s.loadProtocols(sf.Services); err != nil {
		return time.Time{}, fmt.Errorf("ec2sim: state file %s is not valid: %w", s.opts.StateFile, err)
	}
	s.seen = statFile(s.opts.StateFile)
	for name, rs := range sf.Regions {
		if _, ok := regions[name]; !ok || rs == nil {
			continue
		}
		rs.fill()
		s.regions[name] = rs
	}
	return sf.Clock, nil
}

// save writes every region's state atomically (temp file, fsync, rename). Call with s.mu held.
func (s *Server) save() error {
	if s.opts.StateFile == "" {
		return nil
	}
	services, err := s.saveProtocols()
	if err != nil {
		return err
	}
	b, err := json.Marshal(stateFile{Version: stateVersion, Clock: s.clock.Now(), Regions: s.regions, Services: services})
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.opts.StateFile)
	tmp, err := os.CreateTemp(dir, ".ec2sim-state-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.opts.StateFile); err != nil {
		return err
	}
	s.seen = statFile(s.opts.StateFile)
	return nil
}

// refresh reloads the regions when another process (a second `gpublock --demo`, or a
// second emulator on the same --state) has written the state file since this one last
// read or wrote it, so that a block bought by one is seen by the other. Every save is a
// rename of a new file, so a write shows as a different file. Offerings this process has
// quoted and the file does not hold are kept: a quote is not saved until something is
// bought, and a client that searched here may buy here next. Call with s.mu and the
// state lock held, so that no other process writes between this read and the next save.
func (s *Server) refresh() {
	if s.opts.StateFile == "" {
		return
	}
	now := statFile(s.opts.StateFile)
	if sameFile(now, s.seen) {
		return
	}
	fresh := map[string]*regionState{}
	old := s.regions
	s.regions = fresh
	if _, err := s.load(); err != nil {
		s.regions = old
		s.seen = now // report a damaged file once, not on every call
		logf("ec2sim: reloading state: %v; keeping the state in memory", err)
		return
	}
	for name, was := range old {
		rs := s.region(name)
		for id, o := range was.Offerings {
			if _, ok := rs.Offerings[id]; !ok && !o.Gone {
				rs.Offerings[id] = o
			}
		}
		for id, o := range was.ExtOfferings {
			if _, ok := rs.ExtOfferings[id]; !ok && !o.Gone {
				rs.ExtOfferings[id] = o
			}
		}
	}
}

// lockState takes the state file's lock, which every emulator on the file takes around
// reload, change and save, so that two processes neither lose each other's purchases
// nor hand out one id twice; then it reloads what another process saved. Call with s.mu
// held, and call the returned unlock when the request is answered.
func (s *Server) lockState() (unlock func(), e *apiError) {
	if s.opts.StateFile == "" {
		return func() {}, nil
	}
	if s.lock == nil {
		f, err := os.OpenFile(s.opts.StateFile+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			logf("ec2sim: opening the state lock: %v", err)
			return nil, errInternal
		}
		s.lock = f
	}
	if err := lockFile(s.lock); err != nil {
		logf("ec2sim: locking the state: %v", err)
		return nil, errInternal
	}
	s.refresh()
	return func() {
		if err := unlockFile(s.lock); err != nil {
			logf("ec2sim: unlocking the state: %v", err)
		}
	}, nil
}

// commit saves the state after a mutation. When the state cannot be saved, the change is
// undone (the state is read back from the file) and the request is answered
// InternalError: a client is never told of a purchase that a restart would lose. Call
// with s.mu and the state lock held.
func (s *Server) commit() *apiError {
	err := s.save()
	if err == nil {
		return nil
	}
	logf("ec2sim: saving state: %v; the change is undone and answered InternalError", err)
	old := s.regions
	s.regions = map[string]*regionState{}
	if _, lerr := s.load(); lerr != nil {
		s.regions = old
		logf("ec2sim: reading the state back: %v; the unsaved change stays in memory", lerr)
	}
	return errInternal
}

func statFile(name string) fs.FileInfo {
	fi, err := os.Stat(name)
	if err != nil {
		return nil
	}
	return fi
}

func sameFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

func (s *Server) saveQuietly() {
	if s.opts.StateFile == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, e := s.lockState()
	if e != nil {
		return
	}
	defer unlock()
	if err := s.save(); err != nil {
		logf("ec2sim: saving state: %v", err)
	}
}

// logf reports what cannot be answered to a client; a variable so tests can silence it.
var logf = log.Printf
