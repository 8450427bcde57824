package text

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is the cells s takes on a terminal, as ansi.StringWidth counts them, without
// splitting it into grapheme clusters when it need not: a frame's lines are ASCII, escape
// sequences and a few box-drawing and punctuation runes, each one cell and one cluster.
// Anything else (wide, combining, emoji) goes to ansi.StringWidth whole.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			// CSI (ESC [ … final byte) takes no cell; any other escape is measured in full.
			if i+1 >= len(s) || s[i+1] != '[' {
				return ansi.StringWidth(s)
			}
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j == len(s) {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c < utf8.RuneSelf:
			return ansi.StringWidth(s) // a control character
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !oneCell(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		}
	}
	return n
}

// oneCell reports a rune that is one cell and a grapheme cluster of its own whatever
// follows it, save a combining mark (which is not oneCell, so the string is measured in
// full): Latin-1's letters and signs, and the punctuation, arrows, box drawing, blocks and
// geometric shapes the panes draw with (not the shapes that emoji presentation widens).
func oneCell(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0xff && r != 0xad:
		return true
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e:
		return true
	case r >= 0x2190 && r <= 0x21ff && r != 0x2194 && r != 0x2195 && r != 0x2196 && r != 0x2197 && r != 0x2198 && r != 0x2199 && r != 0x21a9 && r != 0x21aa:
		return true
	case r >= 0x2200 && r <= 0x22ff:
		return true
	case r >= 0x2500 && r <= 0x25fc && r != 0x25aa && r != 0x25ab && r != 0x25b6 && r != 0x25c0 && r != 0x25fb:
		return true
	}
	return false
}

// Truncate is ansi.Truncate, which measures s cluster by cluster, for s that fits already
// returned as it is after Width's quicker count.
func Truncate(s string, width int, tail string) string {
	if Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, tail)
}
