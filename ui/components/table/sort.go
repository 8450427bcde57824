package table

import (
	"cmp"
	"slices"
	"sync"
)

// KeySorter is a Schema that can sort a whole table by integer keys: a stable radix sort
// over a small contiguous slice, instead of comparisons that reach into rows spread over
// megabytes. Inserting a page still uses Compare.
type KeySorter[R any] interface {
	// SortKeys returns the keys of column c for the rows of group 0; ok is false for a
	// column without keys, which is sorted by Compare. Rows of the other groups have no
	// key: Compare must find any two of one group equal, so that they keep the order of the
	// tie-breaks.
	SortKeys(rows []R, view []int, c int) (keys Keys[R], ok bool)
}

// Keys is how a column is sorted by integer keys.
type Keys[R any] struct {
	// Key is a row's key: an image of Compare's order in one integer (ascending), or, with
	// Order, a number that Order maps to its place in that order.
	Key func(r *R) uint64
	// Order, when set, is called once every row's Key has been read and maps each key to
	// its place in Compare's order: a text column numbers its values as it meets them and
	// orders the few distinct ones at the end, reading each row once.
	Order func(key uint64) uint64
	// Exact is false when equal keys may hold rows that Compare tells apart (a float's
	// rounding): those runs are then sorted by Compare.
	Exact bool
}

// cmpIndex is the table's order of two rows: the group, the column (reversed when
// descending), then the tie-break.
func (m *Model[R]) cmpIndex(a, b int) int {
	ra, rb := &m.rows[a], &m.rows[b]
	c := m.sortCol
	if r := cmp.Compare(m.schema.Group(ra, c), m.schema.Group(rb, c)); r != 0 {
		return r
	}
	r := m.schema.Compare(ra, rb, c)
	if m.desc {
		r = -r
	}
	if r != 0 {
		return r
	}
	return m.schema.Tie(ra, rb)
}

// sortEntry is a row's place in a sort by keys.
type sortEntry struct {
	key uint64 // the column, inverted when descending
	idx int32  // into rows
}

// sortScratch is the working memory of a sort by keys, kept between sorts: a table of
// 10,000 rows would otherwise allocate half a megabyte a key press for the collector.
type sortScratch struct {
	groups  []int32
	keys    []uint64
	entries []sortEntry
	tmp     []sortEntry
	others  []int32
}

var scratchPool = sync.Pool{New: func() any { return new(sortScratch) }}

// grown is s resliced to n elements, reallocated only when it is too short; the elements
// are not cleared.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// sortRows sorts the visible rows as cmpIndex orders them.
func (m *Model[R]) sortRows() {
	ks, isKS := m.schema.(KeySorter[R])
	if !isKS {
		slices.SortFunc(m.view, m.cmpIndex)
		return
	}
	c, desc := m.sortCol, m.desc
	k, ok := ks.SortKeys(m.rows, m.view, c)
	if !ok {
		slices.SortFunc(m.view, m.cmpIndex)
		return
	}
	// Each visible row's group and key are read in the order the rows lie in memory (a
	// sort's cost is reaching into rows); then the rows are taken in the order of the
	// tie-breaks and sorted by key with a stable radix sort, so equal keys keep that order;
	// rows of other groups go after, in the same order unless their column tells them apart.
	const hidden = -1 << 31
	sc := scratchPool.Get().(*sortScratch)
	defer scratchPool.Put(sc)
	groups := grown(sc.groups, len(m.rows))
	sc.groups = groups
	for i := range groups {
		groups[i] = hidden
	}
	for _, ri := range m.view {
		groups[ri] = 0
	}
	keys := grown(sc.keys, len(m.rows))
	sc.keys = keys
	for ri := range m.rows {
		if groups[ri] == hidden {
			continue
		}
		r := &m.rows[ri]
		if g := m.schema.Group(r, c); g != 0 {
			groups[ri] = int32(g)
			continue
		}
		keys[ri] = k.Key(r)
	}
	if k.Order != nil || desc {
		for _, ri := range m.view {
			if groups[ri] != 0 {
				continue
			}
			if k.Order != nil {
				keys[ri] = k.Order(keys[ri])
			}
			if desc {
				keys[ri] = ^keys[ri]
			}
		}
	}
	entries := sc.entries[:0]
	others := sc.others[:0]
	mixed := false // others are of more than one group
	for _, ri := range m.byTie {
		switch g := groups[ri]; {
		case g == hidden:
		case g != 0:
			mixed = mixed || (len(others) > 0 && g != groups[others[0]])
			others = append(others, ri)
		default:
			entries = append(entries, sortEntry{key: keys[ri], idx: ri})
		}
	}
	sc.entries, sc.others = entries, others
	sc.tmp = grown(sc.tmp, len(entries))
	entries = radixSort(entries, sc.tmp)
	if !k.Exact {
		for i := 0; i < len(entries); {
			j := i + 1
			for j < len(entries) && entries[j].key == entries[i].key {
				j++
			}
			if j-i > 1 {
				slices.SortFunc(entries[i:j], func(a, b sortEntry) int { return m.cmpIndex(int(a.idx), int(b.idx)) })
			}
			i = j
		}
	}
	for i := range entries {
		m.view[i] = int(entries[i].idx)
	}
	if mixed {
		slices.SortStableFunc(others, func(a, b int32) int { return cmp.Compare(groups[a], groups[b]) })
	}
	for i, ri := range others {
		m.view[len(entries)+i] = int(ri)
	}
}

// radixSort sorts a by key, keeping the order of equal keys, a byte at a time from the
// lowest (a pass is skipped when every key has the same byte there); tmp is as long as a.
func radixSort(a, tmp []sortEntry) []sortEntry {
	if len(a) < 2 {
		return a
	}
	for shift := uint(0); shift < 64; shift += 8 {
		var at [256]int
		for i := range a {
			at[byte(a[i].key>>shift)]++
		}
		if at[byte(a[0].key>>shift)] == len(a) {
			continue
		}
		pos := 0
		for d, n := range at {
			at[d] = pos
			pos += n
		}
		for i := range a {
			d := byte(a[i].key >> shift)
			tmp[at[d]] = a[i]
			at[d]++
		}
		a, tmp = tmp, a
	}
	return a
}

// OrderedInt maps int64 onto uint64 keeping the order, for a sort key.
func OrderedInt(n int64) uint64 { return uint64(n) ^ 1<<63 }
