package ui

import (
	"strings"
	"sync/atomic"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/text"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/theme"
)

// actionEnv is what the dialogs that spend money or start instances (purchase, receipt,
// launch) take from the root model. The blocks screen builds one with Model.actionEnv to
// open the launch dialog on a block.
type actionEnv struct {
	*program.Context               // theme, clock, backend, identity, shared with the root
	poll             time.Duration // between looks at a block's state
	maxSpend         *model.Money
	tags             map[string]string // default tags of a purchase
	ami              string            // default AMI of a launch
	size             rect              // the body the dialog is drawn in
	prices           *pricing.Catalog  // nil: the embedded one
}

// actionEnv is the environment of the purchase, receipt and launch dialogs.
func (m Model) actionEnv() actionEnv {
	poll := m.opts.PollInterval
	if poll <= 0 {
		poll = 3 * time.Second
	}
	env := actionEnv{Context: m.pc, poll: poll, maxSpend: m.opts.MaxSpend, tags: m.opts.DefaultTags, ami: m.opts.DefaultAMI, prices: m.opts.Prices}
	if m.pc.Width > 0 {
		l := m.layout()
		env.size = rect{m.pc.Width, m.pc.Height - l.headerH - l.footerH}
	}
	return env
}

// rootMsg asks the root, from a dialog, to say something in the status line or to run the
// search again (an offering was sold meanwhile, or bought: the results are out of date).
type rootMsg struct {
	flash   string
	refresh bool
}

// dialogSizeMsg is the size of the body a dialog is drawn in, sent when the terminal is
// resized: a confirmation that does not fit whole cannot be confirmed.
type dialogSizeMsg rect

// dialogSeq numbers dialogs, so that the answer of a closed dialog's command never reaches
// a newer one.
var dialogSeq atomic.Int64

// demoAMI is the image the launch form offers against the emulator when none is configured:
// the emulator's x86_64 Deep Learning image, or its Arm one for blocks of GB200 (Grace)
// UltraServers, since EC2 refuses an image of another architecture than the instance's.
const (
	demoAMI    = "ami-0123456789abcdef0"
	demoArmAMI = "ami-0a1b2c3d4e5f60718"
)

// demoAMIFor is the emulator's image for a block of typ.
func demoAMIFor(typ string) string {
	if t, ok := model.LookupType(typ); ok && strings.HasPrefix(t.MemberType, "p6e-gb200") {
		return demoArmAMI
	}
	return demoAMI
}

// irrevocable is said in every purchase dialog, as the purchase command says it.
const irrevocable = model.Irrevocable

// modeFrame draws a dialog in the dress of its mode, so that a LIVE one cannot be taken for
// a SIMULATED one, with colour or without: LIVE is a red double border titled
// "LIVE — REAL MONEY"; SIMULATED an amber rounded one titled "SIMULATED".
func modeFrame(th theme.Theme, simulated bool, title, content string, r rect) string {
	if r.w < 2 || r.h < 2 {
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
	inner := r.w - 2
	title = ansi.Truncate(mode+" · "+title, max(0, inner-4), "…")
	top := border.Render(tl+hz+" ") + label.Render(title) + border.Render(" "+strings.Repeat(hz, max(0, inner-3-ansi.StringWidth(title)))+tr)
	var b strings.Builder
	b.WriteString(top)
	boxLines(&b, content, r.h-2, inner, border.Render(vt))
	b.WriteString("\n" + border.Render(bl+strings.Repeat(hz, inner)+br))
	return b.String()
}

// dialogRect is the box of a dialog in a body of w×h: as tall as its content, at most the
// body, and not wider than is comfortable to read.
func dialogRect(w, h, lines int) rect {
	return rect{min(w, 104), min(h, lines+2)}
}

// placeDialog centres a dialog box horizontally in the body.
func placeDialog(box string, w int) string {
	if box == "" {
		return ""
	}
	return lipgloss.PlaceHorizontal(w, lipgloss.Center, box)
}

// fieldLines lays out "label  value" rows, wrapping long values under themselves.
func fieldLines(th theme.Theme, rows [][2]string, width int) []string {
	lw := 0
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

// wrapStyled wraps a sentence to width and renders each line with style.
func wrapStyled(style lipgloss.Style, s string, width int) []string {
	var out []string
	for _, l := range text.Wrap(s, max(10, width)) {
		out = append(out, style.Render(l))
	}
	return out
}

// exactFee is the fee as people read it, with the exact amount when cents round it (as the
// purchase command writes it).
func exactFee(m model.Money, currency string) string { return model.ExactFee(m, currency) }

// bothTimes is a time in UTC and in the local zone.
func bothTimes(t time.Time, loc *time.Location) string { return model.BothTimes(t, loc) }

// factRows are a confirmation's facts as fieldLines lays them out.
func factRows(facts []model.Fact) [][2]string {
	rows := make([][2]string, len(facts))
	for i, f := range facts {
		rows[i] = [2]string{f.Label, f.Value}
	}
	return rows
}

func countdown(d time.Duration) string { return model.PreciseSpan(d) }

// settledLines say what became of the interrupted purchases and extensions settled before
// this one, and, when it happened, that the journal could not record this one's outcome.
func settledLines(th theme.Theme, settled []string, notRecorded string, w int) []string {
	var out []string
	for _, s := range settled {
		out = append(out, wrapStyled(th.Warning, "Settled an interrupted run: "+s, w)...)
	}
	if notRecorded != "" {
		out = append(out, wrapStyled(th.Error, "The journal could not record this outcome ("+notRecorded+"); what was bought stands, and a later run settles it from AWS.", w)...)
	}
	return out
}
