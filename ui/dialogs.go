package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	uidialog "github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/compare"
	"github.com/gpublock/gpublock/ui/dialog/extend"
	helpdialog "github.com/gpublock/gpublock/ui/dialog/help"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/order"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/dialog/use"
	"github.com/gpublock/gpublock/ui/program"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
)

// A dialog is a modal view on top of the screen, each in its package under ui/dialog
// (purchase, receipt, launch, extend, compare, help). While one is open it gets every key,
// and every message the root does not handle itself (the answers of its own commands); it
// returns closed=true to go away. Screens ask for one (uiscreen.OpenPurchase…); the root
// builds it, as only it knows the spending cap, the tags and whether anything may be spent.

// actionEnv is the environment of the purchase, receipt, launch and extend dialogs.
func (m Model) actionEnv() uidialog.Env {
	poll := m.opts.PollInterval
	if poll <= 0 {
		poll = 3 * time.Second
	}
	env := uidialog.Env{Context: m.pc, Poll: poll, MaxSpend: m.opts.MaxSpend, MaxSpendRule: m.opts.MaxSpendRule, Tags: m.opts.DefaultTags, AMI: m.opts.DefaultAMI, Prices: m.opts.Prices,
		Organization: m.opts.Organization, OrganizationPartial: m.opts.OrganizationPartial}
	if m.pc.Width > 0 {
		l := m.layout()
		env.Size = uiscreen.Rect{W: m.pc.Width, H: m.pc.Height - l.headerH - l.footerH}
	}
	return env
}

func (m Model) updateDialog(msg tea.Msg) (tea.Model, tea.Cmd) {
	d, cmd, closed := m.dialog.Update(msg)
	if !closed {
		m.dialog = d
		return m, cmd
	}
	m.dialog = nil
	m, back := m.giveBackAsks()
	return m, tea.Batch(cmd, back)
}

// giveBackAsks gives the blocks screen back the auto-extension's asks that came while a
// dialog was open, now that none is: it looks them up again, and asks those still due.
func (m Model) giveBackAsks() (Model, tea.Cmd) {
	var cmds []tea.Cmd
	for _, k := range m.deferredAsks {
		cmds = append(cmds, func() tea.Msg { return blockscreen.AutoExtendDeferred{Key: k} })
	}
	m.deferredAsks = nil
	return m, tea.Batch(cmds...)
}

// openDialog opens what a screen asked for.
func (m Model) openDialog(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case uiscreen.OpenPurchase:
		if msg.FromRows {
			return m.openPurchaseFromRows(msg.Offering, msg.Rows)
		}
		return m.openPurchaseOf(msg.Offering)
	case uiscreen.OpenExtend:
		return m.openExtend(msg)
	case uiscreen.OpenLaunch:
		return m.openBlockLaunch(msg.Block, msg.Group)
	case uiscreen.OpenCompare:
		m.dialog = compare.New(m.pc.Theme, msg.Comparisons, compare.KeyMap{Back: msg.Back, Compare: msg.Compare})
		return m, nil
	case uiscreen.OpenUse:
		m.dialog = use.NewGroup(m.pc.Theme, msg.Block, msg.Group, m.actionEnv().Size, use.DefaultKeyMap(msg.Scroll))
		return m, nil
	case uiscreen.OpenOrder:
		if m.pc.ReadOnly {
			m.flash = "Read-only: no order can be placed."
			return m, nil
		}
		m.dialog = order.NewPlace(m.actionEnv(), msg.Query)
		return m, nil
	case uiscreen.OpenOrders:
		d, cmd := order.NewList(m.actionEnv(), m.opts.Refresh)
		m.dialog = d
		return m, cmd
	}
	return m, nil
}

// onRootMsg does what a dialog asks of the root.
func (m Model) onRootMsg(msg uidialog.RootMsg) (tea.Model, tea.Cmd) {
	if msg.Flash != "" {
		m.flash = msg.Flash
	}
	if !msg.Refresh {
		return m, nil
	}
	// A dialog bought, extended or launched something: every screen reads again.
	m, read := m.tellScreens(func(s uiscreen.Screen) (uiscreen.Screen, tea.Cmd) { return s.Changed() })
	m = m.closeStalePurchase()
	var back tea.Cmd
	if m.dialog == nil {
		m, back = m.giveBackAsks()
	}
	return m, tea.Batch(read, m.spinCmd(), back)
}

// openPurchaseFromRows opens the purchase of an offering picked from the search screen's
// rows numbered rows, unless they are no longer the rows of the search on screen (a new
// search started between the key and now).
func (m Model) openPurchaseFromRows(o model.Offering, rows int64) (tea.Model, tea.Cmd) {
	if why := m.rowsGone(rows); why != "" {
		m.flash = why
		return m, nil
	}
	mm, cmd := m.openPurchaseOf(o)
	if n := mm.(Model); n.dialog != nil {
		n.buyRows = &rows
		return n, cmd
	}
	return mm, cmd
}

