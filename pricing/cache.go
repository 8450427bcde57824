package pricing

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The cache holds figures fetched from the AWS Price List API by `gpublock prices --refresh`.
// Its rows are laid over the embedded catalog, where they win (see Catalog.OnDemand).

// CacheFileName is the cache's name inside the cache directory.
const CacheFileName = "prices.json"

// CachePathFor is the cache of the Price List at endpoint: DefaultCachePath for AWS's
// own (endpoint ""), and a file of its own for any other (an emulator, a proxy), named by
// it, so that an emulator's prices never stand for AWS's.
func CachePathFor(endpoint string) (string, error) {
	path, err := DefaultCachePath()
	if err != nil || endpoint == "" {
		return path, err
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, strings.TrimPrefix(strings.TrimPrefix(endpoint, "https://"), "http://"))
	return filepath.Join(filepath.Dir(path), "prices-endpoint-"+name+".json"), nil
}

// DefaultCachePath is $XDG_CACHE_HOME/gpublock/prices.json, or ~/.cache/gpublock/prices.json
// when XDG_CACHE_HOME is unset or not absolute (as the XDG spec says to treat it).
func DefaultCachePath() (string, error) {
	dir := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory: XDG_CACHE_HOME is unset and %v", err)
		}
		dir = filepath.Join(home, ".cache")
	}
	return filepath.Join(dir, "gpublock", CacheFileName), nil
}

type cacheFile struct {
	Updated time.Time
	Rows    []Row
}

// ReadCache returns the cached rows; a missing file is no rows and no error.
func ReadCache(path string) ([]Row, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f cacheFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("price cache %s: %v (delete it and refresh again)", path, err)
	}
	for i, r := range f.Rows {
		if r.Kind == "" || r.InstanceType == "" || r.Region == "" || r.Source == "" || r.Time().IsZero() ||
			(r.HasPrice() && r.Hourly.Micros() <= 0) {
			return nil, fmt.Errorf("price cache %s: row %d is incomplete (delete it and refresh again)", path, i+1)
		}
	}
	return f.Rows, nil
}

// WriteCache merges rows into the cache at path: a new row replaces the cached one of the
// same kind, type and region; others are kept. replace writes the file whole: the caller's
// atomic write (filelock.WriteAtomic), so that pricing does no file locking of its own.
func WriteCache(path string, rows []Row, now time.Time, replace func(path string, data []byte) error) error {
	old, err := ReadCache(path)
	if err != nil {
		old = nil // a broken cache is rebuilt rather than blocking a refresh
	}
	type key struct {
		k    Kind
		t, r string
	}
	fresh := map[key]bool{}
	for _, r := range rows {
		fresh[key{r.Kind, r.InstanceType, r.Region}] = true
	}
	var merged []Row
	for _, r := range old {
		if !fresh[key{r.Kind, r.InstanceType, r.Region}] {
			merged = append(merged, r)
		}
	}
	merged = append(merged, rows...)
	b, err := json.MarshalIndent(cacheFile{Updated: now.UTC(), Rows: merged}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return replace(path, append(b, '\n'))
}

// Load returns the embedded catalog with the cache at path laid over it. An empty path or a
// missing file gives the embedded catalog.
func Load(path string) (*Catalog, error) {
	if path == "" {
		return Embedded(), nil
	}
	rows, err := ReadCache(path)
	if err != nil {
		return Embedded(), err
	}
	return Embedded().With(rows...), nil
}
