package export

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

func offering(t *testing.T, id, typ, fee string) model.Offering {
	t.Helper()
	m, err := model.ParseMoney(fee)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)
	return model.Offering{ID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: typ, Count: 1,
		Start: start, End: start.Add(48 * time.Hour), DurationHours: 48, Fee: m, Currency: "USD", Tenancy: "default"}
}

// WriteCSV keeps the order it is given and writes each comparison's own offering, with as
// many cells as the header.
func TestWriteCSVOrderAndCells(t *testing.T) {
	cat := pricing.Embedded()
	offs := []model.Offering{offering(t, "cb-2", "p5.48xlarge", "3000.50"), offering(t, "cb-1", "p4d.24xlarge", "900")}
	var cmps []pricing.Comparison
	for _, o := range offs {
		cmps = append(cmps, pricing.Compare(cat, o))
	}
	var b strings.Builder
	if err := WriteCSV(&b, cmps); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != strings.Join(CSVHeader(), ",") {
		t.Fatalf("records %q", recs)
	}
	for i, want := range []struct{ id, fee string }{{"cb-2", "3000.50"}, {"cb-1", "900.00"}} {
		r := recs[i+1]
		if len(r) != len(CSVHeader()) || r[11] != want.id || r[8] != want.fee || strings.Join(r, ",") != strings.Join(CSVRecord(offs[i], cmps[i]), ",") {
			t.Errorf("row %d = %q, want id %s fee %s", i, r, want.id, want.fee)
		}
	}
}

// The header is a copy: changing it does not change the next file.
func TestCSVHeaderIsACopy(t *testing.T) {
	h := CSVHeader()
	h[0] = "x"
	if CSVHeader()[0] != "Region" {
		t.Fatal("CSVHeader shares its slice")
	}
}

// The CSV's columns are Capacity Blocks' (AWS's field names): a training plan's offering
// has no row in it, so WriteCSV refuses one rather than file a plan's id under
// CapacityBlockOfferingId, and writes nothing.
func TestWriteCSVRefusesPlans(t *testing.T) {
	cat := pricing.Embedded()
	block := offering(t, "cbr-1", "p5.48xlarge", "3000.50")
	plan := offering(t, "tpo-1", "ml.p5.48xlarge", "3100")
	plan.Source = model.SourceTrainingPlan
	if !InCSV(block) || InCSV(plan) {
		t.Fatalf("InCSV: block %v, plan %v", InCSV(block), InCSV(plan))
	}
	var b strings.Builder
	err := WriteCSV(&b, []pricing.Comparison{pricing.Compare(cat, block), pricing.Compare(cat, plan)})
	if err == nil || !strings.Contains(err.Error(), "Capacity Blocks' columns only") {
		t.Fatalf("WriteCSV with a plan: err %v", err)
	}
	if b.Len() != 0 {
		t.Fatalf("WriteCSV refused, yet wrote %q", b.String())
	}
}
