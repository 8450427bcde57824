package table

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// item is a row of the tests' table: an id, a name and a count, which is absent (no figure
// to sort by) when negative.
type item struct {
	id, name string
	n        int
}

const (
	colID = iota
	colName
	colN
)

var itemSpecs = []Spec{
	colID:   {Title: "ID", Name: "id", SortKey: "I", Width: 6, Keep: 5, Core: true},
	colName: {Title: "Name", Name: "name", SortKey: "A", Width: 12, Keep: 3, Core: true},
	colN:    {Title: "N", Name: "count", SortKey: "N", Width: 5, Right: true, Keep: 1},
}

// items reads items by comparing them.
type items struct{}

func (items) Cell(r *item, c int) string {
	switch c {
	case colID:
		return r.id
	case colName:
		return r.name
	}
	if r.n < 0 {
		return "—"
	}
	return strconv.Itoa(r.n)
}

func (items) Compare(a, b *item, c int) int {
	switch c {
	case colID:
		return strings.Compare(a.id, b.id)
	case colName:
		return strings.Compare(a.name, b.name)
	}
	if a.n < 0 || b.n < 0 {
		return 0
	}
	return cmp.Compare(a.n, b.n)
}

func (items) Group(r *item, c int) int {
	if c == colN && r.n < 0 {
		return 1
	}
	return 0
}

func (items) Tie(a, b *item) int  { return strings.Compare(a.id, b.id) }
func (items) ID(r *item) string   { return r.id }
func (items) Text(r *item) string { return strings.ToLower(r.id + " " + r.name) }
func newItems(s Schema[item]) Model[item] {
	return New[item](Options{Theme: theme.New(false), Columns: itemSpecs, Sort: colName, Marks: true}, s)
}

// keyedItems reads items by integer keys, as a large table does.
type keyedItems struct{ items }

func (keyedItems) SortKeys(rows []item, view []int, c int) (Keys[item], bool) {
	switch c {
	case colN:
		return Keys[item]{Key: func(r *item) uint64 { return OrderedInt(int64(r.n)) }, Exact: true}, true
	case colName:
		// Only the first letter: equal keys hold different names, which Compare orders.
		return Keys[item]{Key: func(r *item) uint64 { return uint64(r.name[0]) }}, true
	}
	return Keys[item]{}, false
}

func order(m Model[item]) string {
	var out []string
	for i := range m.Visible() {
		r, _ := m.Row(i)
		out = append(out, r.id)
	}
	return strings.Join(out, ",")
}

func selectedID(m Model[item]) string {
	if r, ok := m.Selected(); ok {
		return r.id
	}
	return ""
}

func randomItems(rng *rand.Rand, n int) []item {
	names := []string{"alpha", "avocado", "beta", "bravo", "gamma"}
	out := make([]item, n)
	for i := range out {
		out[i] = item{id: fmt.Sprintf("i%03d", i), name: names[rng.IntN(len(names))], n: rng.IntN(6) - 1}
	}
	return out
}

// Equal keys keep the tie-break's order in both directions, whatever the order the rows
// arrived in, whether sorted at once, inserted page by page, or sorted by keys; the rows
// without a figure go last both ways.
func TestSortIsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := randomItems(rng, 200)
	for c := range itemSpecs {
		for _, desc := range []bool{false, true} {
			want := slices.Clone(rows)
			slices.SortFunc(want, func(a, b item) int {
				s := items{}
				if r := cmp.Compare(s.Group(&a, c), s.Group(&b, c)); r != 0 {
					return r
				}
				r := s.Compare(&a, &b, c)
				if desc {
					r = -r
				}
				if r != 0 {
					return r
				}
				return strings.Compare(a.id, b.id)
			})
			var wantIDs []string
			for _, r := range want {
				wantIDs = append(wantIDs, r.id)
			}
			for _, s := range []Schema[item]{items{}, keyedItems{}} {
				name := fmt.Sprintf("%s desc=%v %T", itemSpecs[c].Name, desc, s)
				whole := newItems(s)
				whole.Set(rows)
				whole.SetSort(c, desc)

				paged := newItems(s)
				paged.SetSort(c, desc)
				shuffled := slices.Clone(rows)
				rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
				for i := 0; i < len(shuffled); i += 7 {
					paged.Add(shuffled[i:min(i+7, len(shuffled))]...)
				}
				for _, m := range []Model[item]{whole, paged} {
					if got := order(m); got != strings.Join(wantIDs, ",") {
						t.Errorf("%s:\n got %s\nwant %s", name, got, strings.Join(wantIDs, ","))
					}
				}
			}
		}
	}
}

