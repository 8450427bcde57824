package pager

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/components/table"
	"github.com/gpublock/gpublock/ui/theme"
)

var nav = table.Nav{
	Up: key.NewBinding(key.WithKeys("k")), Down: key.NewBinding(key.WithKeys("j")),
	Top: key.NewBinding(key.WithKeys("g")), Bottom: key.NewBinding(key.WithKeys("G")),
}

func press(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: []rune(s)[0], Text: s} }

// Spacers are blank lines while everything fits, and go first when it does not; a page
// longer than the pane ends with the line that says what is left, naming the key only
// when focused; G reaches the last line; another id starts at the top.
func TestPage(t *testing.T) {
	lines := []string{"one", Spacer, "two", Spacer, "three", "four", "five"}
	if v := New(theme.New(false), "a", lines, 20, 7).View(Scroll{}, true); v != "one\n\ntwo\n\nthree\nfour\nfive" {
		t.Errorf("a pane tall enough: %q", v)
	}
	p := New(theme.New(false), "a", lines, 40, 4)
	if p.Lines() != 5 {
		t.Fatalf("%d lines in a short pane, want the 5 without spacers", p.Lines())
	}
	if v := ansi.Strip(p.View(Scroll{}, false)); v != "one\ntwo\nthree\n↓ 2 more lines" {
		t.Errorf("the top, unfocused: %q", v)
	}
	s, used := Scroll{}.Update(press("G"), nav, p)
	if v := ansi.Strip(p.View(s, true)); !used || v != "three\nfour\nfive\n↑ 2 lines above · j/k scroll" {
		t.Errorf("the end, focused: %q", v)
	}
	if _, used := s.Update(press("x"), nav, p); used {
		t.Error("x scrolled")
	}
	if top := s.Top(New(theme.New(false), "b", lines, 40, 4)); top != 0 {
		t.Errorf("another page starts at line %d", top)
	}
	if v := New(theme.New(false), "a", lines, 0, 4).View(Scroll{}, true); v != "" || strings.Contains(v, "\n") {
		t.Errorf("a pane of no width: %q", v)
	}
}
