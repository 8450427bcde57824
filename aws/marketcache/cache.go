// Package marketcache keeps the offerings of past searches, per query cell, so that a
// search can show at once what it was told last time while it asks again
// (stale-while-revalidate). Cached rows are for display only: nothing is bought from them.
package marketcache

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/model"
)

// MaxAge is how long a cell's answer is kept; an older one is neither shown nor kept.
// The market moves within hours, so a day-old answer is more misleading than useful.
const MaxAge = 24 * time.Hour

// Cell is one call of a search: what was asked of whom.
type Cell struct {
	Source   string // model.Source name
	Backend  string // "aws", "demo", "emulator <endpoint>": demo answers never show as AWS's
	Region   string
	Type     string
	Count    int
	Days     int
	Start    time.Time
	End      time.Time
	AllZones bool `json:",omitempty"`
}

func (c Cell) key() string {
	return fmt.Sprintf("%s|%s|%s|%s|%d|%d|%d|%d|%t", c.Source, c.Backend, c.Region, c.Type, c.Count, c.Days,
		c.Start.Unix(), c.End.Unix(), c.AllZones)
}

// Entry is a cell's last answer and when it was asked.
type Entry struct {
	Cell      Cell
	Asked     time.Time
	Offerings []model.Offering
}

type file struct {
	Version int
	Entries []stored
}

// stored is an Entry as written: a fee as its exact decimal string (Money writes itself as
// one but does not read itself back).
type stored struct {
	Cell  Cell
	Asked time.Time
	Rows  []row
}

type row struct {
	model.Offering
	Fee string // shadows Offering.Fee in JSON
}

func toStored(e Entry) stored {
	s := stored{Cell: e.Cell, Asked: e.Asked}
	for _, o := range e.Offerings {
		s.Rows = append(s.Rows, row{Offering: o, Fee: o.Fee.String()})
	}
	return s
}

func fromStored(s stored) (Entry, error) {
	e := Entry{Cell: s.Cell, Asked: s.Asked}
	for _, r := range s.Rows {
		fee, err := model.ParseMoney(r.Fee)
		if err != nil {
			return Entry{}, fmt.Errorf("fee %q: %w", r.Fee, err)
		}
		o := r.Offering
		o.Fee = fee
		e.Offerings = append(e.Offerings, o)
	}
	return e, nil
}

const version = 1

// Cache is a cache file. Several Caches, in one process or several, may share a file.
type Cache struct {
	path string
	mu   sync.Mutex // serialises this process's writers; the flock serialises processes
}

// Open returns the cache at path; nothing is read until used.
func Open(path string) *Cache { return &Cache{path: path} }

// DefaultDir is $XDG_CACHE_HOME/gpublock, or ~/.cache/gpublock when XDG_CACHE_HOME is
// unset or not absolute (as the XDG spec says to treat it).
func DefaultDir() (string, error) {
	dir := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory: XDG_CACHE_HOME is unset and %v", err)
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "gpublock"), nil
}

// In is the cache of backend ("aws", "demo", "emulator") in dir: each backend has its own
// file, so a demo's answers never show as AWS's.
func In(dir, backend string) *Cache {
	return Open(filepath.Join(dir, "market-"+backend+".json"))
}

// Path is the cache's file.
func (c *Cache) Path() string { return c.path }

// Get returns the entries held for cells, in their order, leaving out cells with none or
// older than MaxAge at now. A missing or damaged file holds nothing.
func (c *Cache) Get(now time.Time, cells ...Cell) []Entry {
	if c == nil {
		return nil
	}
	byKey := c.read()
	var out []Entry
	for _, cell := range cells {
		if e, ok := byKey[cell.key()]; ok && now.Sub(e.Asked) < MaxAge {
			out = append(out, e)
		}
	}
	return out
}

// Put replaces cell's answer whole with offs, asked at asked: a row no longer offered
// goes with the old answer. Entries past MaxAge are dropped on the way.
func (c *Cache) Put(cell Cell, asked time.Time, offs []model.Offering) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	lf, err := os.OpenFile(c.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return err
	}
	defer filelock.Unlock(lf)

	byKey := c.read()
	byKey[cell.key()] = Entry{Cell: cell, Asked: asked, Offerings: offs}
	f := file{Version: version}
	for _, e := range byKey {
		if asked.Sub(e.Asked) < MaxAge {
			f.Entries = append(f.Entries, toStored(e))
		}
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), filepath.Base(c.path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), c.path)
}

// read loads the file; a missing one is empty, and a damaged one is ignored (the next Put
// rewrites it), with only a debug log: the cache is never worth an error to the user.
func (c *Cache) read() map[string]Entry {
	out := map[string]Entry{}
	b, err := os.ReadFile(c.path)
	if err != nil {
		return out
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil || f.Version != version {
		slog.Debug("market cache ignored", "path", c.path, "err", err, "version", f.Version)
		return out
	}
	for _, s := range f.Entries {
		e, err := fromStored(s)
		if err != nil {
			slog.Debug("market cache ignored", "path", c.path, "err", err)
			return map[string]Entry{}
		}
		out[e.Cell.key()] = e
	}
	return out
}
