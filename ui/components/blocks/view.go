package blocks

import (
	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// RowStyle draws a block in its warning's colour, red or amber, and one that has ended or
// will never run faint.
func (s schema) RowStyle(r *row, th *theme.Theme) lipgloss.Style {
	w := s.rules.Top(r.b, s.now).Kind
	switch {
	case w != NoWarning && w.Red():
		return th.Error
	case w != NoWarning:
		return th.Warning
	case r.b.State == model.StateExpired || r.b.WillNotRun():
		return th.Muted
	}
	return th.Value
}

// CursorCell keeps the cursor's row's warning visible: the warning cell is drawn in the
// warning's colour on the cursor's background.
func (s schema) CursorCell(r *row, c int, th *theme.Theme) (lipgloss.Style, bool) {
	if Column(c) != ColWarning || s.rules.Top(r.b, s.now).Kind == NoWarning {
		return lipgloss.Style{}, false
	}
	return th.Selected.Foreground(s.RowStyle(r, th).GetForeground()), true
}
