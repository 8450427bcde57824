// Package marketcache keeps the offerings of past searches, per query cell, so that a
// search can show at once what it was told last time while it asks again
// (stale-while-revalidate). Cached rows are for display only: nothing is bought from them.
//
// The file is a log of JSON lines, one answer a line, the last line of a cell the one that
// counts: a write appends one line under the lock, so it costs the same whatever the cache
// holds; once the log has grown to twice what it holds alive (and at least compactBytes),
// the write that grew it rewrites it with the live answers only.
package marketcache

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/model"
)

// MaxAge is how long a cell's answer is kept; an older one is neither shown nor kept.
// The market moves within hours, so a day-old answer is more misleading than useful.
const MaxAge = 24 * time.Hour

// Bounds of the file: what is read of it at most (a larger file is ignored, and rewritten
// by the next write), how many cells it keeps (the least recently asked go first), and
// the log's size under which it is never compacted.
const (
	MaxBytes     = 32 << 20
	MaxCells     = 20000
	compactBytes = 4 << 20
)

// maxSkew is how far in the future an answer may be dated (another machine's clock): one
// dated later goes, or it would never age out.
const maxSkew = time.Hour

// Cell is one call of a search for one type: what was asked of whom. The window is what
// the user asked, not part of the cell's key: a cell holds the last answer of its region,
// type, count and duration, and a search of another window (a restarted TUI's "now" has
// moved) is shown the offerings of that answer that lie in its own window.
type Cell struct {
	Source   string // model.Source name
	Cloud    string `json:"Backend"` // "aws", "demo", "emulator <endpoint>" (Backend on disk): demo answers never show as AWS's
	Region   string
	Type     string
	Count    int
	Days     int
	Start    time.Time
	End      time.Time
	AllZones bool `json:",omitempty"`
	// Targets are a training plan search's target resources, comma-separated: another
	// answer than that of other targets.
	Targets string `json:",omitempty"`
}

func (c Cell) key() string {
	k := fmt.Sprintf("%s|%s|%s|%s|%d|%d|%t", c.Source, c.Cloud, c.Region, c.Type, c.Count, c.Days, c.AllZones)
	if c.Targets != "" {
		k += "|" + c.Targets
	}
	return k
}

// Entry is a cell's last answer and when it was asked.
type Entry struct {
	Cell      Cell
	Asked     time.Time
	Offerings []model.Offering
}

// stored is an Entry as written, one line: a fee as its exact decimal string (Money writes
// itself as one but does not read itself back).
type stored struct {
	V     int
	Cell  Cell
	Asked time.Time
	Rows  []row
}

type row struct {
	model.Offering
	Fee string // shadows Offering.Fee in JSON
}

const version = 2

