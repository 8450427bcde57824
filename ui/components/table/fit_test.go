package table

import (
	"reflect"
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
