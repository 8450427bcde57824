package table

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// The sorted column keeps its arrow and its whole title when its title fills its width: a
// column is never narrower than its title and the arrow, so that the header always says
// which column the rows are sorted by and which way.
func TestSortArrowNeverCut(t *testing.T) {
	specs := []Spec{
		colID:   {Title: "ID", Name: "id", SortKey: "I", Width: 6, Keep: 5, Core: true},
		colName: {Title: "Name", Name: "name", SortKey: "A", Width: 4, Keep: 3},
		colN:    {Title: "Count", Name: "count", SortKey: "N", Width: 5, Right: true, Keep: 1},
	}
	for _, sortCol := range []int{colName, colN} {
		for _, desc := range []bool{false, true} {
			m := New[item](Options{Theme: theme.New(false), Columns: specs, Sort: sortCol}, items{})
			m.Set([]item{{"a1", "al", 1}, {"b2", "bo", 2}})
			if desc {
				m.SortBy(sortCol)
			}
			h := ansi.Strip(strings.SplitN(m.View(40, 4), "\n", 2)[0])
			want := Arrow(m.desc)
			if !strings.Contains(h, specs[sortCol].Title+want) || ansi.StringWidth(h) > 40 {
				t.Errorf("sorted by %s (desc %v): header %q has no %s", specs[sortCol].Title, m.desc, h, want)
			}
		}
	}
}

// A sort by a column that a narrow table would drop shows that column: it is kept above
// every other, and the least wanted of the rest goes instead.
func TestSortedColumnIsShown(t *testing.T) {
	specs := []Spec{
		colID:   {Title: "ID", Name: "id", SortKey: "I", Width: 6, Keep: 5, Core: true},
		colName: {Title: "Name", Name: "name", SortKey: "A", Width: 8, Keep: 3},
		colN:    {Title: "Count", Name: "count", SortKey: "N", Width: 8, Right: true, Keep: 1},
	}
	for _, sortCol := range []int{colID, colName, colN} {
		m := New[item](Options{Theme: theme.New(false), Columns: specs, Sort: sortCol}, items{})
		m.Set([]item{{"a1", "al", 1}, {"b2", "bo", 2}})
		h := ansi.Strip(strings.SplitN(m.View(16, 4), "\n", 2)[0])
		if !strings.Contains(h, specs[sortCol].Title+"▲") {
			t.Errorf("sorted by %s at 16 cells: header %q", specs[sortCol].Title, h)
		}
		if !strings.Contains(h, "ID") {
			t.Errorf("sorted by %s at 16 cells: the core column went: %q", specs[sortCol].Title, h)
		}
	}
}
