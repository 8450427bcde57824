package ui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
)

// defaultBlocksRefresh is how often the blocks are listed again when Options.Refresh is 0.
const defaultBlocksRefresh = 30 * time.Second

// blocksScreen is the state of the blocks screen (issue 7). The list is loaded and
// refreshed whatever the screen, because the header counts its warnings on every screen and
// the bell rings for them; the one-second countdown tick runs only while it is visible.
type blocksScreen struct {
	table    blocks.Model
	list     []model.Block
	loaded   bool // a listing arrived
	loading  bool
	id       int // of the latest listing; older answers are dropped
	cancel   context.CancelFunc
	err      error
	problems []BlockProblem
	regions  []string  // of the latest listing
	at       time.Time // backend time of the latest listing
	timer    int       // generation of the auto-refresh timer; older ticks are dropped
	ticking  bool      // the one-second tick is in flight
	// detail: the block's detail has the focus (the moving keys scroll it); on narrow
	// terminals it fills the body.
	detail bool
	scroll pager.Scroll // of the selected block's detail; another block's opens at its top
	// notified holds every (block, warning) that has rung, so that each rings once.
	notified  map[string]bool
	notifyOff bool
	fees      map[string]model.Money // of the latest listing
	quiet     []string               // regions not listed this time (no blocks when last listed)
}

type blocksMsg struct {
	id   int
	list BlockList
	err  error
}

// notifiedMsg is the outcome of delivering warnings outside the terminal.
type notifiedMsg struct{ failures []string }

// blocksTimerMsg is the auto-refresh; blocksTickMsg the countdown's second.
type blocksTimerMsg struct{ gen int }
type blocksTickMsg struct{}

// blocksRefreshMsg asks for a listing now (after an extension, a purchase, a launch).
type blocksRefreshMsg struct{}

// openedMsg is the answer of the system opener.
type openedMsg struct {
	url string
	err error
}

func newBlocksScreen(m *Model) {
	m.blocks = blocksScreen{table: blocks.New(m.pc.Theme), notified: map[string]bool{}, notifyOff: m.opts.NoNotify}
	m.blocks.table.SetRules(m.warnRules())
}

// warnRules are the lead times the warnings follow: the options', or a day ahead.
func (m Model) warnRules() model.WarnRules {
	if len(m.opts.WarnRules.Leads) == 0 {
		return model.DefaultWarnRules()
	}
	return m.opts.WarnRules
}

