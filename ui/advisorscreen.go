package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	advisorui "github.com/gpublock/gpublock/ui/screen/advisor"
)

// The advisor screen (ui/screen/advisor) is the third screen: 3 (alt+3 from anywhere), or
// [ and ]. It searches over the shared context's backend; the root opens the purchase
// dialog it asks for.

var advisorScreenKey = key.NewBinding(key.WithKeys("3", "alt+3"), key.WithHelp("3", "advisor screen"))

func newAdvisorScreen(m *Model) {
	m.advisor = advisorui.New(m.pc, advisorui.Options{Catalog: m.opts.Prices, Region: m.opts.Region})
}

// advisorUpdate takes the advisor's own messages, wherever the screen is.
func (m Model) advisorUpdate(msg tea.Msg) (tea.Model, tea.Cmd, bool) {
	if advisorui.Owns(msg) {
		var cmd tea.Cmd
		m.advisor, cmd = m.advisor.Update(msg)
		return m, cmd, true
	}
	return m, nil, false
}

func (m Model) advisorKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.advisor, cmd = m.advisor.Update(k)
	return m, tea.Batch(cmd, m.spinCmd())
}

// advisorBody is the advisor screen in the body.
func (m Model) advisorBody() string {
	s := m.advisor
	s.SetArea(m.area())
	return s.View()
}
