package marketcache

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func cell(region string) Cell {
	return Cell{Source: "capacity-blocks", Cloud: "aws", Region: region, Type: "p5.48xlarge", Count: 1, Days: 2,
		Start: t0, End: t0.Add(14 * 24 * time.Hour)}
}

func off(id, fee string) model.Offering {
	return model.Offering{ID: id, Region: "us-east-1", InstanceType: "p5.48xlarge", Count: 1, Start: t0.Add(24 * time.Hour),
		End: t0.Add(72 * time.Hour), DurationHours: 48, Fee: model.MustMoney(fee), Currency: "USD"}
}

func ids(es []Entry) []string {
	var out []string
	for _, e := range es {
		for _, o := range e.Offerings {
			out = append(out, e.Cell.Region+"/"+o.ID+"/"+o.Fee.String())
		}
	}
	return out
}

func eq(t *testing.T, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestPutGetKeepsExactFeesAndAge(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	if got := c.Get(t0, cell("us-east-1")); len(got) != 0 {
		t.Fatalf("empty cache gave %v", got)
	}
	if err := c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "7551.36"), off("cbo-2", "0.000001")}); err != nil {
		t.Fatal(err)
	}
	got := Open(c.Path()).Get(t0.Add(4*time.Minute), cell("us-east-1"), cell("us-west-2"))
	eq(t, ids(got), "us-east-1/cbo-1/7551.36", "us-east-1/cbo-2/0.000001")
	if !got[0].Asked.Equal(t0) {
		t.Fatalf("asked %v, want %v", got[0].Asked, t0)
	}
	if o := got[0].Offerings[0]; !o.Start.Equal(t0.Add(24*time.Hour)) || o.DurationHours != 48 || o.InstanceType != "p5.48xlarge" {
		t.Fatalf("offering not kept whole: %+v", o)
	}
}

// The cell's cloud is written under the name files have always had it by, so a cache
// written by an earlier gpublock is still read as its cloud's.
func TestCloudKeepsItsNameOnDisk(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
	b, err := os.ReadFile(c.Path())
	if err != nil || !strings.Contains(string(b), `"Backend":"aws"`) {
		t.Fatalf("the file (%v) does not name the cloud as Backend:\n%s", err, b)
	}
}

func TestCellAnswerReplacedWholeOthersKept(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10"), off("cbo-gone", "20")}))
	must(t, c.Put(cell("us-west-2"), t0, []model.Offering{off("cbo-w", "30")}))
	// The fresh answer re-prices cbo-1 and no longer holds cbo-gone.
	must(t, c.Put(cell("us-east-1"), t0.Add(time.Minute), []model.Offering{off("cbo-1", "11")}))
	eq(t, ids(c.Get(t0.Add(time.Minute), cell("us-east-1"), cell("us-west-2"))), "us-east-1/cbo-1/11.00", "us-west-2/cbo-w/30.00")
	// An empty answer empties the cell.
	must(t, c.Put(cell("us-east-1"), t0.Add(2*time.Minute), nil))
	eq(t, ids(c.Get(t0.Add(2*time.Minute), cell("us-east-1"))))
}

func TestOtherQueryOrCloudIsAnotherCell(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
	demo := cell("us-east-1")
	demo.Cloud = "demo"
	longer := cell("us-east-1")
	longer.Days = 3
	if got := c.Get(t0, demo, longer); len(got) != 0 {
		t.Fatalf("another cell answered with %v", ids(got))
	}
}

func TestOldAnswersExpire(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
	if got := c.Get(t0.Add(MaxAge), cell("us-east-1")); len(got) != 0 {
		t.Fatalf("a day-old answer was shown: %v", ids(got))
	}
}

