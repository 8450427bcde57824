package table

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Nav is the keys that move a table's cursor.
type Nav struct {
	Up, Down, PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
}

// Move returns the cursor and the first row shown after k, a table of n visible rows of
// which height fit, and whether k was one of nav's keys. Neither result is clamped: Scroll
// does that. Paging moves the first row with the cursor, so that a page turns whole.
func Move(k tea.KeyPressMsg, nav Nav, cursor, offset, height, n int) (int, int, bool) {
	switch {
	case key.Matches(k, nav.Up):
		cursor--
	case key.Matches(k, nav.Down):
		cursor++
	case key.Matches(k, nav.PageUp):
		cursor -= height
		offset -= height
	case key.Matches(k, nav.PageDown):
		cursor += height
		offset += height
	case key.Matches(k, nav.HalfUp):
		cursor -= height / 2
	case key.Matches(k, nav.HalfDown):
		cursor += height / 2
	case key.Matches(k, nav.Top):
		cursor = 0
	case key.Matches(k, nav.Bottom):
		cursor = n - 1
	default:
		return cursor, offset, false
	}
	return cursor, offset, true
}

// Scroll puts the cursor on one of n visible rows and returns it with the first row to show
// so that the cursor is among the height rows shown and no row is left empty that could be
// filled.
func Scroll(cursor, offset, height, n int) (int, int) {
	cursor = max(0, min(cursor, n-1))
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+height {
		offset = cursor - height + 1
	}
	return cursor, max(0, min(offset, n-height))
}

// Window returns the visible rows [first, end) a frame of rows rows draws: the kept offset,
// moved down only as far as needed to show the cursor, since the frame may be shorter than
// the height the offset was kept for.
func Window(cursor, offset, rows, n int) (first, end int) {
	if cursor >= offset+rows {
		offset = cursor - rows + 1
	}
	first = max(0, min(offset, n-rows))
	return first, min(n, first+rows)
}

// Terms are the words of a filter, in lower case; a row passes when it holds every one.
func Terms(filter string) []string { return strings.Fields(strings.ToLower(filter)) }

// Matches reports whether text, a row's lower-case text, contains every term.
func Matches(text string, terms []string) bool {
	for _, t := range terms {
		if !strings.Contains(text, t) {
			return false
		}
	}
	return true
}

// Arrow marks the direction of the sorted column.
func Arrow(desc bool) string {
	if desc {
		return "▼"
	}
	return "▲"
}

// Position says where the cursor is among visible rows of total, and how they are sorted,
// for a status line.
func Position(cursor, visible, total int, sortedBy string, desc bool) string {
	pos := 0
	if visible > 0 {
		pos = cursor + 1
	}
	s := fmt.Sprintf("%d of %d", pos, visible)
	if visible != total {
		s += fmt.Sprintf(" (filtered from %d)", total)
	}
	return s + " · sorted by " + sortedBy + " " + Arrow(desc)
}