// closeStalePurchase closes a purchase dialog whose rows were replaced while it was open:
// it must not stay buyable over rows it did not show. One already sent stays: its answer
// must be read.
func (m Model) closeStalePurchase() Model {
	d, ok := m.dialog.(purchase.Model)
	if !ok {
		m.buyRows = nil
		return m
	}
	if m.buyRows == nil || d.Sent() {
		return m
	}
	if why := m.rowsGone(*m.buyRows); why != "" {
		m.dialog, m.buyRows = nil, nil
		m.flash = "Closed the purchase dialog: " + why
	}
	return m
}

// rowsGone is why the rows numbered rows, an offering was picked from, are no longer on
// screen ("" while they are).
func (m Model) rowsGone(rows int64) string {
	for _, s := range m.screens {
		if why := s.RowsGone(rows); why != "" {
			return why
		}
	}
	return ""
}

// openPurchaseOf opens the purchase dialog on an offering a screen chose (the search's
// selected row, the advisor's option), unless nothing can be bought here.
func (m Model) openPurchaseOf(o model.Offering) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		m.flash = "Read-only: nothing can be bought."
		return m, nil
	case m.pc.Backend == nil:
		m.flash = "Not connected, so nothing can be bought."
		return m, nil
	case o.Started(m.pc.Now()):
		// Whichever screen it was picked on (the search's rows, the advisor's calendar).
		m.flash = o.StartedSentence(m.pc.Location)
		return m, nil
	}
	d, cmd := purchase.New(m.actionEnv(), o)
	m.dialog, m.buyRows = d, nil
	return m, cmd
}

// openBlockLaunch opens the launch form on the block, which offers to launch across the
// reservations its purchase made with it (group).
func (m Model) openBlockLaunch(b model.Block, group []model.Block) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case b.State == model.StatePaymentFailed:
		m.flash = blockscreen.PayFailed(b, "launched into")
		return m, nil
	case b.State != model.StateActive && b.State != model.StateScheduled && b.State != model.StatePaymentPending:
		m.flash = fmt.Sprintf("Block %s is %s: instances launch only into an active block (or, at its start, one that has not started).", b.ReservationID, b.State)
		return m, nil
	}
	env, why := m.blockEnv(b)
	if why != "" {
		m.flash = why
		return m, nil
	}
	d, cmd := launch.NewInGroup(env, b, group)
	m.dialog = d
	return m, cmd
}

// blockEnv is the environment of a dialog about block b: with the blocks of several
// accounts listed, its calls go to the account that owns b, which pays, and its
// confirmation names that account. why, when not "", is why nothing can be done with b
// here: it is of an account none of the profiles reaches.
func (m Model) blockEnv(b model.Block) (env uidialog.Env, why string) {
	env = m.actionEnv()
	accts, ok := m.pc.Backend.(source.Accounts)
	if !ok || b.Account == "" || b.Account == m.pc.Account() {
		return env, ""
	}
	be, ok := accts.In(b.Account)
	if !ok {
		return env, fmt.Sprintf("%s belongs to account %s, which none of the profiles reaches: run gpublock --profile with that account's profile.", b.ReservationID, b.Account)
	}
	pc := *m.pc
	pc.Backend, pc.Identity = be, program.Identity{Identity: source.Identity{Account: b.Account}, Known: true}
	env.Context = &pc
	return env, ""
}

// openExtend opens the extend dialog on a block that can be extended; on the
// auto-extension policy's ask, the dialog records the person's decision.
func (m Model) openExtend(msg uiscreen.OpenExtend) (tea.Model, tea.Cmd) {
	b, days := msg.Block, msg.Days
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case model.ExtendBlockerAt(b, m.pc.Clock.Now()) != nil:
		// Known without asking: past the cutoff, a payment pending, no length left.
		m.flash = model.ExtendBlockerAt(b, m.pc.Clock.Now()).Sentence()
		return m, nil
	}
	if days == 0 {
		days = m.opts.ExtendDays
	}
	env, why := m.blockEnv(b)
	if why != "" {
		m.flash = why
		return m, nil
	}
	d, cmd := extend.Open(env, m.opts.Prices, b, days)
	if msg.Ask != nil {
		d = d.Asked(*msg.Ask)
	}
	m.dialog = d
	return m, cmd
}

// openHelp opens the help on the keys of the screen shown.
func (m Model) openHelp() Model {
	m.dialog = helpdialog.New(m.pc.Theme, m.helpKeys().groups, m.actionEnv().Size)
	return m
}

// dialogFooterLine is the footer's key line while d is open: a dialog takes every key, so
// the footer names its keys, not those of the screen behind it. false for the help, which
// leaves the screen's short help under it, the keys it explains.
func dialogFooterLine(d uidialog.Dialog) (string, bool) {
	if _, ok := d.(helpdialog.Model); ok {
		return "", false
	}
	if f, ok := d.(uidialog.Footer); ok {
		return f.Footer(), true
	}
	return "esc closes • ctrl+c quits", true
}
