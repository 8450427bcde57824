package blocks

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/screen"
)

// autoAsks is what the screen has asked of the auto-extension policy in this process.
type autoAsks struct {
	// asked are the keys looked up or asked on screen, each once, unless the root gives
	// one back (AutoExtendDeferred). What another gpublock decided, or this one before a
	// restart, is the backend's to know (AutoExtendDue).
	asked map[string]bool
	// pause: what was decided could not be read; nothing is looked up before then.
	pause time.Time
}

// autoMsg is a message of the auto-extension's asks.
type autoMsg interface{ autoMsg() }

// autoDueMsg is the backend's answer for the keys looked up: the asks nobody decided.
type autoDueMsg struct {
	keys []string
	asks []source.AutoExtendAsk
	err  error
}

// autoDeclinedMsg is the recording of a decline of the policy's own (the block cannot be
// extended), which no one is asked about.
type autoDeclinedMsg struct {
	ask source.AutoExtendAsk
	err error
}

// AutoExtendDeferred gives back the ask of Key, which the root did not open because a
// dialog was open; it sends it once that dialog closes, and the ask is looked up again.
type AutoExtendDeferred struct{ Key string }

func (autoDueMsg) autoMsg()         {}
func (autoDeclinedMsg) autoMsg()    {}
func (AutoExtendDeferred) autoMsg() {}

// askAutoExtend looks up, once per block and lead, the blocks the auto-extension policy
// would decide now: the backend says which no gpublock on this machine has decided (a
// `blocks --watch`, another TUI, this one before a restart). The person decides those
// on screen, in the extend dialog, which records the decision.
func (m Model) askAutoExtend() tea.Cmd {
	p := m.opts.AutoExtend
	if p.Days == 0 || m.pc.ReadOnly || m.pc.Backend == nil || m.now.Before(m.auto.pause) {
		return nil
	}
	var due []model.Block
	var keys []string
	for _, b := range m.list {
		d := p.Decide(b, m.now, m.auto.asked)
		if d.Verdict == model.AutoExtendNotYet {
			continue
		}
		m.auto.asked[d.Key] = true
		due, keys = append(due, b), append(keys, d.Key)
	}
	if len(due) == 0 {
		return nil
	}
	be, ctx, now := m.pc.Backend, m.pc.Ctx, m.now
	return func() tea.Msg {
		asks, err := be.AutoExtendDue(ctx, p, due, now)
		return autoDueMsg{keys: keys, asks: asks, err: err}
	}
}

// onAuto handles the asks' messages: an ask opens the extend dialog (the root's, which
// waits behind a dialog open), the policy's own decline is recorded as blocks --watch
// records it.
func (m Model) onAuto(msg autoMsg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case AutoExtendDeferred:
		delete(m.auto.asked, msg.Key)
		return m, m.askAutoExtend()
	case autoDeclinedMsg:
		said := "AUTO-EXTEND DECLINED " + msg.ask.Block.ReservationID + ": " + strings.TrimSuffix(msg.ask.Reason, ".")
		switch {
		case errors.Is(msg.err, source.ErrAutoExtendDecided):
		case msg.err != nil:
			m.flash = screen.Say(said + "; the decline could not be recorded: " + source.RedactError(msg.err))
		default:
			m.flash = screen.Say(said + ". Nothing was extended.")
		}
		return m, nil
	case autoDueMsg:
		if msg.err != nil {
			for _, k := range msg.keys {
				delete(m.auto.asked, k)
			}
			m.auto.pause = m.now.Add(time.Minute)
			m.flash = screen.Say("Auto-extension: what was decided cannot be read (" + source.RedactError(msg.err) + "); nothing is asked until it can be.")
			return m, nil
		}
		var cmds []tea.Cmd
		be, ctx := m.pc.Backend, m.pc.Ctx
		for _, ask := range msg.asks {
			m.auto.asked[ask.Key] = true
			switch ask.Verdict {
			case model.AutoExtendDecline:
				cmds = append(cmds, func() tea.Msg {
					err := be.DecideAutoExtend(ctx, ask, source.AutoExtendOutcome{Step: source.AutoExtendDeclined, Reason: ask.Reason})
					return autoDeclinedMsg{ask: ask, err: err}
				})
			case model.AutoExtendNow:
				cmds = append(cmds, func() tea.Msg { return screen.OpenExtend{Block: ask.Block, Days: ask.Days, Ask: &ask} })
			}
		}
		return m, tea.Batch(cmds...)
	}
	return m, nil
}
