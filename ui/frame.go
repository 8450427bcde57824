package ui

import (
	"strings"

	uiscreen "github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// frame draws content with a border and a title in its top edge (uiscreen.Box).
func frame(th theme.Theme, title, content string, r rect, focused bool) string {
	return uiscreen.Box(th, title, content, uiscreen.Rect{W: r.w, H: r.h}, focused)
}

// boxLines writes rows lines of content, each on a new line, cut or padded to inner cells,
// between two sides (a frame's and a dialog's edges).
func boxLines(b *strings.Builder, content string, rows, inner int, side string) {
	uiscreen.BoxLines(b, content, rows, inner, side)
}