// The cursor stays on its row through a sort, a filter that keeps it, a refresh that lists
// it elsewhere and rows arriving before it; a filter that hides it puts it on the first
// row, and a list without it leaves it at its place.
func TestCursorKeepsItsRow(t *testing.T) {
	m := newItems(items{})
	m.Set([]item{{"a", "delta", 3}, {"b", "alpha", 1}, {"c", "charlie", 2}, {"d", "bravo", 5}})
	if got := order(m); got != "b,d,c,a" {
		t.Fatalf("by name: %s", got)
	}
	m, _ = m.Update(press("j"))
	m, _ = m.Update(press("j")) // on c
	if selectedID(m) != "c" {
		t.Fatalf("the cursor is on %q, want c", selectedID(m))
	}
	m, _ = m.Update(press("N"))
	if got := order(m); got != "b,c,a,d" || selectedID(m) != "c" {
		t.Errorf("by count: %s, the cursor on %q", got, selectedID(m))
	}
	m, _ = m.Update(press("N"))
	if got := order(m); got != "d,a,c,b" || selectedID(m) != "c" {
		t.Errorf("by count reversed: %s, the cursor on %q", got, selectedID(m))
	}
	m.SetFilter("a")
	if got := order(m); got != "d,a,c,b" || selectedID(m) != "c" {
		t.Errorf("filter a: %s, the cursor on %q", got, selectedID(m))
	}
	m.SetFilter("charlie c")
	if got := order(m); got != "c" || selectedID(m) != "c" {
		t.Errorf("filter charlie: %s, the cursor on %q", got, selectedID(m))
	}
	m.SetFilter("")
	m.Add(item{"e", "echo", 9}, item{"f", "foxtrot", 8})
	if got := order(m); got != "e,f,d,a,c,b" || selectedID(m) != "c" {
		t.Errorf("arrivals: %s, the cursor on %q", got, selectedID(m))
	}
	m.Set([]item{{"c", "charlie", 0}, {"x", "xray", 4}, {"d", "bravo", 5}})
	if got := order(m); got != "d,x,c" || selectedID(m) != "c" {
		t.Errorf("a refresh: %s, the cursor on %q", got, selectedID(m))
	}
	m.SetFilter("xray")
	if selectedID(m) != "x" {
		t.Errorf("a filter hiding c left the cursor on %q, want the first row, x", selectedID(m))
	}
	m.SetFilter("")
	if got := order(m); got != "d,x,c" || selectedID(m) != "x" {
		t.Fatalf("the filter cleared: %s, the cursor on %q", got, selectedID(m))
	}
	m.Set([]item{{"y", "yankee", 1}, {"z", "zulu", 2}, {"w", "whiskey", 3}})
	if got := order(m); got != "w,z,y" || selectedID(m) != "z" {
		t.Errorf("a list without x: %s, the cursor on %q, want z at x's place", got, selectedID(m))
	}
	m.Set([]item{{"a", "alpha", 1}})
	if selectedID(m) != "a" {
		t.Errorf("a shorter list put the cursor on %q, want its last row, a", selectedID(m))
	}
}

// Until a person moves the cursor it stays on the first row while rows stream in.
func TestCursorOnFirstRowUntilMoved(t *testing.T) {
	m := newItems(items{})
	m.Add(item{"m", "mike", 1})
	m.Add(item{"a", "alpha", 1})
	if selectedID(m) != "a" || m.Moved() {
		t.Errorf("before a move the cursor is on %q (moved %v), want the first row, a", selectedID(m), m.Moved())
	}
	m, _ = m.Update(press("j"))
	m.Add(item{"b", "bravo", 1})
	if selectedID(m) != "m" {
		t.Errorf("after a move an arrival took the cursor to %q", selectedID(m))
	}
	m.Add(item{"m", "a duplicate", 1})
	if m.Len() != 3 {
		t.Errorf("a row of an id held was added: %d rows", m.Len())
	}
}

