package offerings

import (
	"testing"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// Select finds a visible offering by id; a filtered-out or unknown one is not selected and
// the cursor stays.
func TestSelectByID(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "1000", 3, 2), offering("b", "us-west-2", "2000", 4, 2), offering("c", "us-east-1", "3000", 5, 2)})
	if !m.Select("c") {
		t.Fatal("c not selected")
	}
	if o, _ := m.Selected(); o.ID != "c" {
		t.Fatalf("selected %s, want c", o.ID)
	}
	m.SetFilter("us-east-1")
	if m.Select("b") || m.Select("nope") {
		t.Error("selected an offering that is not visible")
	}
	if o, _ := m.Selected(); o.ID != "c" {
		t.Errorf("a failed Select moved the cursor to %s", o.ID)
	}
}

// KeepMarks carries marks over to the rows of a search run again: in their order, only
// those still held, whether the filter shows them or not.
func TestKeepMarks(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "1000", 3, 2), offering("b", "us-west-2", "2000", 4, 2)})
	m.SetFilter("us-east-1")
	m.KeepMarks([]string{"b", "gone", "a", "b"})
	got := m.Marked()
	if len(got) != 2 || got[0].Offering.ID != "b" || got[1].Offering.ID != "a" {
		t.Errorf("marks %v, want b then a", got)
	}
	m.KeepMarks(nil)
	if len(m.Marked()) != 0 {
		t.Error("KeepMarks(nil) kept marks")
	}
}
