package textfield

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestEditing(t *testing.T) {
	m := New("2026")
	for _, k := range []tea.KeyPressMsg{
		{Code: '-', Text: "-"}, {Code: '1', Text: "1"}, {Code: tea.KeyHome}, {Code: tea.KeyRight}, {Code: tea.KeyDelete},
		{Code: 'x', Text: "x"}, {Code: tea.KeyEnd}, {Code: tea.KeyBackspace},
	} {
		var used bool
		m, used = m.Update(k)
		if !used {
			t.Errorf("%v unused", k)
		}
	}
	if m.Value() != "2x26-" {
		t.Errorf("value %q", m.Value())
	}
	if _, used := m.Update(tea.KeyPressMsg{Code: tea.KeyTab}); used {
		t.Error("tab was used as text")
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl})
	if m.Value() != "" {
		t.Errorf("ctrl+w left %q", m.Value())
	}
	m.CharLimit = 2
	for _, r := range "123" {
		m, _ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	if m.Value() != "12" {
		t.Errorf("char limit 2: %q", m.Value())
	}
}

func TestViewKeepsTheCursorInView(t *testing.T) {
	m := New("2026-12-03T11:30:00Z")
	s := lipgloss.NewStyle()
	for w := 1; w < 30; w++ {
		if got := ansi.StringWidth(m.View(w, true, s, s, s)); got > w {
			t.Errorf("width %d: drew %d cells", w, got)
		}
	}
	if v := ansi.Strip(m.View(6, true, s, s, s)); v != "0:00Z " {
		t.Errorf("focused at the end: %q, want the tail and the cursor cell", v)
	}
}