// blocksRegions are the regions the blocks are listed in: every region that sells Capacity
// Blocks, so that a block bought from another machine is never missing (the backend lists
// the regions found empty only now and then); with --region, those regions and the regions
// of the blocks already listed, so that a block once seen keeps its warnings in the header.
func (m Model) blocksRegions() []string {
	if len(m.opts.BlockRegions) == 0 {
		return model.Regions()
	}
	var out []string
	add := func(r string) {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, r := range m.opts.BlockRegions {
		add(r)
	}
	for _, r := range m.blocks.table.Regions() {
		add(r)
	}
	slices.Sort(out)
	return out
}

func (m Model) refreshEvery() time.Duration {
	if m.opts.Refresh > 0 {
		return m.opts.Refresh
	}
	return defaultBlocksRefresh
}

// loadBlocks lists the blocks now; the auto-refresh timer starts again from its answer.
func (m Model) loadBlocks() (Model, tea.Cmd) { return m.listBlocks(false) }

// rescanBlocks lists the blocks of every region now, the quiet ones too: something was
// bought, or the person asked.
func (m Model) rescanBlocks() (Model, tea.Cmd) { return m.listBlocks(true) }

func (m Model) listBlocks(all bool) (Model, tea.Cmd) {
	b := m.pc.Backend
	if b == nil || m.connecting {
		return m, nil
	}
	if m.blocks.cancel != nil {
		m.blocks.cancel()
	}
	ctx, cancel := context.WithCancel(m.pc.Ctx)
	m.blocks.id++
	m.blocks.timer++ // the pending timer is replaced by the one this answer starts
	m.blocks.cancel, m.blocks.loading = cancel, true
	id, regions := m.blocks.id, m.blocksRegions()
	return m, tea.Batch(func() tea.Msg {
		if r, ok := b.(blocksRescanner); ok && all {
			r.RescanAll()
		}
		list, err := b.Blocks(ctx, regions)
		return blocksMsg{id: id, list: list, err: err}
	}, m.spinCmd())
}

// blocksUpdate handles the blocks screen's messages; ok is false for any other.
func (m Model) blocksUpdate(msg tea.Msg) (Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case blocksMsg:
		if msg.id != m.blocks.id {
			return m, nil, true
		}
		m = m.onBlocks(msg)
		gen := m.blocks.timer
		next := tea.Tick(m.refreshEvery(), func(time.Time) tea.Msg { return blocksTimerMsg{gen} })
		m, ring := m.checkWarnings()
		return m, tea.Batch(next, ring), true
	case blocksTimerMsg:
		if msg.gen != m.blocks.timer {
			return m, nil, true
		}
		m, cmd := m.loadBlocks()
		return m, cmd, true
	case blocksRefreshMsg:
		m, cmd := m.rescanBlocks()
		return m, cmd, true
	case notifiedMsg:
		if len(msg.failures) > 0 {
			m.flash = "Notification failed: " + strings.Join(msg.failures, "; ")
		}
		return m, nil, true
	case blockPolledMsg:
		// The dialog that asked reads it too; the screen shows the block as it now is.
		if msg.found {
			m = m.showBlock(msg.block)
		}
		return m, nil, false
	case rootMsg:
		// A dialog bought, extended or launched something: the blocks change too.
		if !msg.refresh {
			return m, nil, false
		}
		m, list := m.rescanBlocks()
		mm, cmd := m.onRootMsg(msg)
		return mm.(Model), tea.Batch(list, cmd), true
	case blocksTickMsg:
		if m.screen != screenBlocks {
			m.blocks.ticking = false
			return m, nil, true
		}
		m.clock = m.pc.Clock.Now()
		m.blocks.table.SetNow(m.clock)
		m, ring := m.checkWarnings()
		return m, tea.Batch(blocksTick(), ring), true
	case openedMsg:
		if msg.err != nil {
			m.flash = "Could not open the browser (" + msg.err.Error() + "); the console URL: " + msg.url
		} else {
			m.flash = "Opened the console page in the browser."
		}
		return m, nil, true
	}
	return m, nil, false
}

func blocksTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return blocksTickMsg{} })
}

// startBlocksTick starts the countdown's tick unless one is in flight.
func (m *Model) startBlocksTick() tea.Cmd {
	if m.blocks.ticking {
		return nil
	}
	m.blocks.ticking = true
	return blocksTick()
}

func (m Model) onBlocks(msg blocksMsg) Model {
	s := &m.blocks
	s.loading, s.loaded = false, true
	s.err, s.problems, s.quiet = msg.err, msg.list.Problems, msg.list.Quiet
	if m.flash == refreshFlash {
		m.flash = "" // the listing it announced has ended
	}
	if msg.err != nil && len(msg.list.Blocks) == 0 {
		return m // keep the last list: a failed refresh does not empty the screen
	}
	if !msg.list.Now.IsZero() {
		// The UI's clock follows the backend's: the emulator's may have been moved.
		m.pc.Clock.Sync(msg.list.Now)
		s.at = msg.list.Now
	}
	m.clock = m.pc.Clock.Now()
	s.list, s.fees = msg.list.Blocks, msg.list.Fees
	s.regions = m.blocksRegions()
	before, _ := s.table.Selected()
	s.table.Set(msg.list.Blocks, msg.list.Fees, m.clock)
	if after, _ := s.table.Selected(); after.ReservationID != before.ReservationID {
		s.scroll = pager.Scroll{} // its block went away: the next one opens at its top
	}
	return m
}

// refreshFlash is said while r's listing runs, and cleared when it ends.
const refreshFlash = "Listing the blocks again…"

// showBlock puts a block as a dialog just read it into the list (a new one, bought now,
// is added), so that the screen does not show an older state than the receipt.
func (m Model) showBlock(b model.Block) Model {
	s := &m.blocks
	list := slices.Clone(s.list)
	i := slices.IndexFunc(list, func(x model.Block) bool { return x.ReservationID == b.ReservationID && x.Region == b.Region })
	if i >= 0 {
		list[i] = b
	} else {
		list = append(list, b)
	}
	s.list = list
	s.table.Set(list, s.fees, m.clock)
	return m
}

