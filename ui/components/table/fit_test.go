package table

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFit(t *testing.T) {
	cols := []Column{{10, 3}, {5, 1}, {8, 2}, {4, 0}}
	for _, tc := range []struct {
		width int
		want  []int
	}{
		{30, []int{0, 1, 2, 3}}, // 10+5+8+4+3 = 30
		{29, []int{0, 1, 2}},    // the least wanted goes
		{24, []int{0, 2, 3}},    // dropping 3 then 1 leaves room for 3 again
		{23, []int{0, 2}},
		{10, []int{0}},
		{3, nil}, // nothing fits
	} {
		if got := Fit(cols, tc.width); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Fit at %d = %v, want %v", tc.width, got, tc.want)
		}
	}
}

func TestCell(t *testing.T) {
	for _, tc := range []struct {
		s     string
		w     int
		right bool
		want  string
	}{{"ab", 4, false, "ab  "}, {"ab", 4, true, "  ab"}, {"abcdef", 4, false, "abc…"}, {"×", 2, true, " ×"}} {
		if got := Cell(tc.s, tc.w, tc.right); got != tc.want || ansi.StringWidth(got) != tc.w {
			t.Errorf("Cell(%q, %d, %v) = %q, want %q", tc.s, tc.w, tc.right, got, tc.want)
		}
	}
}

// countingItems counts the cells read, as a frame measures its columns.
type countingItems struct {
	items
	reads *int
}

func (s countingItems) Cell(r *item, c int) string {
	*s.reads++
	return s.items.Cell(r, c)
}

// A narrow frame fits its core columns to their widest cell; the cells of every row are
// measured once, not again each frame: a frame reads about the cells it draws.
func TestNarrowFrameMeasuresRowsOnce(t *testing.T) {
	reads := 0
	m := newItems(countingItems{reads: &reads})
	rows := make([]item, 2000)
	for i := range rows {
		rows[i] = item{id: fmt.Sprintf("r%d", i), name: strings.Repeat("n", 1+i%9), n: i}
	}
	m.Set(rows)
	const width, height = 12, 10 // narrower than the core columns' widths
	first := m.View(width, height)
	reads = 0
	for range 5 {
		if got := m.View(width, height); got != first {
			t.Fatalf("a frame of the same table changed:\n%s\nwas:\n%s", got, first)
		}
	}
	if perFrame := reads / 5; perFrame > 3*height {
		t.Errorf("a frame read %d cells of %d rows: the rows are measured again each frame", perFrame, len(rows))
	}
}

// What is measured once is what measuring every visible row now would give, through rows
// added page by page, a filter, a new list, a new schema and a reset; and a copy of the
// table that changed apart measures its own rows.
func TestMeasuredWidthsFollowTheRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := newItems(items{})
	check := func(step string, m Model[item]) {
		t.Helper()
		for c := range itemSpecs {
			if got, want := m.cellWidth(c), m.measure(c, m.view); got != want {
				t.Fatalf("%s: column %d measured %d, its widest visible cell is %d", step, c, got, want)
			}
		}
	}
	page := func(n int) []item {
		out := make([]item, n)
		for i := range out {
			k := rng.IntN(1000)
			out[i] = item{id: fmt.Sprintf("id%d", k), name: strings.Repeat("x", 1+rng.IntN(20)), n: rng.IntN(100000) - 10}
		}
		return out
	}
	check("empty", m)
	for i := range 30 {
		m.Add(page(1 + rng.IntN(6))...)
		check(fmt.Sprintf("page %d", i), m)
	}
	m.SetFilter("x")
	check("filter x", m)
	m.SetFilter("xxxxxxxxxxxxxxx")
	check("filter of long names", m)
	m.Add(item{id: "wide", name: strings.Repeat("x", 40), n: 1})
	check("a wide row under the filter", m)
	m.SetFilter("")
	check("no filter", m)
	copyOf := m
	copyOf.Add(item{id: "only-in-the-copy", name: strings.Repeat("y", 60), n: 2})
	check("the copy", copyOf)
	check("the table the copy was made from", m)
	m.Set(page(50))
	check("a new list", m)
	m.SetSchema(keyedItems{})
	check("a new schema", m)
	m.Reset()
	check("reset", m)
}
