package marketcache

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func cell(region string) Cell {
	return Cell{Source: "capacity-blocks", Backend: "aws", Region: region, Type: "p5.48xlarge", Count: 1, Days: 2,
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
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
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

func TestOtherQueryOrBackendIsAnotherCell(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "m.json"))
	must(t, c.Put(cell("us-east-1"), t0, []model.Offering{off("cbo-1", "10")}))
	demo := cell("us-east-1")
	demo.Backend = "demo"
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
