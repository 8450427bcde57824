package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// actionEnv is what the dialogs that spend money or start instances (purchase, receipt,
// launch, extend) take from the root model; the blocks screen's launch gets one too.
type actionEnv = uidialog.Env

// actionEnv is the environment of the purchase, receipt, launch and extend dialogs.
func (m Model) actionEnv() actionEnv {
	poll := m.opts.PollInterval
	if poll <= 0 {
		poll = 3 * time.Second
	}
	env := actionEnv{Context: m.pc, Poll: poll, MaxSpend: m.opts.MaxSpend, Tags: m.opts.DefaultTags, AMI: m.opts.DefaultAMI, Prices: m.opts.Prices}
	if m.pc.Width > 0 {
		l := m.layout()
		env.Size = uiscreen.Rect{W: m.pc.Width, H: m.pc.Height - l.headerH - l.footerH}
	}
	return env
}

// The messages between the root and its dialogs are ui/dialog's.
type (
	rootMsg        = uidialog.RootMsg
	dialogSizeMsg  = uidialog.SizeMsg
	blockPolledMsg = uidialog.BlockPolledMsg
)

// The dialogs' frame and lines, for the dialogs still drawn by the root.
func modeFrame(th theme.Theme, simulated bool, title, content string, r rect) string {
	return uidialog.ModeFrame(th, simulated, title, content, uiscreen.Rect{W: r.w, H: r.h})
}

func dialogRect(w, h, lines int) rect {
	r := uidialog.BoxRect(w, h, lines)
	return rect{r.W, r.H}
}

func placeDialog(box string, w int) string { return uidialog.Place(box, w) }

func fieldLines(th theme.Theme, rows [][2]string, width int) []string {
	return uidialog.FieldLines(th, rows, width)
}

func wrapStyled(style lipgloss.Style, s string, width int) []string {
	return uidialog.WrapStyled(style, s, width)
}

// exactFee is the fee as people read it, with the exact amount when cents round it (as the
// purchase command writes it).
func exactFee(m model.Money, currency string) string { return model.ExactFee(m, currency) }

// bothTimes is a time in UTC and in the local zone.
func bothTimes(t time.Time, loc *time.Location) string { return model.BothTimes(t, loc) }

func factRows(facts []model.Fact) [][2]string { return uidialog.FactRows(facts) }

func countdown(d time.Duration) string { return uidialog.Countdown(d) }

func settledLines(th theme.Theme, settled []string, notRecorded string, w int) []string {
	return uidialog.SettledLines(th, settled, notRecorded, w)
}

func sleep(ctx context.Context, d time.Duration) bool { return uidialog.Sleep(ctx, d) }

func pollBlock(env actionEnv, dialog int64, b model.Block, wait time.Duration) tea.Cmd {
	return uidialog.PollBlock(env, dialog, b, wait)
}

func blockSettled(s model.BlockState) bool { return uidialog.BlockSettled(s) }

// cancelled closes a dialog saying what was not done.
func cancelled(what string) tea.Cmd { return uidialog.Cancelled(what) }

func envCtx(env actionEnv) context.Context { return env.CallCtx() }
