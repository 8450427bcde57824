// Package compare is the compare dialog: the offerings the search screen has marked, on one
// chart over the screen; esc or the compare key again closes it.
package compare

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/ui/components/chart"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// KeyMap is what closes the dialog: the search screen's back and compare keys, so that the
// key that opened it closes it.
type KeyMap struct{ Back, Compare key.Binding }

func (k KeyMap) ShortHelp() []key.Binding  { return []key.Binding{k.Back, k.Compare} }
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Model is the chart of the compared offerings.
type Model struct {
	th   theme.Theme
	cs   []pricing.Comparison
	keys KeyMap
}

// New compares cs, closed by keys.
func New(th theme.Theme, cs []pricing.Comparison, keys KeyMap) Model {
	return Model{th: th, cs: cs, keys: keys}
}

// Compared are the offerings on the chart.
func (d Model) Compared() []pricing.Comparison { return d.cs }

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil, false
	}
	return d, nil, key.Matches(k, d.keys.Back, d.keys.Compare)
}

func (d Model) View(width, height int) string {
	title := fmt.Sprintf("Compare %d offerings · esc back", len(d.cs))
	return screen.Box(d.th, title, chart.CompareView(d.th, d.cs, width-2, height-2), screen.Rect{W: width, H: height}, true)
}

// Footer names the keys that close it.
func (d Model) Footer() string { return "esc or c back to the offerings • ctrl+c quits" }
