package screen

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/program"
)

// ToggleNotify turns the program's one notifications switch (n, on the screens that take
// it): the blocks' warnings and a watched search's news alike. It says which way it went.
func ToggleNotify(pc *program.Context) Flash {
	pc.NotifyOff = !pc.NotifyOff
	if pc.NotifyOff {
		return Say("Notifications off: new offerings and block warnings are shown, silently.")
	}
	return Say("Notifications on: a bell and a desktop notification for new offerings of a watched search and for each block warning.")
}

// Ring rings the bell once and sends a desktop notification (OSC 9) for each text: what the
// blocks' warnings and a watched search's news both do.
func Ring(texts ...string) tea.Cmd {
	var seq strings.Builder
	seq.WriteByte(ansi.BEL)
	for _, t := range texts {
		seq.WriteString(ansi.Notify(NotificationText("gpublock: " + t)))
	}
	return tea.Raw(seq.String())
}

// NotificationText keeps a notification to one line of printable text: a control
// character in a tag or an id must not end the sequence early.
func NotificationText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
}
