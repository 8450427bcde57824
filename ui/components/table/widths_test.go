package table

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

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
