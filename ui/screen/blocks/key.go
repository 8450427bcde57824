package blocks

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/components/pager"
	"github.com/gpublock/gpublock/ui/screen"
)

// key routes a key, then shows another block's detail from its top, even a block scrolled
// before.
func (m Model) key(k tea.KeyPressMsg) (Model, tea.Cmd) {
	before, _ := m.table.Selected()
	m, cmd := m.paneKey(k)
	if b, _ := m.table.Selected(); b.ReservationID != before.ReservationID {
		m.scroll = pager.Scroll{}
	}
	return m, cmd
}

// paneKey routes a key: with the detail focused the moving keys scroll it, otherwise the
// table's keys go first; then the screen's.
func (m Model) paneKey(k tea.KeyPressMsg) (Model, tea.Cmd) {
	if m.Asking() {
		return m.answer(k) // the question takes the next key, whatever it is
	}
	r := m.layout()
	m.table.SetHeight(r.rows)
	bk := m.keys
	switch {
	case m.detail && key.Matches(k, bk.Back):
		m.detail = false
		return m, nil
	case key.Matches(k, bk.Pane) && !m.table.Filtering():
		if _, ok := m.table.Selected(); ok || m.detail {
			m.detail = !m.detail
		}
		return m, nil
	case m.detail:
		if p, ok := m.DetailPage(r.detail.W-2, r.detail.H-2); ok {
			if s, used := m.scroll.Update(k, bk.Scroll.Nav, p); used {
				m.scroll = s
				return m, nil
			}
		}
	default:
		if t, used := m.table.Update(k); used {
			m.table = t
			return m, nil
		}
	}
	b, ok := m.table.Selected()
	say := func(s string) { m.flash = screen.Say(s) }
	switch {
	case key.Matches(k, bk.Refresh):
		say(RefreshFlash)
		return m.Rescan()
	case key.Matches(k, bk.Notify):
		return m.ToggleNotify(), nil
	case !ok:
		if key.Matches(k, bk.Details, bk.CopyID, bk.CopyBlockID, bk.Open, bk.Extend, bk.Launch, bk.Use, bk.CancelAttached) {
			say("No block selected.")
		}
		return m, nil
	case key.Matches(k, bk.Details):
		m.detail = true
	case key.Matches(k, bk.CancelAttached):
		return m.askCancel()
	case key.Matches(k, bk.CopyID) && blockstable.IsPlan(b):
		say("Copied the training plan's ARN " + b.ARN + " to the clipboard (OSC 52).")
		return m, tea.SetClipboard(b.ARN)
	case key.Matches(k, bk.CopyBlockID) && blockstable.IsPlan(b):
		cmd := blockstable.PlanUseCommand(b)
		if cmd == "" {
			say("This plan names no resource to use it with.")
			return m, nil
		}
		say("Copied the AWS CLI line that uses the plan to the clipboard (OSC 52).")
		return m, tea.SetClipboard(cmd)
	case key.Matches(k, bk.Launch) && !m.pc.Caps(b.Source).Launch:
		say("A training plan is not launched into: SageMaker runs what is given its ARN (d shows how).")
		return m, nil
	case key.Matches(k, bk.CopyID):
		say("Copied the reservation id " + b.ReservationID + " to the clipboard (OSC 52).")
		return m, tea.SetClipboard(b.ReservationID)
	case key.Matches(k, bk.CopyBlockID):
		if b.BlockID == "" {
			say("This block's id is not known yet.")
			return m, nil
		}
		say("Copied the block id " + b.BlockID + " to the clipboard (OSC 52).")
		return m, tea.SetClipboard(b.BlockID)
	case key.Matches(k, bk.Open):
		return m.openConsole(b)
	case key.Matches(k, bk.Extend) && b.State == model.StatePaymentFailed:
		say(PayFailed(b, "extended"))
		return m, nil
	case key.Matches(k, bk.Extend):
		return m, func() tea.Msg { return screen.OpenExtend{Block: b} }
	case key.Matches(k, bk.Launch):
		group := model.Group(m.list, b)
		return m, func() tea.Msg { return screen.OpenLaunch{Block: b, Group: group} }
	case key.Matches(k, bk.Use):
		group := model.Group(m.list, b)
		return m, func() tea.Msg { return screen.OpenUse{Block: b, Group: group, Scroll: m.keys.Scroll} }
	}
	return m, nil
}

// PayFailed says why a payment-failed block cannot be done (extended, launched into), and
// what to do.
func PayFailed(b model.Block, done string) string {
	return fmt.Sprintf("Block %s cannot be %s: its payment failed, so it will never start. Check the account's payment method (AWS Billing console), then search again (1): its capacity went back on sale.",
		b.ReservationID, done)
}

// Opener is the system's URL opener, "" when there is none; tests replace it. Over SSH
// (no display) xdg-open would start a text browser on the terminal the UI is drawing on,
// so there the URL is shown instead.
var Opener = func() string {
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
func (m Model) openConsole(b model.Block) (Model, tea.Cmd) {
	url := blockstable.ConsoleURL(b)
	path := Opener()
	if path == "" {
		m.flash = screen.Say("No browser opener here (xdg-open, open); the console URL: " + url)
		return m, nil
	}
	m.flash = screen.Say("Opening " + url)
	ctx := m.pc.Ctx
	return m, func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		err := exec.CommandContext(ctx, path, url).Run()
		return OpenedMsg{URL: url, Err: err}
	}
}
