package table

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func TestMove(t *testing.T) {
	nav := Nav{
		Up: key.NewBinding(key.WithKeys("k")), Down: key.NewBinding(key.WithKeys("j")),
		PageUp: key.NewBinding(key.WithKeys("b")), PageDown: key.NewBinding(key.WithKeys("f")),
		HalfUp: key.NewBinding(key.WithKeys("u")), HalfDown: key.NewBinding(key.WithKeys("d")),
		Top: key.NewBinding(key.WithKeys("g")), Bottom: key.NewBinding(key.WithKeys("G")),
	}
	for _, tc := range []struct {
		key                string
		cursor, offset, ok int // ok 1 when the key is one of nav's
	}{
		{"k", 4, 2, 1}, {"j", 6, 2, 1}, {"b", -5, -8, 1}, {"f", 15, 12, 1},
		{"u", 0, 2, 1}, {"d", 10, 2, 1}, {"g", 0, 2, 1}, {"G", 29, 2, 1}, {"x", 5, 2, 0},
	} {
		c, o, ok := Move(tea.KeyPressMsg{Code: rune(tc.key[0]), Text: tc.key}, nav, 5, 2, 10, 30)
		if c != tc.cursor || o != tc.offset || ok != (tc.ok == 1) {
			t.Errorf("Move(%q) = %d, %d, %v; want %d, %d, %v", tc.key, c, o, ok, tc.cursor, tc.offset, tc.ok == 1)
		}
	}
}

func TestScrollAndWindow(t *testing.T) {
	for _, tc := range []struct{ cursor, offset, height, n, wantC, wantO int }{
		{5, 0, 10, 30, 5, 0},
		{-3, -8, 10, 30, 0, 0},
		{40, 0, 10, 30, 29, 20}, // past the end: the last row, the last page
		{12, 0, 10, 30, 12, 3},  // below the window: it follows
		{2, 5, 10, 30, 2, 2},    // above the window: it follows
		{3, 25, 10, 30, 3, 3},   // no empty rows at the end
		{0, 4, 10, 0, 0, 0},     // no rows
	} {
		c, o := Scroll(tc.cursor, tc.offset, tc.height, tc.n)
		if c != tc.wantC || o != tc.wantO {
			t.Errorf("Scroll(%d, %d, %d, %d) = %d, %d; want %d, %d", tc.cursor, tc.offset, tc.height, tc.n, c, o, tc.wantC, tc.wantO)
		}
	}
	// A frame shorter than the kept height moves down only as far as the cursor needs.
	if f, e := Window(9, 0, 4, 30); f != 6 || e != 10 {
		t.Errorf("Window(9, 0, 4, 30) = %d, %d; want 6, 10", f, e)
	}
	if f, e := Window(2, 0, 10, 5); f != 0 || e != 5 {
		t.Errorf("Window(2, 0, 10, 5) = %d, %d; want 0, 5", f, e)
	}
}

func TestMatchesAndPosition(t *testing.T) {
	terms := Terms("  P5  Us-East ")
	if !Matches("p5.48xlarge us-east-1", terms) || Matches("p5.48xlarge eu-west-1", terms) {
		t.Errorf("Matches with %q is wrong", terms)
	}
	if got, want := Position(2, 5, 9, "start", true), "3 of 5 (filtered from 9) · sorted by start ▼"; got != want {
		t.Errorf("Position = %q, want %q", got, want)
	}
	if got, want := Position(0, 0, 0, "fee", false), "0 of 0 · sorted by fee ▲"; got != want {
		t.Errorf("Position = %q, want %q", got, want)
	}
}
