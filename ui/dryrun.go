package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/theme"
)

// dryRunLines is a dialog's answer of its dry run, written as one of its fields: the label
// "Dry run" as wide as the dialog's labels (labelWidth) and two spaces, then the answer,
// wrapped under itself, so that it starts in the column of the values above it. The lines
// carry the dialogs' left margin of two cells (where the focus mark goes on other lines);
// width is what is left after it. The whole answer takes style: allowed, refused, pending.
func dryRunLines(style lipgloss.Style, labelWidth int, answer string, width int) []string {
	const margin = "  "
	head := fmt.Sprintf("%-*s  ", labelWidth, "Dry run")
	hang := strings.Repeat(" ", len(head))
	var out []string
	for i, l := range text.Wrap(answer, max(10, width-len(head))) {
		if i == 0 {
			out = append(out, margin+style.Render(head+l))
		} else {
			out = append(out, margin+hang+style.Render(l))
		}
	}
	return out
}

// toneStyle is the theme's style of a spend machine's answer.
func toneStyle(th theme.Theme, t spend.Tone) lipgloss.Style {
	switch t {
	case spend.ToneAllowed:
		return th.OK
	case spend.ToneRefused:
		return th.Error
	case spend.ToneWarning:
		return th.Warning
	}
	return th.Muted
}
