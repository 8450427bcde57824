package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/extend"
)

// openExtend opens the extend dialog on a block that can be extended.
func (m Model) openExtend(b model.Block) (tea.Model, tea.Cmd) {
	switch {
	case m.pc.ReadOnly:
		return m, nil
	case b.State != model.StateActive && b.State != model.StateScheduled:
		m.flash = fmt.Sprintf("Block %s is %s: only active or scheduled blocks can be extended.", b.ReservationID, b.State)
		return m, nil
	}
	d, cmd := extend.Open(m.actionEnv(), m.opts.Prices, b, m.opts.ExtendDays)
	m.dialog = d
	return m, cmd
}