// warningsNow is every block's most urgent warning at the model's clock.
func (m Model) warningsNow() []blockWarning {
	var out []blockWarning
	rules := m.warnRules()
	for _, b := range m.blocks.list {
		if w := rules.Top(b, m.clock); w.Kind != blocks.NoWarning {
			out = append(out, blockWarning{b, w.Kind})
		}
	}
	return out
}

type blockWarning struct {
	b model.Block
	w blocks.Warning
}

// checkWarnings rings the bell and sends a desktop notification (OSC 9) for each warning
// not seen before, once per block and lead (model.Warning.Key: an extended block nearing
// its new end is news again), and hands it to Options.Notify; with notifications off they
// are marked seen without a sound, so that turning them on does not ring for old news.
// Notify gets every new warning whatever n says: the bell is the terminal's, the command
// and the webhook are for someone away from it.
func (m Model) checkWarnings() (Model, tea.Cmd) {
	type fresh struct {
		b model.Block
		w model.Warning
	}
	var news []fresh
	rules := m.warnRules()
	for _, b := range m.blocks.list {
		for _, w := range rules.Warnings(b, m.clock) {
			k := w.Key(b)
			if m.blocks.notified[k] {
				continue
			}
			m.blocks.notified[k] = true
			news = append(news, fresh{b, w})
		}
	}
	if len(news) == 0 {
		return m, nil
	}
	var cmds []tea.Cmd
	if !m.blocks.notifyOff {
		texts := make([]string, len(news))
		for i, n := range news {
			texts[i] = n.w.Sentence(n.b, m.clock)
		}
		cmds = append(cmds, ring(texts...))
	}
	if notify := m.opts.Notify; notify != nil {
		ctx, now := m.pc.Ctx, m.clock
		cmds = append(cmds, func() tea.Msg {
			var failures []string
			for _, n := range news {
				failures = append(failures, notify(ctx, n.b, n.w, now)...)
			}
			return notifiedMsg{failures}
		})
	}
	return m, tea.Batch(cmds...)
}

