package screen

import (
	"testing"

	"charm.land/lipgloss/v2"
)

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
