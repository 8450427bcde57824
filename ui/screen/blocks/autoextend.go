package blocks

import (
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/screen"
)

// askAutoExtend asks for the extend dialog, with the policy's length, on the first block
// the auto-extension policy would extend now, once per block and lead: the person decides
// on screen, and the dialog buys through the spend path as every extension does. A block
// the policy declines is left to its CAN'T EXTEND warning.
func (m Model) askAutoExtend() tea.Cmd {
	p := m.opts.AutoExtend
	if p.Days == 0 || m.pc.ReadOnly {
		return nil
	}
	for _, b := range m.list {
		d := p.Decide(b, m.now, m.asked)
		if d.Verdict == model.AutoExtendNotYet {
			continue
		}
		m.asked[d.Key] = true
		if d.Verdict == model.AutoExtendNow {
			return func() tea.Msg { return screen.OpenExtend{Block: b, Days: p.Days, Auto: true} }
		}
	}
	return nil
}
