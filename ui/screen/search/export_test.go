package search

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// foundMixed is the screen after a search of both sources delivered blocks and plans.
func foundMixed(t *testing.T, blocks, plans int) Model {
	t.Helper()
	m := startedSearch(t, false)
	var offs []model.Offering
	for i := range blocks + plans {
		o := offering(i)
		if i >= blocks {
			o.Source, o.ID, o.InstanceType = model.SourceTrainingPlan, "tpo-"+o.ID, "ml.p5.48xlarge"
		}
		offs = append(offs, o)
	}
	m = delivered(m, offs)
	if m.Table().Len() != blocks+plans {
		t.Fatalf("%d rows, want %d", m.Table().Len(), blocks+plans)
	}
	return m
}

// ctrl+s writes the table in gpublock offerings -o csv's format, whose columns are Capacity
// Blocks': the plans are left out and the status line says so and where they are listed;
// a table of plans alone writes no file.
func TestExportLeavesOutPlans(t *testing.T) {
	for _, tc := range []struct {
		blocks, plans int
		want          string
	}{
		{2, 1, "Wrote 2 offerings to"},
		{0, 2, "Nothing exported"},
	} {
		dir := t.TempDir()
		t.Chdir(dir)
		m := foundMixed(t, tc.blocks, tc.plans)
		m, cmd := m.update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
		if cmd != nil {
			m, _ = m.update(cmd())
		}
		said := flashText(m)
		if !strings.Contains(said, tc.want) || !strings.Contains(said, "training plan") {
			t.Errorf("%d blocks, %d plans: said %q, want %q and the plans named", tc.blocks, tc.plans, said, tc.want)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		if tc.blocks == 0 {
			if len(files) != 0 {
				t.Errorf("a table of plans alone wrote %q", files)
			}
			continue
		}
		if len(files) != 1 {
			t.Fatalf("files %q, want one", files)
		}
		f, err := os.Open(files[0])
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != tc.blocks+1 {
			t.Fatalf("%d records, want a header and %d blocks: %q", len(recs), tc.blocks, recs)
		}
		for _, r := range recs[1:] {
			if strings.HasPrefix(r[11], "tpo-") || strings.HasPrefix(r[2], "ml.") {
				t.Errorf("a plan's row in the CSV: %q", r)
			}
		}
	}
}

// Two exports in one second make two files; neither replaces the other.
func TestExportNameNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	o := model.Offering{ID: "cb-1", Region: "us-east-1", InstanceType: "p5.48xlarge", Count: 1, DurationHours: 24}
	cmps := []pricing.Comparison{pricing.Compare(nil, o)}
	first, err := writeExport(dir, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), cmps)
	if err != nil {
		t.Fatal(err)
	}
	second, err := writeExport(dir, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), cmps)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(first) != "gpublock-offerings-20261201-090000.csv" || filepath.Base(second) != "gpublock-offerings-20261201-090000-2.csv" {
		t.Errorf("files %s and %s", first, second)
	}
}