func toStored(e Entry) stored {
	s := stored{V: version, Cell: e.Cell, Asked: e.Asked}
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

// Cache is a cache file. Several Caches, in one process or several, may share a file.
type Cache struct {
	path string
	mu   sync.Mutex   // serialises this process's writers; the flock serialises processes
	live atomic.Int64 // bytes alive at the last compaction or read, for when to compact
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

// In is the cache of cloud ("aws", "demo", "emulator") in dir: each cloud has its own
// file, so a demo's answers never show as AWS's.
func In(dir, cloud string) *Cache {
	return Open(filepath.Join(dir, "market-"+cloud+".jsonl"))
}

// Path is the cache's file.
func (c *Cache) Path() string { return c.path }

// ErrNotRegular is Check's answer for a cache path that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// Check reports whether the cache can be used: its file, and its lock, are absent or
// regular files (not a link, a device or a pipe, which could hang or fill memory).
func (c *Cache) Check() error {
	for _, p := range []string{c.path, c.path + ".lock"} {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("market cache %s: %w", p, err)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("market cache %s: %w (%s); searching without the cache", p, ErrNotRegular, fi.Mode().Type())
		}
	}
	return nil
}

// Get returns the entries held for cells, in their order, leaving out cells with none or
// older than MaxAge at now, each with the offerings of its answer that lie in the cell's
// window. A missing or damaged file holds nothing.
func (c *Cache) Get(now time.Time, cells ...Cell) []Entry {
	if c == nil {
		return nil
	}
	byKey, _ := c.read(now)
	var out []Entry
	for _, cell := range cells {
		e, ok := byKey[cell.key()]
		if !ok {
			continue
		}
		in := Entry{Cell: cell, Asked: e.Asked}
		for _, o := range e.Offerings {
			if !o.Start.Before(cell.Start) && !o.End.After(cell.End) {
				in.Offerings = append(in.Offerings, o)
			}
		}
		out = append(out, in)
	}
	return out
}

// Listed finds the latest answer (at most MaxAge old at now) of source's searches on
// cloud in region that listed the offering id, with the cell as it was asked: the
// window of the search that listed it. A purchase uses it to ask that window again when
// the same flags, read at a later "now", no longer list the offering; what it buys is
// taken from that fresh answer, never from the cache.
func (c *Cache) Listed(now time.Time, source, cloud, region, id string) (Entry, model.Offering, bool) {
	if c == nil || id == "" {
		return Entry{}, model.Offering{}, false
	}
	byKey, _ := c.read(now)
	var (
		best  Entry
		found model.Offering
		ok    bool
	)
	for _, e := range byKey {
		if e.Cell.Source != source || e.Cell.Cloud != cloud || e.Cell.Region != region || (ok && !e.Asked.After(best.Asked)) {
			continue
		}
		for _, o := range e.Offerings {
			if o.ID == id {
				best, found, ok = e, o, true
				break
			}
		}
	}
	return best, found, ok
}

// Put replaces cell's answer whole with offs, asked at asked: a row no longer offered
// goes with the old answer.
func (c *Cache) Put(cell Cell, asked time.Time, offs []model.Offering) error {
	if c == nil {
		return nil
	}
	line, err := json.Marshal(toStored(Entry{Cell: cell, Asked: asked, Offerings: offs}))
	if err != nil {
		return err
	}
	line = append(line, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.Check(); err != nil {
		return err
	}
	return filelock.Locked(c.path+".lock", func() error { return c.appendLocked(line, asked) })
}

// appendLocked appends line to the log, and compacts it when it has grown. The caller
// holds the lock.
func (c *Cache) appendLocked(line []byte, asked time.Time) error {
	f, err := os.OpenFile(c.path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	// A line cut by a crash (or a damaged file) must not swallow the next one.
	if last := make([]byte, 1); fi.Size() > 0 {
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, werr := f.Write(line)
	if err := errors.Join(werr, f.Close()); err != nil {
		return err
	}
	if size := fi.Size() + int64(len(line)); size > compactBytes && size > 2*c.live.Load() || size > MaxBytes {
		return c.compact(asked)
	}
	return nil
}

// compact rewrites the log with the live answers only, at most MaxCells of them (the
// most recently asked). The caller holds the lock.
func (c *Cache) compact(now time.Time) error {
	byKey, _ := c.read(now)
	entries := make([]Entry, 0, len(byKey))
	for _, e := range byKey {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b Entry) int { return b.Asked.Compare(a.Asked) })
	if len(entries) > MaxCells {
		entries = entries[:MaxCells]
	}
	var buf bytes.Buffer
	for _, e := range slices.Backward(entries) {
		b, err := json.Marshal(toStored(e))
		if err != nil {
			return err
		}
		if buf.Len()+len(b) >= MaxBytes/2 {
			break // the least recently asked go
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	c.live.Store(int64(buf.Len()))
	return filelock.WriteAtomic(c.path, buf.Bytes())
}

// read loads the log's live answers at now: the last line of each cell, unless older than
// MaxAge or dated more than maxSkew ahead. A missing file is empty; one that is not a
// regular file, or larger than MaxBytes, is ignored, as is a line that does not read
// (a write cut by a crash), with only a debug log: the cache is never worth an error to
// the user. It also reports the live lines' size.
func (c *Cache) read(now time.Time) (map[string]Entry, int64) {
	out := map[string]Entry{}
	if err := c.Check(); err != nil {
		slog.Debug("market cache ignored", "err", err)
		return out, 0
	}
	f, err := os.Open(c.path)
	if err != nil {
		return out, 0
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxBytes {
		slog.Debug("market cache ignored: not a regular file, or too large", "path", c.path)
		return out, 0
	}
	sizes := map[string]int64{}
	sc := bufio.NewScanner(io.LimitReader(f, MaxBytes))
	sc.Buffer(nil, MaxBytes)
	for sc.Scan() {
		var s stored
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.V != version {
			continue
		}
		e, err := fromStored(s)
		if err != nil {
			continue
		}
		k := e.Cell.key()
		if now.Sub(e.Asked) >= MaxAge || e.Asked.Sub(now) > maxSkew {
			delete(out, k)
			delete(sizes, k)
			continue
		}
		out[k] = e
		sizes[k] = int64(len(sc.Bytes()) + 1)
	}
	var live int64
	for _, n := range sizes {
		live += n
	}
	if live > c.live.Load() {
		c.live.Store(live)
	}
	return out, live
}
