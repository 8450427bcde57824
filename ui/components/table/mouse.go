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

// HitKind is what a mouse message does to a table.
type HitKind int

const (
	HitNone   HitKind = iota
	HitWheel          // move the cursor by Hit.Delta
	HitRow            // select the visible row Hit.Row
	HitHeader         // sort by the column at Hit.X on the title line
)

// Hit is a mouse message read against a table.
type Hit struct {
	Kind  HitKind
	Delta int // HitWheel
	Row   int // HitRow
	X     int // HitHeader
}

// MouseHit reads msg at x, y in a table whose column titles are on line header, rows below
// them in a view height lines tall, showing n rows with its cursor and offset. The wheel
// moves the cursor; a left click picks a row or a title; nothing happens while the table's
// filter is being typed (a click there would be taken for a choice the person did not make).
func MouseHit(msg tea.MouseMsg, x, y, header, height, cursor, offset, n int, filtering bool) Hit {
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		if d := WheelDelta(msg); d != 0 && n > 0 {
			return Hit{Kind: HitWheel, Delta: d}
		}
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft || filtering {
			return Hit{}
		}
		if y == header {
			return Hit{Kind: HitHeader, X: x}
		}
		if i, ok := RowAt(y, header+1, cursor, offset, height-header-1, n); ok {
			return Hit{Kind: HitRow, Row: i}
		}
	}
	return Hit{}
}
