package palette

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/theme"
)

func TestActionsFilterAndChoose(t *testing.T) {
	b := func(k, desc string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)) }
	off := b("x", "cancel attached launch")
	off.SetEnabled(false)
	acts := Actions([]key.Binding{b("e", "extend…"), b("F", "sort by upfront fee"), off}, []key.Binding{b("e", "extend…"), b("4", "report screen")})
	if len(acts) != 3 {
		t.Fatalf("%d actions, want 3 (one twice, one disabled): %+v", len(acts), acts)
	}
	m := New(theme.New(false), acts)
	for _, r := range "srt fee" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if a, ok := m.Chosen(); !ok || a.Key != "F" {
		t.Errorf("\"srt fee\" chose %+v", a)
	}
	m, out := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if out != Run {
		t.Errorf("enter: %v, want Run", out)
	}
	for range 7 {
		m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	for _, r := range "zzzz" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if len(m.Shown()) != 0 {
		t.Errorf("\"zzzz\" matched %+v", m.Shown())
	}
	if _, out := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); out != Stay {
		t.Errorf("enter on nothing: %v, want Stay", out)
	}
	if _, out := m.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); out != Close {
		t.Errorf("esc: %v, want Close", out)
	}
}

func TestKeyPressRoundTrip(t *testing.T) {
	for _, k := range []string{"enter", "esc", "tab", "shift+tab", "ctrl+d", "alt+1", "F", "?", "/", "<", "space", "pgdown", "up"} {
		p, ok := KeyPress(k)
		if !ok || p.String() != k {
			t.Errorf("%q presses as %q (%v)", k, p.String(), ok)
		}
	}
	if _, ok := KeyPress("ctrl+"); ok {
		t.Error("\"ctrl+\" pressed")
	}
}
