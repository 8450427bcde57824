package simcore

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"syscall"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
)

// stateFile is the JSON kept in Options.StateFile: the clock and each protocol's state.
// The protocol named "ec2" keeps its regions at the top level, where every file written
// before the other protocols came holds them; the others are under services, by name.
type stateFile struct {
	Version int `json:"version"`
	// ID is the emulator's identity (Core.ID), made when the file was first written: every
	// emulator on this file is one backend, whatever URL reaches it.
	ID       string                     `json:"id,omitempty"`
	Clock    time.Time                  `json:"clock"`
	Regions  json.RawMessage            `json:"regions,omitempty"`
	Services map[string]json.RawMessage `json:"services,omitempty"`
}

const (
	stateVersion = 1
	topLevel     = "ec2" // the protocol whose state is the file's "regions"
)

// load reads the state file, hands each protocol its part and returns the emulator time
// it was saved at. Without a file every protocol starts afresh.
func (c *Core) load() (time.Time, error) {
	var sf stateFile
	b, err := readState(c.opts.StateFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		sf.Version, err = stateVersion, nil
	case err != nil:
		return time.Time{}, err
	default:
		err = json.Unmarshal(b, &sf)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("ec2sim: state file %s is not valid: %w", c.opts.StateFile, err)
	}
	if sf.Version != stateVersion {
		return time.Time{}, fmt.Errorf("ec2sim: state file %s has version %d; this emulator reads version %d", c.opts.StateFile, sf.Version, stateVersion)
	}
	// A part that cannot be read leaves every protocol as it was, not some of them loaded.
	var loaded []mounted
	var before []json.RawMessage
	for _, p := range c.protocols {
		part := sf.Services[p.Name]
		if p.Name == topLevel {
			part = sf.Regions
		}
		// The state in memory may be one that cannot be saved (this load is what undoes
		// it after a failed save): then a rollback can only give a fresh state.
		was, err := p.h.SaveState()
		if err != nil {
			was = nil
		}
		if err = p.h.LoadState(part); err != nil {
			for i, l := range loaded {
				_ = l.h.LoadState(before[i])
			}
			return time.Time{}, fmt.Errorf("ec2sim: state file %s is not valid: %w", c.opts.StateFile, err)
		}
		loaded, before = append(loaded, p), append(before, was)
	}
	if sf.ID != "" {
		if !validID(sf.ID) {
			return time.Time{}, fmt.Errorf("ec2sim: state file %s is not valid: its id %q is not 1 to 64 lower-case letters, digits and hyphens", c.opts.StateFile, sf.ID)
		}
		c.id = sf.ID
	}
	c.seen = statFile(c.opts.StateFile)
	return sf.Clock, nil
}

// MaxStateSize bounds a state file: one larger is refused when read (and a change that
// would make it larger is not saved), so that a damaged or hostile file cannot make the
// emulator run out of memory. 64 MiB holds far more than a demo makes: 10,000 purchases
// take about 10 MB.
const MaxStateSize = 64 << 20

// readState reads a state file that is a regular file of at most MaxStateSize bytes. It
// opens without blocking and checks what it opened, so that a fifo, a device (a link to
// /dev/zero) or a directory is refused with a clear message instead of hanging the
// emulator or filling its memory.
func readState(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("ec2sim: reading state: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("ec2sim: reading state: %w", err)
	}
	if err := checkStateInfo(name, fi); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxStateSize+1))
	if err != nil {
		return nil, fmt.Errorf("ec2sim: reading state: %w", err)
	}
	if len(b) > MaxStateSize {
		return nil, fmt.Errorf("ec2sim: state file %s grew past the %d bytes a state file may hold while it was read", name, MaxStateSize)
	}
	return b, nil
}

// CheckStatePath says why a path cannot be a state file: it is there and is not a regular
// file of at most MaxStateSize bytes. A path not yet made can be one.
func CheckStatePath(name string) error {
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkStateInfo(name, fi)
}

func checkStateInfo(name string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("state file %s is not a regular file (it is a %s); give the path of a file, or of one to create", name, fileKind(fi.Mode()))
	}
	if fi.Size() > MaxStateSize {
		return fmt.Errorf("state file %s has %d bytes, more than the %d a state file may hold; it is not an emulator's state", name, fi.Size(), MaxStateSize)
	}
	return nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// save writes every protocol's state atomically (temp file, fsync, rename). Call with c.mu held.
