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
// rename of a new file, so a write shows as a different file. Two processes changing it
// at the same instant: the last writer wins. Call with s.mu held.
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
	}
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
	if err := s.save(); err != nil {
		logf("ec2sim: saving state: %v", err)
	}
}

// logf reports what cannot be answered to a client; a variable so tests can silence it.
var logf = log.Printf
