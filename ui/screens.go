package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/dialog/compare"
	"github.com/gpublock/gpublock/ui/dialog/launch"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
	blockscreen "github.com/gpublock/gpublock/ui/screen/blocks"
	searchscreen "github.com/gpublock/gpublock/ui/screen/search"
)

// screenKeyMap switches screens. The digits and brackets are letters in a text field, so
// they work where keys are not text; alt+1 and alt+2 work everywhere.
type screenKeyMap struct {
	Search, Blocks, Next, Prev key.Binding
}

func defaultScreenKeys() screenKeyMap {
	return screenKeyMap{
		Search: key.NewBinding(key.WithKeys("1", "alt+1"), key.WithHelp("1", "search screen")),
		Blocks: key.NewBinding(key.WithKeys("2", "alt+2"), key.WithHelp("2", "blocks screen")),
		Next:   key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next screen")),
		Prev:   key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous screen")),
	}
}

// area is the body a screen is drawn in, between the header and the footer; zero when the
// terminal is too small or not sized yet.
func (m Model) area() uiscreen.Area {
	l := m.layout()
	if m.pc.Width == 0 || l.tooSmall {
		return uiscreen.Area{}
	}
	return uiscreen.Area{Top: l.headerH, Width: m.pc.Width, Height: m.pc.Height - l.headerH - l.footerH}
}

// blocksNow is the blocks screen as it is drawn now: in the body, with the root's spinner.
func (m Model) blocksNow() blockscreen.Model {
	s := m.blocks
	s.SetArea(m.area())
	s.SetSpinner(m.spin.View())
	return s
}

// searchNow is the search screen as it is drawn now: in the body, with the root's spinner,
// clock and notifications switch.
func (m Model) searchNow() searchscreen.Model {
	s := m.search
	s.SetArea(m.area())
	s.SetSpinner(m.spin.View())
	s.SetNow(m.clock)
	s.SetNotifyOff(m.blocks.NotifyOff())
	return s
}

// updateSearch hands a message to the search screen and takes back what it says and whether
// the spinner must turn.
func (m Model) updateSearch(msg tea.Msg) (Model, tea.Cmd) {
	s, cmd := m.searchNow().Update(msg)
	m.search = s
	m.flash = s.Flash().Apply(m.flash)
	m = m.closeStalePurchase()
	return m, tea.Batch(cmd, m.spinCmd())
}

// openPurchaseFromRows opens the purchase of an offering picked from the search screen's
// rows numbered rows, unless they are no longer the rows of the search on screen (a new
// search started between the key and now).
func (m Model) openPurchaseFromRows(o model.Offering, rows int64) (tea.Model, tea.Cmd) {
	if why := m.search.RowsOnScreen(rows); why != "" {
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
	if m.buyRows == nil || d.Busy() || d.Machine().Phase() == spend.Done {
		return m
	}
	if why := m.search.RowsOnScreen(*m.buyRows); why != "" {
		m.dialog, m.buyRows = nil, nil
		m.flash = "Closed the purchase dialog: " + why
	}
	return m
}

// updateSearchWith takes back the search screen after one of its methods, and its command.
func (m Model) updateSearchWith(s searchscreen.Model, cmd tea.Cmd) (Model, tea.Cmd) {
	m.search = s
	m = m.closeStalePurchase()
	return m, tea.Batch(cmd, m.spinCmd())
}

// updateBlocks hands a message to the blocks screen and takes back what it says, its clock
// and whether the spinner must turn.
func (m Model) updateBlocks(msg tea.Msg) (Model, tea.Cmd) {
	s, cmd := m.blocksNow().Update(msg)
	m = m.fromBlocks(s)
	return m, tea.Batch(cmd, m.spinCmd())
}

func (m Model) fromBlocks(s blockscreen.Model) Model {
	m.blocks = s
	m.flash = s.Flash().Apply(m.flash)
	m.clock = s.Now()
	return m
}

// switchScreen shows a screen; the blocks screen lists the blocks at once when it has not yet.
func (m Model) switchScreen(to screenID) (tea.Model, tea.Cmd) {
	if m.screen == to {
		return m, nil
	}
	if m.screen == screenBlocks {
		m.blocks = m.blocks.Leave()
	}
	m.screen = to
	if to != screenBlocks {
		return m, nil
	}
	s, cmd := m.blocks.Enter()
	m.blocks, m.clock = s, s.Now()
	return m, tea.Batch(cmd, m.spinCmd())
}

// screenKey handles the keys that change screens, which work wherever keys are not text.
func (m Model) screenKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	sk := m.screenKeys
	switch {
	case keyIs(k, sk.Search):
		mm, cmd := m.switchScreen(screenSearch)
		return mm, cmd, true
	case keyIs(k, sk.Blocks):
		mm, cmd := m.switchScreen(screenBlocks)
		return mm, cmd, true
	case keyIs(k, advisorScreenKey):
		mm, cmd := m.switchScreen(screenAdvisor)
		return mm, cmd, true
	case keyIs(k, sk.Next):
		mm, cmd := m.switchScreen((m.screen + 1) % numScreens)
		return mm, cmd, true
	case keyIs(k, sk.Prev):
		mm, cmd := m.switchScreen((m.screen + numScreens - 1) % numScreens)
		return mm, cmd, true
	}
	return m, nil, false
}

// toggleNotify is n, on any screen: one switch for the blocks' warnings and the watch's
// news alike.
func (m Model) toggleNotify() (tea.Model, tea.Cmd) {
	s := m.blocks.ToggleNotify()
	m.blocks, m.flash = s, s.Flash().Apply(m.flash)
	return m, nil
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
	}
	d, cmd := purchase.New(m.actionEnv(), o)
	m.dialog, m.buyRows = d, nil
	return m, cmd
}

// openCompare shows the marked offerings the search screen sends on one chart.
func (m Model) openCompare(cs []pricing.Comparison) (tea.Model, tea.Cmd) {
	km := m.search.KeyMap()
	m.dialog = compare.New(m.pc.Theme, cs, compare.KeyMap{Back: km.Back, Compare: km.Compare})
	return m, nil
}

// openBlockLaunch opens the launch form on the block.
func (m Model) openBlockLaunch(b model.Block) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case b.State == model.StatePaymentFailed:
		m.flash = blockscreen.PayFailed(b, "launched into")
		return m, nil
	case b.State != model.StateActive && b.State != model.StateScheduled:
		m.flash = fmt.Sprintf("Block %s is %s: instances launch only into an active block (or a scheduled one, at its start).", b.ReservationID, b.State)
		return m, nil
	}
	d, cmd := launch.New(m.actionEnv(), b)
	m.dialog = d
	return m, cmd
}
