package help

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

func groups(n int) []screen.KeyGroup {
	var out []screen.KeyGroup
	for i := range n {
		g := screen.KeyGroup{Title: fmt.Sprintf("Group %d", i)}
		for j := range 6 {
			g.Keys = append(g.Keys, key.NewBinding(key.WithKeys(fmt.Sprintf("f%d", j)), key.WithHelp(fmt.Sprintf("k%d.%d", i, j), "does a thing")))
		}
		off := key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "buys"))
		off.SetEnabled(false)
		g.Keys = append(g.Keys, off)
		out = append(out, g)
	}
	return out
}

// A help taller than its box scrolls to its last line and no further; a key turned off is
// not offered; any other key closes it.
func TestHelpScrollsAndCloses(t *testing.T) {
	d := New(theme.New(false), groups(12), screen.Rect{W: 40, H: 12})
	v := ansi.Strip(d.View(40, 12))
	if !strings.Contains(v, "lines 1–9 of") || strings.Contains(v, "buys") {
		t.Fatalf("the first page:\n%s", v)
	}
	cur := d
	for range 200 {
		next, _, closed := cur.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
		if closed {
			t.Fatal("pgdown closed the help")
		}
		cur = next.(Model)
	}
	last := ansi.Strip(cur.View(40, 12))
	if !strings.Contains(last, "k11.5") {
		t.Errorf("the last page does not end in the last key:\n%s", last)
	}
	if cur.top != cur.maxTop() {
		t.Errorf("scrolled to line %d, past the end %d", cur.top, cur.maxTop())
	}
	if _, _, closed := cur.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); !closed {
		t.Error("x does not close the help")
	}
}
