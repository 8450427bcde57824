package offerings

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

func offering(id, region string, fee string, startDay, days int) model.Offering {
	start := time.Date(2026, 12, startDay, 11, 30, 0, 0, time.UTC)
	return model.Offering{ID: id, Region: region, AvailabilityZone: region + "a", InstanceType: "p5.48xlarge", Count: 1,
		Start: start, End: start.AddDate(0, 0, days), DurationHours: 24 * days, Fee: model.MustMoney(fee), Currency: "USD"}
}

// press is m after keys, each by name (uitest.Key).
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m, _, _ = m.Update(uitest.Key(k))
	}
	return m
}

// ids is the table's rows in their order.
func ids(m Model) string {
	return uitest.Listed(m.Visible(), func(i int) string { return m.Row(i).ID })
}

func TestSortReverseAndStableCursor(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "300", 5, 2), offering("b", "us-west-2", "100", 3, 2), offering("c", "eu-north-1", "200", 4, 2)})
	m.Add([]model.Offering{offering("b", "us-west-2", "100", 3, 2)}) // a duplicate is dropped
	if got := ids(m); got != "b,c,a" {
		t.Fatalf("by start: %s", got)
	}
	m = uitest.Steps(t, m, press, ids, []uitest.Step{
		{Keys: "j F", Want: "b,c,a", What: "on c, by fee"},
		{Keys: "F", Want: "a,c,b", What: "by fee again (reversed)"},
	})
	if o, _ := m.Selected(); o.ID != "c" {
		t.Errorf("the cursor left c for %s", o.ID)
	}
	m = press(m, "R")
	if got := ids(m); got != "c,a,b" {
		t.Errorf("by region: %s", got)
	}
	head := ansi.Strip(strings.SplitN(m.View(200, 10), "\n", 2)[0])
	if !strings.Contains(head, "Region▲") || strings.Contains(head, "fee▼") {
		t.Errorf("the sorted column is not marked: %q", head)
	}
	// Rows arriving later land in sort order and the cursor stays on its offering.
	m.Add([]model.Offering{offering("d", "ap-south-1", "50", 6, 2)})
	if got := ids(m); got != "d,c,a,b" {
		t.Errorf("after an arrival: %s", got)
	}
	if o, _ := m.Selected(); o.ID != "c" {
		t.Errorf("the cursor moved to %s when a row arrived", o.ID)
	}
}

func TestFilter(t *testing.T) {
	m := New(theme.New(false))
	m.Add([]model.Offering{offering("a", "us-east-1", "300", 5, 2), offering("b", "us-west-2", "100", 3, 2), offering("c", "eu-north-1", "200", 4, 3)})
	m = press(m, "/")
	if !m.Filtering() {
		t.Fatal("/ does not start the filter")
	}
	m = press(m, "u", "s", " ", "2", "d")
	if got := ids(m); got != "b,a" {
		t.Errorf("filter 'us 2d': %s", got)
	}
	m = press(m, "enter")
	if m.Filtering() || m.FilterText() != "us 2d" {
		t.Errorf("enter: filtering=%v text=%q", m.Filtering(), m.FilterText())
	}
	m.Add([]model.Offering{offering("e", "eu-west-2", "1", 1, 2), offering("f", "us-east-2", "1", 1, 2)})
	if got := ids(m); got != "f,b,a" {
		t.Errorf("arrivals under a filter: %s", got)
	}
	m = press(m, "esc")
	if m.FilterText() != "" || m.Visible() != 5 {
		t.Errorf("esc: filter %q, %d visible", m.FilterText(), m.Visible())
	}
}

func TestPagingAndViewWindow(t *testing.T) {
	m := New(theme.New(false))
	var offs []model.Offering
	for i := 0; i < 100; i++ {
		offs = append(offs, offering(fmt.Sprintf("o%03d", i), "us-east-1", fmt.Sprint(1000+i), 1+i%28, 2))
	}
	m.Add(offs)
	m.SetHeight(10)
	m = press(m, "G")
	if m.Cursor() != 99 {
		t.Errorf("G: cursor %d", m.Cursor())
	}
	m = press(m, "b")
	if m.Cursor() != 89 {
		t.Errorf("page up: cursor %d", m.Cursor())
	}
	m = press(m, "g", "f")
	if m.Cursor() != 10 {
		t.Errorf("page down: cursor %d", m.Cursor())
	}
	sel, _ := m.Selected()
	if v := m.View(150, 11); !strings.Contains(v, sel.Fee.Dollars()) || strings.Count(v, "\n") != 10 {
		t.Errorf("the frame does not show the selected row or has the wrong height:\n%s", ansi.Strip(v))
	}
}

// Narrow tables drop the least wanted columns, keep what fits, and never cut a fee.
func TestColumnsFit(t *testing.T) {
	for w := 10; w <= 200; w++ {
		total := -1
		cols := visibleColumns(w)
		for _, c := range cols {
			total += columns[c].width + 1
		}
		if total > w && len(cols) > 1 {
			t.Errorf("width %d: columns need %d", w, total)
		}
	}
	all := -1
	for _, c := range columns {
		all += c.width + 1
	}
	if cols := visibleColumnsFor(all, false, true); len(cols) != int(numColumns) {
		t.Errorf("%d cells show %d columns with a plan in the table, want all", all, len(cols))
	}
	// Without a plan the source column is not shown: the form says the source.
	if cols := visibleColumns(all); len(cols) != int(numColumns)-1 || slices.Contains(cols, ColSource) {
		t.Errorf("%d cells show %v for Capacity Blocks alone, want every column but the source", all, cols)
	}
	// With one, it stays at 80 columns: a mixed table must say which row is which.
	if cols := visibleColumnsFor(78, false, true); !slices.Contains(cols, ColSource) {
		t.Errorf("78 cells with a plan show %v, without the source", cols)
	}
	big := offering("x", "us-east-1", "16773120.00", 1, 182)
	r := newRow(big, nil)
	if c := r.cell(ColFee); len(c) > columns[ColFee].width {
		t.Errorf("fee %q is wider than its column", c)
	}
}

func TestFormatLength(t *testing.T) {
	for _, tc := range []struct {
		h, m int
		want string
	}{{48, 0, "2d"}, {504, 0, "3w"}, {26, 5, "~1d2h"}, {2, 35, "2h35m"}, {47, 40, "~2d"}} {
		if got := FormatLength(model.Offering{DurationHours: tc.h, DurationMinutes: tc.m}); got != tc.want {
			t.Errorf("%dh%dm: %q, want %q", tc.h, tc.m, got, tc.want)
		}
	}
}

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
