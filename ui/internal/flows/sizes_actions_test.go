package flows

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	uiscreen "github.com/gpublock/gpublock/ui/screen"
)

// The dialogs that spend money, as their keys open them over a screen, fit every size from
// 20×5 to 400×120 and never panic: the root gives each the body under its header and
// footer. Each dialog's every state is tested at every size in its package.
func TestActionDialogsFitEverySize(t *testing.T) {
	base := update(withResults(ui.New(openable()), uitest.SyntheticOfferings(50)), tea.WindowSizeMsg{Width: 160, Height: 48})
	blocks := blocksStates(base)["blocks"]
	states := map[string]ui.Model{
		"purchase": opened(t, base, uitest.Key("enter")),
		"launch":   opened(t, blocks, uitest.Key("l")),
		"extend":   opened(t, blocks, uitest.Key("e")),
		"use":      opened(t, blocks, uitest.Key("u")),
	}
	for name, m := range states {
		for _, sz := range sizes() {
			checkFits(t, name, update(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]}), sz[0], sz[1])
		}
	}
}

// opened is m after key k and the dialog it asked the root to open; the dialog's own calls
// are not run.
func opened(t *testing.T, m ui.Model, k tea.KeyPressMsg) ui.Model {
	t.Helper()
	mm, cmd := m.Update(k)
	m = mm.(ui.Model)
	uitest.Walk(cmd, func(msg tea.Msg) (tea.Cmd, bool) {
		switch msg.(type) {
		case uiscreen.OpenPurchase, uiscreen.OpenLaunch, uiscreen.OpenExtend, uiscreen.OpenUse:
			mm, _ := m.Update(msg)
			m = mm.(ui.Model)
		}
		return nil, false
	})
	if m.Inspect().Dialog == nil {
		t.Fatalf("%s opened no dialog:\n%s", k, m.View().Content)
	}
	return m
}

// openable is the test options with a callless backend.
func openable() ui.Options { return testOptions(uitest.Callless{}) }