func (c *Core) save() error {
	if c.opts.StateFile == "" {
		return nil
	}
	sf := stateFile{Version: stateVersion, ID: c.id, Clock: c.clock.Now()}
	for _, p := range c.protocols {
		b, err := p.h.SaveState()
		if err != nil {
			return err
		}
		if p.Name == topLevel {
			sf.Regions = b
			continue
		}
		if b == nil {
			continue // a handler that keeps no state
		}
		if sf.Services == nil {
			sf.Services = map[string]json.RawMessage{}
		}
		sf.Services[p.Name] = b
	}
	b, err := json.Marshal(sf)
	if err != nil {
		return err
	}
	if len(b) > MaxStateSize {
		return fmt.Errorf("ec2sim: the state would take %d bytes, more than the %d a state file may hold", len(b), MaxStateSize)
	}
	if err := filelock.WriteAtomic(c.opts.StateFile, b); err != nil {
		return err
	}
	c.seen = statFile(c.opts.StateFile)
	return nil
}

// refresh reloads the state when another process (a second `gpublock --demo`, or a
// second emulator on the same --state) has written the state file since this one last
// read or wrote it, so that a block bought by one is seen by the other. Every save is a
// rename of a new file, so a write shows as a different file. Call with c.mu and the
// state lock held, so that no other process writes between this read and the next save.
func (c *Core) refresh() {
	if c.opts.StateFile == "" {
		return
	}
	now := statFile(c.opts.StateFile)
	if sameFile(now, c.seen) {
		return
	}
	if _, err := c.load(); err != nil {
		c.seen = now // report a damaged file once, not on every call
		logf("ec2sim: reloading state: %v; keeping the state in memory", err)
	}
}

// lock takes the state file's lock, which every emulator on the file takes around
// reload, change and save, so that two processes neither lose each other's purchases
// nor hand out one id twice; then it reloads what another process saved. Call with c.mu
// held, and call the returned unlock when the request is answered.
func (c *Core) lockFile() (unlock func(), e *APIError) {
	if c.opts.StateFile == "" {
		return func() {}, nil
	}
	if c.lock == nil {
		f, err := os.OpenFile(c.opts.StateFile+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			logf("ec2sim: opening the state lock: %v", err)
			return nil, ErrInternal
		}
		c.lock = f
	}
	if err := filelock.Lock(c.lock); err != nil {
		logf("ec2sim: locking the state: %v", err)
		return nil, ErrInternal
	}
	c.refresh()
	return func() {
		if err := filelock.Unlock(c.lock); err != nil {
			logf("ec2sim: unlocking the state: %v", err)
		}
	}, nil
}

// Commit saves the state after a mutation. When the state cannot be saved, the change is
// undone (the state is read back from the file) and the answer is ErrInternal: a client
// is never told of a purchase that a restart would lose. Call inside Lock or Update.
func (c *Core) Commit() *APIError {
	err := c.save()
	if err == nil {
		return nil
	}
	logf("ec2sim: saving state: %v; the change is undone and answered InternalError", err)
	if _, lerr := c.load(); lerr != nil {
		logf("ec2sim: reading the state back: %v; the unsaved change stays in memory", lerr)
	}
	return ErrInternal
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

func (c *Core) saveQuietly() {
	if c.opts.StateFile == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, e := c.lockFile()
	if e != nil {
		return
	}
	defer unlock()
	if err := c.save(); err != nil {
		logf("ec2sim: saving state: %v", err)
	}
}

// logf reports what cannot be answered to a client; a variable so tests can silence it.
var logf = log.Printf

// SetLogf replaces what the core reports with (tests silence it); it returns the old one.
func SetLogf(f func(string, ...any)) (old func(string, ...any)) {
	old, logf = logf, f
	return old
}

// newID is a new emulator's identity: random, so that two emulators with two states are
// never taken for one, even on one port one after the other.
func newID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b)
}

// validID reports whether id can be an emulator's identity: a client makes it part of the
// path of its records.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// ensureID gives the emulator its identity: the state file's, else a new one, saved at
// once so that a restart on the same file is the same backend. Under the state lock, so
// that two emulators starting on one new file take one identity.
func (c *Core) ensureID() error {
	if c.opts.StateFile == "" {
		c.id = newID()
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	unlock, e := c.lockFile()
	if e != nil {
		return fmt.Errorf("ec2sim: locking state file %s to give the emulator its identity", c.opts.StateFile)
	}
	defer unlock()
	if c.id != "" {
		return nil
	}
	c.id = newID()
	if err := c.save(); err != nil {
		c.id = ""
		return fmt.Errorf("ec2sim: saving the emulator's identity in %s: %w", c.opts.StateFile, err)
	}
	return nil
}
