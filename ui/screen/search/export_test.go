package search

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// foundMixed is the screen after a search of both sources delivered blocks and plans.
func foundMixed(t *testing.T, blocks, plans int) Model {
	t.Helper()
	m := New(uitest.Context(false), Options{Region: "us-east-1"})
	m.Resize(screen.Area{Top: 1, Width: 160, Height: 45})
	q, ok := m.form.Query()
	if !ok {
		t.Fatalf("the default form is not a search: %v", m.form.Errors())
	}
	m, _ = m.StartFormSearch(q)
	var offs []model.Offering
	for i := range blocks + plans {
		o := offering(i)
		if i >= blocks {
			o.Source, o.ID, o.InstanceType = model.SourceTrainingPlan, "tpo-"+o.ID, "ml.p5.48xlarge"
		}
		offs = append(offs, o)
	}
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	m, _ = m.Update(EventsMsg{ID: m.search.id, Events: []source.SearchEvent{{Region: "us-east-1", Offerings: offs, Status: &st, CallsDone: 1, CallsTotal: 1}}, Closed: true})
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
		m, cmd := m.Update(tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl})
		if cmd != nil {
			m, _ = m.Update(cmd())
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
