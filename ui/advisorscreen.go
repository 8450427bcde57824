package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/model"
	advisorui "github.com/gpublock/gpublock/ui/advisor"
)

// The advisor screen (ui/advisor) is the third screen: 3 (alt+3 from anywhere), or [ and ].
// The root hands it a search over the backend and opens the purchase dialog it asks for.

var advisorScreenKey = key.NewBinding(key.WithKeys("3", "alt+3"), key.WithHelp("3", "advisor screen"))

func newAdvisorScreen(m *Model) {
	m.advisor = advisorui.New(advisorui.Options{
		Theme: m.pc.Theme, Now: m.pc.Clock.Now, Catalog: m.opts.Prices, Search: searchOver(m.pc.Backend),
		Context: m.pc.Ctx, Region: m.opts.Region, ReadOnly: m.pc.ReadOnly, Location: m.pc.Location,
	})
}

// searchOver adapts the backend's streaming search to the advisor's pages; nil without a
// backend.
func searchOver(b Backend) advisorui.SearchFunc {
	if b == nil {
		return nil
	}
	return func(ctx context.Context, q model.Query) <-chan advisorui.Page {
		out := make(chan advisorui.Page)
		go func() {
			defer close(out)
			for ev := range b.Search(ctx, q) {
				p := advisorui.Page{Region: ev.Region, Offerings: ev.Offerings}
				if ev.Status != nil && ev.Status.State == RegionError {
					p.Region, p.Failed = ev.Status.Region, ev.Status.Message
				}
				if len(p.Offerings) == 0 && p.Failed == "" {
					continue
				}
				select {
				case out <- p:
				case <-ctx.Done():
					return
				}
			}
		}()
		return out
	}
}

// advisorUpdate takes the advisor's own messages, wherever the screen is.
func (m Model) advisorUpdate(msg tea.Msg) (tea.Model, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case advisorui.BuyMsg:
		switch {
		case m.pc.ReadOnly:
			m.flash = "Read-only: nothing can be bought."
			return m, nil, true
		case m.pc.Backend == nil:
			m.flash = "Not connected, so nothing can be bought."
			return m, nil, true
		}
		d, cmd := newPurchaseDialog(m.actionEnv(), msg.Offering)
		m.dialog = d
		return m, cmd, true
	}
	if advisorui.Owns(msg) {
		var cmd tea.Cmd
		m.advisor, cmd = m.advisor.Update(msg)
		return m, cmd, true
	}
	return m, nil, false
}

func (m Model) advisorKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	// the backend may have been connected (or changed) since the screen was built
	m.advisor.SetSearch(searchOver(m.pc.Backend))
	m.advisor, cmd = m.advisor.Update(k)
	return m, tea.Batch(cmd, m.spinCmd())
}

func (m Model) advisorBody() string {
	l := m.layout()
	return m.advisor.View(m.pc.Width, m.pc.Height-l.headerH-l.footerH)
}
