package dialog

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// ModeFrame draws a dialog in the dress of its mode, so that a LIVE one cannot be taken for
// a SIMULATED one, with colour or without: LIVE is a red double border titled
// "LIVE — REAL MONEY"; SIMULATED an amber rounded one titled "SIMULATED".
func ModeFrame(th theme.Theme, simulated bool, title, content string, r screen.Rect) string {
	if r.W < 2 || r.H < 2 {
		return ""
	}
	border, label := th.Error, th.Error.Bold(true)
	tl, tr, bl, br, hz, vt := "╔", "╗", "╚", "╝", "═", "║"
	mode := "LIVE — REAL MONEY"
	if simulated {
		border, label = th.Warning, th.Warning.Bold(true)
		tl, tr, bl, br, hz, vt = "╭", "╮", "╰", "╯", "┄", "┆"
		mode = "SIMULATED — nothing real"
	}
	if th.Accessible {
		return screen.Unboxed(label, mode+" · "+title, false, content, r)
	}
	inner := r.W - 2
	title = ansi.Truncate(mode+" · "+title, max(0, inner-4), "…")
	top := border.Render(tl+hz+" ") + label.Render(title) + border.Render(" "+strings.Repeat(hz, max(0, inner-3-ansi.StringWidth(title)))+tr)
	var b strings.Builder
	b.WriteString(top)
	screen.BoxLines(&b, content, r.H-2, inner, border.Render(vt))
	b.WriteString("\n" + border.Render(bl+strings.Repeat(hz, inner)+br))
	return b.String()
}

// MaxWidth is the widest a dialog is drawn: wider is not comfortable to read.
const MaxWidth = 104

// BoxRect is the box of a dialog in a body of w×h: as tall as its content, at most the
// body, and not wider than MaxWidth.
func BoxRect(w, h, lines int) screen.Rect {
	return screen.Rect{W: min(w, MaxWidth), H: min(h, lines+2)}
}

// Place centres a dialog box horizontally in the body.
func Place(box string, w int) string {
	if box == "" {
		return ""
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, box)
}

// FieldLines lays out "label  value" rows, wrapping long values under themselves.
func FieldLines(th theme.Theme, rows [][2]string, width int) []string {
	return FieldLinesAt(th, rows, 0, width)
}

// FieldLinesAt is FieldLines with labels at least labelWidth wide, so that fields the
// dialog draws itself below the facts (tags, dry run) start their values in the same column.
func FieldLinesAt(th theme.Theme, rows [][2]string, labelWidth, width int) []string {
	lw := labelWidth
	for _, r := range rows {
		lw = max(lw, ansi.StringWidth(r[0]))
	}
	var out []string
	for _, r := range rows {
		vw := max(10, width-lw-2)
		for i, part := range text.Wrap(r[1], vw) {
			lab := strings.Repeat(" ", lw)
			if i == 0 {
				lab = r[0] + strings.Repeat(" ", lw-ansi.StringWidth(r[0]))
			}
			out = append(out, th.Label.Render(lab)+"  "+th.Value.Render(part))
		}
	}
	return out
}

// WrapStyled wraps a sentence to width and renders each line with style.
func WrapStyled(style lipgloss.Style, s string, width int) []string {
	var out []string
	for _, l := range text.Wrap(s, max(10, width)) {
		out = append(out, style.Render(l))
	}
	return out
}

// FactRows are a confirmation's facts as FieldLines lays them out.
func FactRows(facts []model.Fact) [][2]string {
	rows := make([][2]string, len(facts))
	for i, f := range facts {
		rows[i] = [2]string{f.Label, f.Value}
	}
	return rows
}

// SettledLines say what became of the interrupted purchases and extensions settled before
// this one, and, when it happened, that the journal could not record this one's outcome.
func SettledLines(th theme.Theme, settled []source.Settled, notRecorded string, w int) []string {
	var out []string
	for _, s := range settled {
		out = append(out, WrapStyled(th.Warning, "Settled an interrupted run: "+s.Sentence(), w)...)
	}
	if notRecorded != "" {
		out = append(out, WrapStyled(th.Error, "The journal could not record this outcome ("+notRecorded+"); what was bought stands, and a later run settles it from AWS.", w)...)
	}
	return out
}

// DryRunLines is a dialog's answer of its dry run, written as one of its fields: the label
// "Dry run" as wide as the dialog's labels (labelWidth) and two spaces, then the answer,
// wrapped under itself, so that it starts in the column of the values above it. The lines
// carry the dialogs' left margin of two cells (where the focus mark goes on other lines);
// width is what is left after it. The whole answer takes style: allowed, refused, pending.
func DryRunLines(style lipgloss.Style, labelWidth int, answer string, width int) []string {
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

// ToneStyle is the theme's style of a spend machine's answer.
func ToneStyle(th theme.Theme, t spend.Tone) lipgloss.Style {
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