// switchScreen shows a screen; the blocks screen lists the blocks at once when it has not yet.
func (m Model) switchScreen(to screenID) (tea.Model, tea.Cmd) {
	if m.screen == to {
		return m, nil
	}
	m.screen = to
	if to != screenBlocks {
		return m, nil
	}
	m.clock = m.pc.Clock.Now()
	m.blocks.table.SetNow(m.clock)
	cmds := []tea.Cmd{m.startBlocksTick()}
	// Regions chosen on the search screen since the last listing are listed at once, not
	// at the next auto-refresh.
	stale := m.blocks.loaded && !slices.Equal(m.blocks.regions, m.blocksRegions())
	if !m.blocks.loading && (!m.blocks.loaded || stale) {
		var cmd tea.Cmd
		m, cmd = m.loadBlocks()
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
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

// blocksKey routes a key of the blocks screen, then shows another block's detail from its
// top, even a block scrolled before.
func (m Model) blocksKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	before, _ := m.blocks.table.Selected()
	mm, cmd := m.blocksPaneKey(k)
	if after, ok := mm.(Model); ok {
		if b, _ := after.blocks.table.Selected(); b.ReservationID != before.ReservationID {
			after.blocks.scroll = pager.Scroll{}
		}
		mm = after
	}
	return mm, cmd
}

// blocksPaneKey routes a key of the blocks screen: with the detail focused the moving keys
// scroll it, otherwise the table's keys go first; then the screen's.
func (m Model) blocksPaneKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	r := m.blocksLayout()
	m.blocks.table.SetHeight(r.rows)
	bk := m.blocksKeys
	switch {
	case m.blocks.detail && keyIs(k, m.keys.Back):
		m.blocks.detail = false
		return m, nil
	case keyIs(k, bk.Pane) && !m.blocks.table.Filtering():
		if _, ok := m.blocks.table.Selected(); ok || m.blocks.detail {
			m.blocks.detail = !m.blocks.detail
		}
		return m, nil
	case m.blocks.detail:
		if p, ok := m.blockDetailPage(r.detail.w-2, r.detail.h-2); ok {
			if s, used := m.blocks.scroll.Update(k, bk.Scroll.Nav, p); used {
				m.blocks.scroll = s
				return m, nil
			}
		}
	default:
		if t, used := m.blocks.table.Update(k); used {
			m.blocks.table = t
			return m, nil
		}
	}
	b, ok := m.blocks.table.Selected()
	switch {
	case keyIs(k, bk.Refresh):
		m.flash = refreshFlash
		mm, cmd := m.rescanBlocks()
		return mm, cmd
	case keyIs(k, bk.Notify):
		return m.toggleNotify()
	case !ok:
		if keyIs(k, bk.Details, bk.CopyID, bk.CopyBlockID, bk.Open, bk.Extend, bk.Launch) {
			m.flash = "No block selected."
		}
		return m, nil
	case keyIs(k, bk.Details):
		m.blocks.detail = true
	case keyIs(k, bk.CopyID) && blocks.IsPlan(b):
		m.flash = "Copied the training plan's ARN " + b.ARN + " to the clipboard (OSC 52)."
		return m, tea.SetClipboard(b.ARN)
	case keyIs(k, bk.CopyBlockID) && blocks.IsPlan(b):
		cmd := blocks.PlanUseCommand(b)
		if cmd == "" {
			m.flash = "This plan names no resource to use it with."
			return m, nil
		}
		m.flash = "Copied the AWS CLI line that uses the plan to the clipboard (OSC 52)."
		return m, tea.SetClipboard(cmd)
	case keyIs(k, bk.Launch) && blocks.IsPlan(b):
		m.flash = "A training plan is not launched into: SageMaker runs what is given its ARN (d shows how)."
		return m, nil
	case keyIs(k, bk.CopyID):
		m.flash = "Copied the reservation id " + b.ReservationID + " to the clipboard (OSC 52)."
		return m, tea.SetClipboard(b.ReservationID)
	case keyIs(k, bk.CopyBlockID):
		if b.BlockID == "" {
			m.flash = "This block's id is not known yet."
			return m, nil
		}
		m.flash = "Copied the block id " + b.BlockID + " to the clipboard (OSC 52)."
		return m, tea.SetClipboard(b.BlockID)
	case keyIs(k, bk.Open):
		return m.openConsole(b)
	case keyIs(k, bk.Extend) && b.State == model.StatePaymentFailed:
		m.flash = payFailedFlash(b, "extended")
		return m, nil
	case keyIs(k, bk.Extend):
		return m.openExtend(b)
	case keyIs(k, bk.Launch):
		return m.openBlockLaunch(b)
	}
	return m, nil
}

// opener is the system's URL opener, "" when there is none; tests replace it. Over SSH
// (no display) xdg-open would start a text browser on the terminal the UI is drawing on,
// so there the URL is shown instead.
var opener = func() string {
	names := []string{"xdg-open", "wslview"}
	switch {
	case runtime.GOOS == "darwin":
		names = []string{"open"}
	case os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" && os.Getenv("WSL_DISTRO_NAME") == "":
		return ""
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// openConsole opens the reservation's console page where a browser opener exists, and
// otherwise shows the URL to copy.
func (m Model) openConsole(b model.Block) (tea.Model, tea.Cmd) {
	url := blocks.ConsoleURL(b)
	path := opener()
	if path == "" {
		m.flash = "No browser opener here (xdg-open, open); the console URL: " + url
		return m, nil
	}
	m.flash = "Opening " + url
	ctx := m.pc.Ctx
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := exec.CommandContext(ctx, path, url).Run()
		return openedMsg{url: url, err: err}
	}
}

// openBlockLaunch opens the launch form on the block.
func (m Model) openBlockLaunch(b model.Block) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case b.State == model.StatePaymentFailed:
		m.flash = payFailedFlash(b, "launched into")
		return m, nil
	case b.State != model.StateActive && b.State != model.StateScheduled:
		m.flash = fmt.Sprintf("Block %s is %s: instances launch only into an active block (or a scheduled one, at its start).", b.ReservationID, b.State)
		return m, nil
	}
	d, cmd := newLaunchDialog(m.actionEnv(), b)
	m.dialog = d
	return m, cmd
}

// payFailedFlash says why a payment-failed block cannot be acted on, and what to do.
func payFailedFlash(b model.Block, done string) string {
	return fmt.Sprintf("Block %s cannot be %s: its payment failed, so it will never start. Check the account's payment method (AWS Billing console), then search again (1): its capacity went back on sale.",
		b.ReservationID, done)
}
