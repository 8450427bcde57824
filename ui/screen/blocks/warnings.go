package blocks

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	blockstable "github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/screen"
)

// Warnings are every block's most urgent warning at the screen's clock, for the header's
// summary on every screen (model.WarningSummary).
func (m Model) Warnings() []model.WarningKind {
	rules := m.rules()
	var out []model.WarningKind
	for _, b := range m.list {
		if w := rules.Top(b, m.now); w.Kind != blockstable.NoWarning {
			out = append(out, w.Kind)
		}
	}
	return out
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
	rules := m.rules()
	for _, b := range m.list {
		for _, w := range rules.Warnings(b, m.now) {
			k := w.Key(b)
			if m.notified[k] {
				continue
			}
			m.notified[k] = true
			news = append(news, fresh{b, w})
		}
	}
	cmds := []tea.Cmd{m.askAutoExtend()}
	if len(news) == 0 {
		return m, cmds[0]
	}
	if !m.pc.NotifyOff {
		texts := make([]string, len(news))
		for i, n := range news {
			texts[i] = model.AccountLead(n.b, m.several) + n.w.Sentence(n.b, m.now)
		}
		cmds = append(cmds, screen.Ring(texts...))
	}
	if notify := m.opts.Notify; notify != nil {
		ctx, now := m.pc.Ctx, m.now
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
