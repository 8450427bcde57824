// Package palette is the command palette of the terminal UI (`:` or ctrl+p, as k9s and
// Textual have it): every action of the screen shown and the global ones, each with its
// key, filtered as a person types, run on enter. The actions are the key bindings help
// shows, so that the two cannot drift apart; running one sends the key its binding
// matches, so that an action that spends money opens its dialog exactly as the key does.
package palette

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/gpublock/gpublock/ui/theme"
)

// Action is one line of the palette: what help calls a binding, and the binding.
type Action struct {
	Key, Desc string
	Binding   key.Binding
}

// Actions are the enabled bindings of groups, each once (the same key and words in two
// groups is one action), in the order help lists them.
func Actions(groups ...[]key.Binding) []Action {
	var out []Action
	seen := map[string]bool{}
	for _, g := range groups {
		for _, b := range g {
			h := b.Help()
			if !b.Enabled() || len(b.Keys()) == 0 || h.Desc == "" {
				continue
			}
			id := h.Key + "\x00" + h.Desc
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, Action{Key: h.Key, Desc: h.Desc, Binding: b})
		}
	}
	return out
}

// Model is the open palette.
type Model struct {
	th      theme.Theme
	actions []Action
	query   string
	shown   []int // indexes into actions that match the query, best first
	cursor  int
}

// New opens a palette over actions.
func New(th theme.Theme, actions []Action) Model {
	m := Model{th: th, actions: actions}
	m.filter()
	return m
}

// Outcome is what a key did to the palette.
type Outcome int

const (
	Stay  Outcome = iota // still open
	Close                // esc: closed, nothing run
	Run                  // enter: closed, run Chosen
)

// Keys of the palette itself; every other printable key is typed into the query.
var (
	up         = key.NewBinding(key.WithKeys("up", "ctrl+k"))
	down       = key.NewBinding(key.WithKeys("down", "ctrl+j", "ctrl+n"))
	enter      = key.NewBinding(key.WithKeys("enter"))
	esc        = key.NewBinding(key.WithKeys("esc"))
	erase      = key.NewBinding(key.WithKeys("backspace"))
	clearQuery = key.NewBinding(key.WithKeys("ctrl+u"))
)

// Update takes a key.
func (m Model) Update(k tea.KeyPressMsg) (Model, Outcome) {
	switch {
	case key.Matches(k, esc):
		return m, Close
	case key.Matches(k, enter):
		if _, ok := m.Chosen(); ok {
			return m, Run
		}
		return m, Stay
	case key.Matches(k, up):
		m.cursor = max(0, m.cursor-1)
	case key.Matches(k, down):
		m.cursor = min(max(0, len(m.shown)-1), m.cursor+1)
	case key.Matches(k, erase):
		if m.query != "" {
			_, n := utf8.DecodeLastRuneInString(m.query)
			m.query = m.query[:len(m.query)-n]
			m.filter()
		}
	case key.Matches(k, clearQuery):
		m.query = ""
		m.filter()
	default:
		if k.Text != "" && k.Mod&^tea.ModShift == 0 {
			m.query += k.Text
			m.filter()
		}
	}
	return m, Stay
}

// Query is what was typed.
func (m Model) Query() string { return m.query }

// Shown is the actions that match, best first.
func (m Model) Shown() []Action {
	out := make([]Action, len(m.shown))
	for i, a := range m.shown {
		out[i] = m.actions[a]
	}
	return out
}

// Chosen is the action under the cursor.
func (m Model) Chosen() (Action, bool) {
	if m.cursor < 0 || m.cursor >= len(m.shown) {
		return Action{}, false
	}
	return m.actions[m.shown[m.cursor]], true
}

// filter ranks the actions by the query, fuzzily, on their words and key.
func (m *Model) filter() {
	m.cursor = 0
	m.shown = m.shown[:0]
	q := strings.TrimSpace(m.query)
	if q == "" {
		for i := range m.actions {
			m.shown = append(m.shown, i)
		}
		return
	}
	words := make([]string, len(m.actions))
	for i, a := range m.actions {
		words[i] = a.Desc + " " + a.Key
	}
	// Each word of the query must match on its own ("sort fee"), the spaces between them
	// being nobody's letters.
	for _, match := range fuzzy.Find(strings.ReplaceAll(q, " ", ""), words) {
		m.shown = append(m.shown, match.Index)
	}
}

// View draws the palette in w×h cells: the query, then the actions that match, the chosen
// one marked with ">" as well as its colour.
func (m Model) View(w, h int) string {
	th := m.th
	lines := []string{
		th.Focused.Render("Command palette") + th.Muted.Render(" · type to filter · ↑/↓ choose · enter runs · esc closes"),
		th.Accent.Render(": ") + th.Value.Render(m.query) + th.Cursor.Render(" "),
	}
	if len(m.shown) == 0 {
		lines = append(lines, th.Muted.Render(fmt.Sprintf("No action matches %q", m.query)))
	}
	keyW := 0
	for _, a := range m.shown {
		keyW = max(keyW, ansi.StringWidth(m.actions[a].Key))
	}
	rows := max(1, h-len(lines))
	off := 0
	if m.cursor >= rows {
		off = m.cursor - rows + 1
	}
	for i := off; i < len(m.shown) && i < off+rows; i++ {
		a := m.actions[m.shown[i]]
		line := fmt.Sprintf("%-*s  %s", keyW, a.Key, a.Desc)
		if i == m.cursor {
			lines = append(lines, th.Selected.Render("> "+line))
			continue
		}
		lines = append(lines, "  "+th.Value.Render(line))
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}

// KeyPress is the key press a binding's key names ("enter", "ctrl+d", "F", "alt+1"), as a
// terminal would send it, so that running an action is pressing its key.
func KeyPress(s string) (tea.KeyPressMsg, bool) {
	var mod tea.KeyMod
	rest := s
	for {
		switch {
		case strings.HasPrefix(rest, "ctrl+") && len(rest) > len("ctrl+"):
			mod |= tea.ModCtrl
			rest = rest[len("ctrl+"):]
			continue
		case strings.HasPrefix(rest, "alt+") && len(rest) > len("alt+"):
			mod |= tea.ModAlt
			rest = rest[len("alt+"):]
			continue
		case strings.HasPrefix(rest, "shift+") && len(rest) > len("shift+"):
			mod |= tea.ModShift
			rest = rest[len("shift+"):]
			continue
		}
		break
	}
	if code, ok := named[rest]; ok {
		return tea.KeyPressMsg{Code: code, Mod: mod}, true
	}
	r, n := utf8.DecodeRuneInString(rest)
	if n != len(rest) || r == utf8.RuneError {
		return tea.KeyPressMsg{}, false
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r, Mod: mod}, true
	}
	return tea.KeyPressMsg{Code: r, Text: rest}, true
}

var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
	"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "up": tea.KeyUp, "down": tea.KeyDown,
	"left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome, "end": tea.KeyEnd,
	"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "insert": tea.KeyInsert,
	"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
}
