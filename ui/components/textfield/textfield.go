// Package textfield is a one-line text input without a blinking cursor. bubbles' textinput
// blinks through timer messages, which makes every frame of a test differ; a form of short
// values (dates, durations, counts, a filter) needs none of its scrolling or suggestions.
package textfield

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Model is the text and the cursor position (in runes).
type Model struct {
	value       []rune
	pos         int
	Placeholder string
	CharLimit   int
}

// New returns a field holding value, with the cursor at its end.
func New(value string) Model {
	m := Model{}
	m.SetValue(value)
	return m
}

// Value returns the text.
func (m Model) Value() string { return string(m.value) }

// SetValue replaces the text and puts the cursor at its end.
func (m *Model) SetValue(s string) {
	m.value = []rune(s)
	m.pos = len(m.value)
}

// KeyMap is the editing keys, as in a shell's line editor. Every other printable key is
// text.
type KeyMap struct {
	DeleteBack, DeleteForward  key.Binding
	Left, Right, Home, End     key.Binding
	DeleteToStart, DeleteToEnd key.Binding
	DeleteWord                 key.Binding
}

// DefaultKeyMap returns the editing keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		DeleteBack:    key.NewBinding(key.WithKeys("backspace", "ctrl+h"), key.WithHelp("backspace/ctrl+h", "delete before the cursor")),
		DeleteForward: key.NewBinding(key.WithKeys("delete", "ctrl+d"), key.WithHelp("delete/ctrl+d", "delete at the cursor")),
		Left:          key.NewBinding(key.WithKeys("left", "ctrl+b"), key.WithHelp("←/ctrl+b", "cursor left")),
		Right:         key.NewBinding(key.WithKeys("right", "ctrl+f"), key.WithHelp("→/ctrl+f", "cursor right")),
		Home:          key.NewBinding(key.WithKeys("home", "ctrl+a"), key.WithHelp("home/ctrl+a", "start of the text")),
		End:           key.NewBinding(key.WithKeys("end", "ctrl+e"), key.WithHelp("end/ctrl+e", "end of the text")),
		DeleteToStart: key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "delete to the start")),
		DeleteToEnd:   key.NewBinding(key.WithKeys("ctrl+k"), key.WithHelp("ctrl+k", "delete to the end")),
		DeleteWord:    key.NewBinding(key.WithKeys("ctrl+w"), key.WithHelp("ctrl+w", "delete the word before")),
	}
}

// FullHelp is every editing key, in one column.
func (km KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{km.Left, km.Right, km.Home, km.End, km.DeleteBack, km.DeleteForward,
		km.DeleteToStart, km.DeleteToEnd, km.DeleteWord}}
}

// ShortHelp is the keys that move the cursor.
func (km KeyMap) ShortHelp() []key.Binding { return []key.Binding{km.Left, km.Right, km.Home, km.End} }

// keys is every field's: a zero Model edits with them too.
var keys = DefaultKeyMap()

// Update edits the text. It reports whether the key was used, so that a caller can give
// unused keys (tab, enter, arrows up and down) another meaning.
func (m Model) Update(msg tea.KeyPressMsg) (Model, bool) {
	switch {
	case key.Matches(msg, keys.DeleteBack):
		if m.pos > 0 {
			m.value = append(m.value[:m.pos-1:m.pos-1], m.value[m.pos:]...)
			m.pos--
		}
	case key.Matches(msg, keys.DeleteForward):
		if m.pos < len(m.value) {
			m.value = append(m.value[:m.pos:m.pos], m.value[m.pos+1:]...)
		}
	case key.Matches(msg, keys.Left):
		if m.pos > 0 {
			m.pos--
		}
	case key.Matches(msg, keys.Right):
		if m.pos < len(m.value) {
			m.pos++
		}
	case key.Matches(msg, keys.Home):
		m.pos = 0
	case key.Matches(msg, keys.End):
		m.pos = len(m.value)
	case key.Matches(msg, keys.DeleteToStart):
		m.value = append([]rune(nil), m.value[m.pos:]...)
		m.pos = 0
	case key.Matches(msg, keys.DeleteToEnd):
		m.value = m.value[:m.pos]
	case key.Matches(msg, keys.DeleteWord):
		i := m.pos
		for i > 0 && m.value[i-1] == ' ' {
			i--
		}
		for i > 0 && m.value[i-1] != ' ' {
			i--
		}
		m.value = append(m.value[:i:i], m.value[m.pos:]...)
		m.pos = i
	default:
		t := msg.Text
		if t == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 || !utf8.ValidString(t) || strings.ContainsAny(t, "\t\r\n") {
			return m, false
		}
		if m.CharLimit > 0 && len(m.value)+utf8.RuneCountInString(t) > m.CharLimit {
			return m, true
		}
		r := []rune(t)
		v := make([]rune, 0, len(m.value)+len(r))
		v = append(append(append(v, m.value[:m.pos]...), r...), m.value[m.pos:]...)
		m.value = v
		m.pos += len(r)
	}
	return m, true
}

// View draws the text in at most width cells. Focused, the cursor cell is drawn with cursor;
// empty and unfocused, the placeholder is drawn with placeholder.
func (m Model) View(width int, focused bool, text, cursor, placeholder lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	if !focused {
		if len(m.value) == 0 {
			return placeholder.Render(ansi.Truncate(m.Placeholder, width, "…"))
		}
		return text.Render(ansi.Truncate(string(m.value), width, "…"))
	}
	// Keep the cursor in view: show the tail of a value longer than the field.
	start := 0
	if m.pos >= width {
		start = m.pos - width + 1
	}
	before := string(m.value[start:m.pos])
	at := " "
	after := ""
	if m.pos < len(m.value) {
		at = string(m.value[m.pos])
		after = string(m.value[m.pos+1:])
	}
	rest := width - ansi.StringWidth(before) - 1
	if rest < 0 {
		rest = 0
	}
	return text.Render(before) + cursor.Render(at) + text.Render(ansi.Truncate(after, rest, ""))
}
