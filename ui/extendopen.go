package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/extend"
)

// openExtend opens the extend dialog on a block that can be extended.
func (m Model) openExtend(b model.Block) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case model.ExtendBlockerAt(b, m.pc.Clock.Now()) != nil:
		// Known without asking: past the cutoff, a payment pending, no length left.
		m.flash = model.ExtendBlockerAt(b, m.pc.Clock.Now()).Sentence()
		return m, nil
	}
	d, cmd := extend.Open(m.actionEnv(), m.opts.Prices, b, m.opts.ExtendDays)
	m.dialog = d
	return m, cmd
}