// At every width the frame fits; columns drop by Keep; the core columns stay, narrowed to
// their values, before one of them goes.
func TestFitAtNarrowWidths(t *testing.T) {
	m := newItems(items{})
	m.Set([]item{{"a1", "alpha", 10}, {"b22", "bravo", 200}})
	head := func(w int) string { return ansi.Strip(strings.SplitN(m.View(w, 5), "\n", 2)[0]) }
	if h := head(25); !strings.Contains(h, "ID") || !strings.Contains(h, "Name") || !strings.Contains(h, "N") || ansi.StringWidth(h) != 25 {
		t.Errorf("25 cells, every column at its width: %q", h)
	}
	// 6 + 12 + 1 = 19 cells hold the core; the count goes first.
	if h := head(19); strings.HasSuffix(strings.TrimSpace(h), "N") || !strings.Contains(h, "Name") {
		t.Errorf("19 cells: %q", h)
	}
	// Narrower than the core's widths: both stay, narrowed to what their titles and
	// values need (an ID of 3 and the title and its arrow, "Name▲", 5 cells).
	for _, w := range []int{10, 12, 15} {
		h := head(w)
		if !strings.Contains(h, "ID") || !strings.Contains(h, "Name▲") {
			t.Errorf("%d cells drop a core column: %q", w, h)
		}
		if v := ansi.Strip(m.View(w, 5)); !strings.Contains(v, "b22") || !strings.Contains(v, "bravo") {
			t.Errorf("%d cells cut a value the core columns had room for:\n%s", w, v)
		}
	}
	for w := 1; w <= 40; w++ {
		for _, l := range strings.Split(m.View(w, 4), "\n") {
			if ansi.StringWidth(l) > w {
				t.Fatalf("%d cells: a line of %d: %q", w, ansi.StringWidth(l), ansi.Strip(l))
			}
		}
	}
	// A hidden column is not drawn at any width.
	m.SetHidden(colN, true)
	if h := head(80); !slices.Equal(strings.Fields(h), []string{"ID", "Name▲"}) {
		t.Errorf("a hidden column is drawn: %q", h)
	}
}

func TestFitWidths(t *testing.T) {
	cols := []Column{{10, 3}, {5, 1}, {8, 2}, {4, 0}}
	mins := []int{4, 0, 6, 0} // 0 and 2 are core, needing 4 and 6 cells
	for _, tc := range []struct {
		width         int
		shown, widths []int
	}{
		{30, []int{0, 1, 2, 3}, []int{10, 5, 8, 4}}, // everything fits
		{19, []int{0, 2}, []int{10, 8}},             // Fit keeps the core: nothing narrows
		{15, []int{0, 2}, []int{8, 6}},              // the core narrows, the most wanted widened first
		{11, []int{0, 2}, []int{4, 6}},
		{8, []int{0}, []int{8}}, // even narrowed both do not fit: the less wanted goes
	} {
		shown, widths := FitWidths(cols, mins, tc.width)
		if !slices.Equal(shown, tc.shown) || !slices.Equal(widths, tc.widths) {
			t.Errorf("FitWidths at %d = %v %v, want %v %v", tc.width, shown, widths, tc.shown, tc.widths)
		}
	}
}

