package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/theme"
)

// frame draws content with a border and a title in its top edge; focused panes get a bold
// or coloured border, which still shows without colour.
func frame(th theme.Theme, title, content string, r rect, focused bool) string {
	if r.w < 2 || r.h < 2 {
		return ""
	}
	bs, ts := th.Border, th.Label
	if focused {
		bs, ts = th.BorderFocused, th.Focused
	}
	inner := r.w - 2
	title = ansi.Truncate(title, max(0, inner-4), "…")
	top := bs.Render("╭─ ") + ts.Render(title) + bs.Render(" "+strings.Repeat("─", max(0, inner-3-ansi.StringWidth(title)))+"╮")
	if focused && !th.Color {
		top = bs.Render("┏━ ") + ts.Render(title) + bs.Render(" "+strings.Repeat("━", max(0, inner-3-ansi.StringWidth(title)))+"┓")
	}
	side, bottom := "│", "╰"+strings.Repeat("─", inner)+"╯"
	if focused && !th.Color {
		side, bottom = "┃", "┗"+strings.Repeat("━", inner)+"┛"
	}
	var b strings.Builder
	b.WriteString(top)
	boxLines(&b, content, r.h-2, inner, bs.Render(side))
	b.WriteString("\n" + bs.Render(bottom))
	return b.String()
}

// boxLines writes rows lines of content, each on a new line, cut or padded to inner cells,
// between two sides (a frame's and a dialog's edges).
func boxLines(b *strings.Builder, content string, rows, inner int, side string) {
	lines := strings.Split(content, "\n")
	for i := range rows {
		l := ""
		if i < len(lines) {
			l = lines[i]
		}
		w := ansi.StringWidth(l)
		if w > inner {
			l = ansi.Truncate(l, inner, "…")
			w = ansi.StringWidth(l)
		}
		b.WriteString("\n" + side + l + strings.Repeat(" ", inner-w) + side)
	}
}
