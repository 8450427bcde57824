package ui

import (
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// frame draws content with a border and a title in its top edge (uiscreen.Box).
func frame(th theme.Theme, title, content string, r rect, focused bool) string {
	return uiscreen.Box(th, title, content, uiscreen.Rect{W: r.w, H: r.h}, focused)
}
