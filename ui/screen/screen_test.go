package screen

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

func TestFlashApply(t *testing.T) {
	for _, c := range []struct {
		f          Flash
		line, want string
	}{
		{Flash{}, "kept", "kept"},
		{Say("new"), "old", "new"},
		{Say(""), "old", ""},
		{Unsay("listing…"), "listing…", ""},
		{Unsay("listing…"), "copied", "copied"},
	} {
		if got := c.f.Apply(c.line); got != c.want {
			t.Errorf("%+v on %q: %q, want %q", c.f, c.line, got, c.want)
		}
	}
}

// A box is exactly its size, whatever its content, and keeps its title in the top edge.
func TestBoxFits(t *testing.T) {
	th := theme.New(false)
	content := strings.Repeat("a very long line of content ", 10) + "\nsecond\nthird\nfourth\nfifth"
	for _, r := range []Rect{{10, 3}, {40, 4}, {80, 10}} {
		lines := strings.Split(Box(th, "Title of the pane", content, r, true), "\n")
		if len(lines) != r.H {
			t.Errorf("%v: %d lines", r, len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w != r.W {
				t.Errorf("%v: a line of %d cells: %q", r, w, l)
			}
		}
	}
	if got := Box(th, "t", "x", Rect{1, 5}, false); got != "" {
		t.Errorf("a box too small to draw: %q", got)
	}
	if top := strings.Split(Box(th, "Blocks", "", Rect{40, 3}, false), "\n")[0]; !strings.Contains(top, "Blocks") {
		t.Errorf("the title is not in the top edge: %q", top)
	}
}

func TestWords(t *testing.T) {
	if got := RegionList(nil) + "|" + RegionList([]string{"a", "b"}) + "|" + RegionList([]string{"a", "b", "c"}); got != "no region|a, b|3 regions" {
		t.Errorf("RegionList: %q", got)
	}
	if got := Plural(1, "block") + "|" + Plural(0, "block") + "|" + Plural(2, "warning"); got != "1 block|0 blocks|2 warnings" {
		t.Errorf("Plural: %q", got)
	}
}

// SideBySide joins two blocks as lipgloss.JoinHorizontal at the top does.
func TestSideBySideIsJoinHorizontal(t *testing.T) {
	for _, c := range [][2]string{
		{"ab\nc", "xyz\nw\nv"},
		{"\x1b[1m╭─ a ─╮\x1b[m\n│ é  │", "┏━ b\n┃ 日本"},
		{"one", ""},
		{"", "one\ntwo"},
	} {
		if got, want := SideBySide(c[0], c[1]), lipgloss.JoinHorizontal(lipgloss.Top, c[0], c[1]); got != want {
			t.Errorf("SideBySide(%q, %q) =\n%q, want\n%q", c[0], c[1], got, want)
		}
	}
}
