package marketcache

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

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