func TestDamagedFileIgnoredAndRewritten(t *testing.T) {
	for name, content := range map[string]string{
		"not json":  "{\"Version\":1,\"Entries\":[{",
		"bad fee":   `{"Version":1,"Entries":[{"Cell":{"Region":"us-east-1"},"Rows":[{"ID":"x","Fee":"12.3.4"}]}]}`,
		"old shape": `{"Version":99,"Entries":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.json")
			must(t, os.WriteFile(path, []byte(content), 0o600))
			c := Open(path)
			if got := c.Get(t0, cell("us-east-1")); len(got) != 0 {
				t.Fatalf("damaged file gave %v", got)
			}
			must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
			eq(t, ids(Open(path).Get(t0, cell("us-east-1"))), "us-east-1/cbo-1/10.00")
		})
	}
}

// Two Caches on one file stand for two processes: every cell each wrote is kept.
func TestTwoWritersOnOneFileLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "m.json")
	a, b := Open(path), Open(path)
	regions := []string{"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"}
	var wg sync.WaitGroup
	for i, r := range regions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a
			if i%2 == 1 {
				c = b
			}
			if err := c.Put(cell(r), t0, []model.Offering{off("cbo-"+r, "1")}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var cells []Cell
	var want []string
	for _, r := range regions {
		cells = append(cells, cell(r))
		want = append(want, r+"/cbo-"+r+"/1.00")
	}
	eq(t, ids(Open(path).Get(t0, cells...)), want...)
}

func TestNilCacheIsNoCache(t *testing.T) {
	var c *Cache
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
	if got := c.Get(t0, cell("us-east-1")); got != nil {
		t.Fatalf("nil cache gave %v", got)
	}
}

func TestDefaultPathUnderXDG(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	dir, _ := DefaultDir()
	aws, demo := In(dir, "aws").Path(), In(dir, "demo").Path()
	if aws != "/x/cache/gpublock/market-aws.jsonl" || demo != "/x/cache/gpublock/market-demo.jsonl" {
		t.Fatalf("paths %s, %s", aws, demo)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

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

// Listed gives the window of the latest search that listed an offering, and only on the
// source, backend and region it was listed on.
func TestListedGivesTheWindowAsAsked(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.jsonl"))
	plans := cell("us-east-1")
	plans.Source, plans.Type, plans.Targets = "training-plans", "ml.p5.48xlarge", "training-job"
	must(t, c.Put(plans, t0, []model.Offering{off("tpo-a", "10")}))
	moved := plans
	moved.Start, moved.End = t0.Add(time.Minute), plans.End.Add(time.Minute)
	moved.Targets = "hyperpod-cluster"
	must(t, c.Put(moved, t0.Add(time.Minute), []model.Offering{off("tpo-b", "11")}))

	e, o, ok := c.Listed(t0.Add(2*time.Minute), "training-plans", "aws", "us-east-1", "tpo-a")
	if !ok || o.ID != "tpo-a" || o.Fee.String() != "10.00" || !e.Cell.Start.Equal(t0) || !e.Cell.End.Equal(plans.End) || e.Cell.Targets != "training-job" {
		t.Fatalf("Listed tpo-a: %v %+v %+v", ok, o, e.Cell)
	}
	for _, miss := range [][4]string{
		{"capacity-blocks", "aws", "us-east-1", "tpo-a"},
		{"training-plans", "demo", "us-east-1", "tpo-a"},
		{"training-plans", "aws", "us-west-2", "tpo-a"},
		{"training-plans", "aws", "us-east-1", "tpo-c"},
		{"training-plans", "aws", "us-east-1", ""},
	} {
		if _, _, ok := c.Listed(t0.Add(2*time.Minute), miss[0], miss[1], miss[2], miss[3]); ok {
			t.Fatalf("Listed %v found an offering", miss)
		}
	}
	// An answer past MaxAge lists nothing.
	if _, _, ok := c.Listed(t0.Add(MaxAge+time.Minute), "training-plans", "aws", "us-east-1", "tpo-a"); ok {
		t.Fatal("an answer past MaxAge was found")
	}
	var none *Cache
	if _, _, ok := none.Listed(t0, "training-plans", "aws", "us-east-1", "tpo-a"); ok {
		t.Fatal("no cache found an offering")
	}
}
