package table

import tea "charm.land/bubbletea/v2"

// WheelRows is how many rows one notch of the mouse wheel moves: terminals send several
// notches for one turn, so one row each keeps the wheel precise.
const WheelRows = 1

// WheelDelta is the rows a wheel message moves the cursor (or a pane) by: negative up,
// positive down, 0 for a sideways wheel.
func WheelDelta(msg tea.MouseWheelMsg) int {
	switch msg.Button {
	case tea.MouseWheelUp:
		return -WheelRows
	case tea.MouseWheelDown:
		return WheelRows
	}
	return 0
}

// RowAt is the index among n visible rows of the row drawn on line y of a table whose
// first row is on line first and which shows rows rows, its cursor and offset kept as
// Window draws them; false where no row is drawn.
func RowAt(y, first, cursor, offset, rows, n int) (int, bool) {
	if y < first || y >= first+rows {
		return 0, false
	}
	lo, end := Window(cursor, offset, rows, n)
	i := lo + y - first
	if i >= end {
		return 0, false
	}
	return i, true
}

// ColumnAt is the index into widths of the column drawn at x, the columns of those widths
// drawn from x 0 with one space between them; -1 on a gap or past the last.
func ColumnAt(x int, widths []int) int {
	at := 0
	for i, w := range widths {
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
	}
	return -1
}
