package compare

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui/theme"
)

func TestClosesOnItsKeysOnly(t *testing.T) {
	d := New(theme.New(false), nil, KeyMap{
		Back:    key.NewBinding(key.WithKeys("esc")),
		Compare: key.NewBinding(key.WithKeys("c")),
	})
	for k, closes := range map[string]bool{"esc": true, "c": true, "x": false, "enter": false} {
		msg := tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		if k == "esc" {
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		} else if k == "enter" {
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		if _, _, closed := d.Update(msg); closed != closes {
			t.Errorf("%s: closed=%v, want %v", k, closed, closes)
		}
	}
	if !strings.Contains(d.View(60, 12), "Compare 0 offerings") {
		t.Errorf("the title is missing:\n%s", d.View(60, 12))
	}
}
