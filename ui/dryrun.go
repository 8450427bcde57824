package ui

import (
	"charm.land/lipgloss/v2"

	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/theme"
)

func dryRunLines(style lipgloss.Style, labelWidth int, answer string, width int) []string {
	return uidialog.DryRunLines(style, labelWidth, answer, width)
}

func toneStyle(th theme.Theme, t spend.Tone) lipgloss.Style { return uidialog.ToneStyle(th, t) }
