package text

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width counts as ansi.StringWidth does: every rune the fast path takes, alone, after a
// letter, before a combining mark or a variation selector, inside escape sequences; and
// the lines of a frame.
func TestWidthIsStringWidth(t *testing.T) {
	cases := []string{"", "abc", "\x1b[1;38;2;1;2;3mbold\x1b[m", "│ p5.48xlarge ▲ …", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
		"日本", "e\u0301", "✓ ok", "⚡", "👍🏽", "a\tb", "\x1b[", "\x1b[31", "╭─ Offerings ─╮", "$1,234.56 · ≥ 3 → 4"}
	for r := rune(0xa0); r < 0x2600; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		cases = append(cases, s, "x"+s+"y", s+"\u0301", s+"\ufe0f", s+"\u200d"+s, "\x1b[2m"+s+"\x1b[0m")
	}
	for _, s := range cases {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth %d", s, got, want)
		}
	}
	if got := Width(strings.Repeat("\x1b[38;5;99m─\x1b[m", 40)); got != 40 {
		t.Errorf("a border of 40: %d", got)
	}
}

func BenchmarkWidth(b *testing.B) {
	line := "\x1b[38;5;99m│\x1b[m us-east-1  p5.48xlarge  Dec 03 11:30  2d  $31,104.00  $81.00 ▲ \x1b[38;5;99m│\x1b[m"
	b.Run("Width", func(b *testing.B) {
		for b.Loop() {
			Width(line)
		}
	})
	b.Run("ansi.StringWidth", func(b *testing.B) {
		for b.Loop() {
			ansi.StringWidth(line)
		}
	})
}
