package ui

import (
	"os"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestZZScratch(t *testing.T) {
	os.MkdirAll("/tmp/a11y-shot", 0o755)
	t.Chdir("/tmp/a11y-shot")
	opts := testOptions(nil)
	opts.NoColor = false
	m := update(New(opts), tea.WindowSizeMsg{Width: 140, Height: 36})
	m = withResults(m, syntheticOfferings(12))
	mm, cmd := m.Update(keyMsg("ctrl+g"))
	m = update(mm.(Model), cmd())
	t.Log(m.flash)
	opts.Accessible = true
	m = update(New(opts), tea.WindowSizeMsg{Width: 140, Height: 36})
	m = withResults(m, syntheticOfferings(12))
	os.WriteFile("/tmp/a11y-shot/acc.txt", []byte(m.View().Content), 0o644)
}
