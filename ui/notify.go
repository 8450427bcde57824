package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// ring rings the bell once and sends a desktop notification (OSC 9) for each text: what the
// blocks' warnings and a watched search's news both do.
func ring(texts ...string) tea.Cmd {
	var seq strings.Builder
	seq.WriteByte(ansi.BEL)
	for _, t := range texts {
		seq.WriteString(ansi.Notify(notificationText("gpublock: " + t)))
	}
	return tea.Raw(seq.String())
}

// notificationText keeps a notification to one line of printable text: a control
// character in a tag or an id must not end the sequence early.
func notificationText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}

// toggleNotify is n, on either screen: one switch for the blocks' warnings and the watch's
// news alike.
func (m Model) toggleNotify() (tea.Model, tea.Cmd) {
	m.blocks.notifyOff = !m.blocks.notifyOff
	m.flash = "Notifications on: a bell and a desktop notification for new offerings of a watched search and for each block warning."
	if m.blocks.notifyOff {
		m.flash = "Notifications off: new offerings and block warnings are shown, silently."
	}
	return m, nil
}
