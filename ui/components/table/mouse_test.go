package table

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestWheelDelta(t *testing.T) {
	if d := WheelDelta(tea.MouseWheelMsg{Button: tea.MouseWheelUp}); d >= 0 {
		t.Errorf("wheel up moves %d", d)
	}
	if d := WheelDelta(tea.MouseWheelMsg{Button: tea.MouseWheelDown}); d <= 0 {
		t.Errorf("wheel down moves %d", d)
	}
	if d := WheelDelta(tea.MouseWheelMsg{Button: tea.MouseWheelLeft}); d != 0 {
		t.Errorf("a sideways wheel moves %d", d)
	}
}

func TestRowAt(t *testing.T) {
	// 20 rows, 5 shown, the cursor on 12 with the offset at 10: rows 10–14 on lines 2–6.
	for _, tc := range []struct {
		y, want int
		ok      bool
	}{{2, 10, true}, {6, 14, true}, {1, 0, false}, {7, 0, false}} {
		got, ok := RowAt(tc.y, 2, 12, 10, 5, 20)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("line %d: row %d, %v; want %d, %v", tc.y, got, ok, tc.want, tc.ok)
		}
	}
	// Fewer rows than lines: the lines below the last row hold none.
	if _, ok := RowAt(4, 2, 0, 0, 5, 2); ok {
		t.Error("a line below the last row gave a row")
	}
}

func TestColumnAt(t *testing.T) {
	widths := []int{3, 5, 2}
	for x, want := range map[int]int{0: 0, 2: 0, 3: -1, 4: 1, 8: 1, 9: -1, 10: 2, 11: 2, 12: -1} {
		if got := ColumnAt(x, widths); got != want {
			t.Errorf("x %d: column %d, want %d", x, got, want)
		}
	}
}
