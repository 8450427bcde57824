package marketcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

// A restarted search asks the same relative window from a later "now": the cell is the
// same, and the offerings of the last answer that lie in the new window show at once.
func TestMovedWindowShowsTheLastAnswer(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.jsonl"))
	early := off("cbo-early", "5") // starts before the new window does
	early.Start, early.End = t0.Add(10*time.Minute), t0.Add(24*time.Hour)
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{early, off("cbo-1", "10")}))
	later := cell("us-east-1")
	later.Start, later.End = t0.Add(20*time.Minute), t0.Add(20*time.Minute+14*24*time.Hour)
	got := Open(c.Path()).Get(t0.Add(20*time.Minute), later)
	eq(t, ids(got), "us-east-1/cbo-1/10.00")
	if !got[0].Cell.Start.Equal(later.Start) || !got[0].Asked.Equal(t0) {
		t.Fatalf("entry %+v, want the cell asked and the answer's age", got[0])
	}
}

// A write appends: the file grows by one line, whatever it holds, and a log grown past
// twice what it holds is compacted, so it stays bounded however often a cell is written.
func TestWritesAppendAndTheLogStaysBounded(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.jsonl"))
	var many []model.Offering
	for i := range 40 {
		many = append(many, off(fmt.Sprintf("cbo-%d", i), "10"))
	}
	must(t, c.Put(cell("us-east-1"), t0, many))
	fi, _ := os.Stat(c.Path())
	one := fi.Size()
	must(t, c.Put(cell("us-west-2"), t0, many))
	fi, _ = os.Stat(c.Path())
	if fi.Size() != 2*one {
		t.Fatalf("a second cell's write made the file %d bytes, want %d (one line more)", fi.Size(), 2*one)
	}
	writes := int(3*compactBytes/one) + 1
	var largest int64
	for i := range writes {
		must(t, c.Put(cell("us-east-1"), t0.Add(time.Duration(i)*time.Second), many))
		fi, _ := os.Stat(c.Path())
		largest = max(largest, fi.Size())
	}
	if largest > compactBytes+one {
		t.Fatalf("%d writes of one cell grew the file to %d bytes, past %d", writes, largest, compactBytes+one)
	}
	last := t0.Add(time.Duration(writes-1) * time.Second)
	if got := c.Get(last, cell("us-east-1"), cell("us-west-2")); len(got) != 2 || !got[0].Asked.Equal(last) || len(got[0].Offerings) != 40 {
		t.Fatalf("after compaction: %d entries", len(got))
	}
}

// An answer dated far ahead (another clock, a damaged file) is neither shown nor kept.
func TestFarFutureAnswerGoes(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.jsonl"))
	must(t, c.Put(cell("us-east-1"), time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), []model.Offering{off("cbo-2099", "10")}))
	must(t, c.Put(cell("us-west-2"), t0, []model.Offering{off("cbo-1", "10")}))
	eq(t, ids(c.Get(t0, cell("us-east-1"), cell("us-west-2"))), "us-west-2/cbo-1/10.00")
	must(t, c.compact(t0))
	b, _ := os.ReadFile(c.Path())
	if strings.Contains(string(b), "cbo-2099") || !strings.Contains(string(b), "cbo-1") {
		t.Fatalf("after compaction the file holds:\n%s", b)
	}
}

// A cache path that is a link to /dev/zero (or any non-regular file) is refused with a
// clear error, read as empty at once, and never written through.
func TestNonRegularFileRefused(t *testing.T) {
	for _, target := range []string{"/dev/zero", "regular"} {
		t.Run(target, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "m.jsonl")
			if target == "regular" {
				target = filepath.Join(dir, "elsewhere")
				must(t, os.WriteFile(target, nil, 0o600))
			}
			must(t, os.Symlink(target, path))
			c := Open(path)
			err := c.Check()
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "searching without the cache") {
				t.Fatalf("Check: %v", err)
			}
			if got := c.Get(t0, cell("us-east-1")); len(got) != 0 {
				t.Fatalf("got %v", got)
			}
			if err := c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}); !errors.Is(err, ErrNotRegular) {
				t.Fatalf("Put: %v", err)
			}
		})
	}
}
