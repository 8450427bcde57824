package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/chart"
	"github.com/gpublock/gpublock/ui/theme"
)

// compareDialog shows the marked offerings on one chart over the screen, as the search
// screen asks (screen.OpenCompare); esc or the compare key again closes it.
type compareDialog struct {
	th            theme.Theme
	cs            []pricing.Comparison
	back, compare key.Binding
}

func (d compareDialog) Update(msg tea.Msg) (dialog, tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil, false
	}
	return d, nil, keyIs(k, d.back, d.compare)
}

func (d compareDialog) View(width, height int) string {
	title := fmt.Sprintf("Compare %d offerings · esc back", len(d.cs))
	return frame(d.th, title, chart.CompareView(d.th, d.cs, width-2, height-2), rect{width, height}, true)
}
