package ui

import (
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/gpublock/gpublock/ui/a11y"
	"github.com/gpublock/gpublock/ui/palette"
	"github.com/gpublock/gpublock/ui/snapshot"
)

// The keys of the command palette and of the screen's picture, on every screen. Where a
// text field has the focus, ":" is a letter, and only ctrl+p opens the palette; ctrl+g is
// no letter anywhere. ctrl+s is the search screen's CSV and stays that.
func paletteKey() key.Binding {
	return key.NewBinding(key.WithKeys(":", "ctrl+p"), key.WithHelp(":/ctrl+p", "command palette"))
}

func snapshotKey() key.Binding {
	return key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "save screen as SVG"))
}

// paletteActions are the actions the palette offers: the keys help shows for the screen
// shown (its own, the screens', the global ones), less the palette's own.
func (m Model) paletteActions() []palette.Action {
	h := m.helpKeys()
	groups := [][]key.Binding{h.short}
	for _, g := range h.groups {
		groups = append(groups, g.Keys)
	}
	sk := m.screenKeys
	groups = append(groups, []key.Binding{sk.Search, sk.Blocks, sk.Advisor, sk.Report, sk.Next, sk.Prev, m.keys.Snapshot, m.keys.Help, m.keys.Quit})
	var out []palette.Action
	for _, a := range palette.Actions(groups...) {
		if a.Desc != m.keys.Palette.Help().Desc {
			out = append(out, a)
		}
	}
	return out
}

// opensPalette: k opens the palette here. In a text field ":" is typed.
func (m Model) opensPalette(k tea.KeyPressMsg) bool {
	if !key.Matches(k, m.keys.Palette) {
		return false
	}
	return k.String() != ":" || !(m.typing() || m.current().Filtering())
}

func (m Model) openPalette() Model {
	p := palette.New(m.pc.Theme, m.paletteActions())
	m.palette = &p
	return m
}

// paletteKeyPress takes a key while the palette is open; enter closes it and presses the
// chosen action's key, so that the action runs as its key runs it (a purchase or an
// extension opens its dialog, never more).
func (m Model) paletteKeyPress(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	p, out := m.palette.Update(k)
	switch out {
	case palette.Close:
		m.palette = nil
		return m, nil
	case palette.Run:
		m.palette = nil
		a, _ := p.Chosen()
		press, ok := m.pressFor(a.Binding)
		if !ok {
			m.flash = "The palette cannot press " + a.Key + "; press it yourself."
			return m, nil
		}
		if press.Text != "" && (m.typing() || m.current().Filtering()) {
			// The key would be typed into the field, not run: say so rather than type it.
			m.flash = fmt.Sprintf("%q (%s) is a letter in the field that has the focus: leave the field (tab or esc), then press %s.", a.Desc, a.Key, a.Key)
			return m, nil
		}
		return m.handleKey(press)
	}
	m.palette = &p
	return m, nil
}

// pressFor is the key press that runs b here: its first key, or, where a text field takes
// plain letters, the first of its keys with ctrl or alt.
func (m Model) pressFor(b key.Binding) (tea.KeyPressMsg, bool) {
	keys := b.Keys()
	pick := keys[0]
	if m.typing() && utf8.RuneCountInString(pick) == 1 {
		for _, k := range keys[1:] {
			if strings.HasPrefix(k, "ctrl+") || strings.HasPrefix(k, "alt+") {
				pick = k
				break
			}
		}
	}
	return palette.KeyPress(pick)
}

// snapshotMsg is where the screen's picture went.
type snapshotMsg struct {
	saved snapshot.Saved
	err   error
}

// snapshotName names what a picture shows: the screen, or the dialog over it.
func (m Model) snapshotName() string {
	if m.dialog != nil {
		return "dialog"
	}
	return [numScreens]string{screenSearch: "offerings", screenBlocks: "blocks", screenAdvisor: "advisor", screenReport: "report"}[m.screen]
}

// snapshotCmd draws the frame on screen now and writes it, in a command: the file and the
// renderer are I/O, which Update never does.
func (m Model) snapshotCmd() tea.Cmd {
	frame := m.render()
	if m.opts.Accessible {
		frame = a11y.Plain(frame)
	}
	w, h := m.pc.Width, m.pc.Height
	if h == 0 {
		h = lipgloss.Height(frame)
	}
	p := snapshot.Dark
	if !m.pc.Theme.Dark() {
		p = snapshot.Light
	}
	what, at, ctx := m.snapshotName(), m.pc.Clock.Now(), m.pc.Ctx
	return func() tea.Msg {
		dir, err := os.Getwd()
		if err != nil {
			return snapshotMsg{err: err}
		}
		s, err := snapshot.Save(ctx, dir, what, at, snapshot.SVG(frame, w, h, p))
		return snapshotMsg{saved: s, err: err}
	}
}

func (m Model) onSnapshot(msg snapshotMsg) Model {
	switch {
	case msg.err != nil:
		m.flash = "The screen was not saved: " + msg.err.Error()
	case msg.saved.PNG != "":
		m.flash = fmt.Sprintf("Saved the screen as %s and %s", msg.saved.SVG, msg.saved.PNG)
	case msg.saved.PNGErr != nil:
		m.flash = fmt.Sprintf("Saved the screen as %s (no PNG: %v)", msg.saved.SVG, msg.saved.PNGErr)
	default:
		m.flash = fmt.Sprintf("Saved the screen as %s (no PNG: %s is not installed)", msg.saved.SVG, snapshot.Renderer)
	}
	return m
}