// A click on a row selects it, a click on a title sorts by that column and again reverses,
// with the gutter of the marks taken into account; the wheel moves; clicks while the
// filter is typed do nothing.
func TestMouse(t *testing.T) {
	m := newItems(items{})
	m.Set([]item{{"a", "alpha", 3}, {"b", "bravo", 1}, {"c", "charlie", 2}})
	click := func(x, y int) tea.MouseMsg { return tea.MouseClickMsg{Button: tea.MouseLeft, X: x, Y: y} }
	m, ok := m.Mouse(click(1, 2), 1, 2, 40, 10)
	if !ok || selectedID(m) != "b" {
		t.Errorf("a click on the second row: used %v, on %q", ok, selectedID(m))
	}
	m, _ = m.Mouse(tea.MouseWheelMsg{Button: tea.MouseWheelDown}, 1, 2, 40, 10)
	if selectedID(m) != "c" {
		t.Errorf("the wheel took the cursor to %q, want c", selectedID(m))
	}
	// ID is cells 0-5, Name 7-18, N 20-24.
	m, _ = m.Mouse(click(21, 0), 21, 0, 40, 10)
	if c, desc := m.Sort(); c != colN || desc || order(m) != "b,c,a" {
		t.Errorf("a click on N: sorted by %d desc %v: %s", c, desc, order(m))
	}
	m, _ = m.Mouse(click(21, 0), 21, 0, 40, 10)
	if c, desc := m.Sort(); c != colN || !desc {
		t.Errorf("a second click on N: sorted by %d desc %v", c, desc)
	}
	if _, ok := m.Mouse(click(6, 0), 6, 0, 40, 10); ok {
		t.Error("a click between two titles did something")
	}
	// With a mark the rows start with a gutter: the titles move right by it.
	m, _ = m.Update(press("m"))
	m, _ = m.Mouse(click(len(MarkGlyph)+1, 0), len(MarkGlyph)+1, 0, 40, 10)
	if c, _ := m.Sort(); c != colID {
		t.Errorf("a click on ID after the gutter sorted by %d", c)
	}
	m, _ = m.Update(press("/"))
	if _, ok := m.Mouse(click(1, 3), 1, 3, 40, 10); ok {
		t.Error("a click while the filter is typed did something")
	}
}

// Marks follow their rows' ids, in marking order, and a copy of the table keeps its own.
func TestMarks(t *testing.T) {
	m := newItems(items{})
	m.Set([]item{{"a", "alpha", 3}, {"b", "bravo", 1}})
	m, _ = m.Update(press("m"))
	other, _ := m.Update(press("j"))
	other, _ = other.Update(press("m"))
	if !slices.Equal(m.Marks(), []string{"a"}) || !slices.Equal(other.Marks(), []string{"a", "b"}) {
		t.Errorf("marks %v and the copy's %v", m.Marks(), other.Marks())
	}
	lines := strings.Split(ansi.Strip(other.View(40, 4)), "\n")
	if !strings.HasPrefix(lines[1], MarkGlyph) || !strings.HasPrefix(lines[2], MarkGlyph) || strings.HasPrefix(lines[0], MarkGlyph) {
		t.Errorf("marked rows without the mark:\n%s", strings.Join(lines, "\n"))
	}
	other.Set([]item{{"b", "bravo", 1}, {"c", "charlie", 2}})
	if !slices.Equal(other.Marks(), []string{"b"}) {
		t.Errorf("after a list without a: marks %v", other.Marks())
	}
	blocks := New[item](Options{Theme: theme.New(false), Columns: itemSpecs}, items{})
	blocks.Set([]item{{"a", "alpha", 3}})
	if blocks, _ = blocks.Update(press("m")); len(blocks.Marks()) != 0 || blocks.KeyMap().Mark.Enabled() {
		t.Error("a table without marks marked a row")
	}
}

func press(s string) tea.KeyPressMsg {
	if s == "enter" {
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	return tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
}

// enter and tab both keep a typed filter, and help names both.
func TestFilterKeptByEnterOrTab(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEnter}, {Code: tea.KeyTab}} {
		m := newItems(items{})
		m.Set([]item{{"a", "delta", 3}, {"b", "alpha", 1}})
		m, _ = m.Update(press("/"))
		m, _ = m.Update(press("d"))
		m, used := m.Update(k)
		if !used || m.Filtering() || m.FilterText() != "d" || order(m) != "a" {
			t.Errorf("%s: used %v, filtering %v, filter %q, rows %s", k, used, m.Filtering(), m.FilterText(), order(m))
		}
	}
	if h := newItems(items{}).KeyMap().ApplyFilter.Help().Key; h != "enter/tab" {
		t.Errorf("help names %q for keeping the filter", h)
	}
}
