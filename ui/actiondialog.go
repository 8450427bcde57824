package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	uidialog "github.com/gpublock/gpublock/ui/dialog"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
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
	env := actionEnv{Context: m.pc, Poll: poll, MaxSpend: m.opts.MaxSpend, MaxSpendRule: m.opts.MaxSpendRule, Tags: m.opts.DefaultTags, AMI: m.opts.DefaultAMI, Prices: m.opts.Prices}
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

// cancelled closes a dialog saying what was not done.
func cancelled(what string) tea.Cmd { return uidialog.Cancelled(what) }
