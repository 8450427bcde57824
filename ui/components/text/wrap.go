// Package text holds the word wrapping every pane of the program uses, so that messages,
// details and form notes break at the same places.
package text

import (
	"strings"
)

// Wrap breaks s into lines of at most width cells at spaces. Any run of white space, line
// breaks included, counts as one space; a word longer than width stands alone on its line
// (callers cut it). Widths below 8 are taken as 8 so that narrow panes still show whole
// words. An empty s gives one empty line.
func Wrap(s string, width int) []string {
	width = max(width, 8)
	var out []string
	line, lineW := "", 0
	for _, w := range strings.Fields(s) {
		ww := Width(w)
		switch {
		case line == "":
			line, lineW = w, ww
		case lineW+1+ww <= width:
			line += " " + w
			lineW += 1 + ww
		default:
			out = append(out, line)
			line, lineW = w, ww
		}
	}
	return append(out, line)
}

// WrapParagraphs is Wrap for text whose line breaks are meant: each line of s is wrapped on
// its own, and an empty line stays an empty line.
func WrapParagraphs(s string, width int) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, Wrap(para, width)...)
	}
	return out
}
