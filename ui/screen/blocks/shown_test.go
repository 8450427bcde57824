package blocks

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/screen"
)

// shown is the screen as the root shows it in a terminal: under a one-line header, over
// the status line.
type shown struct{ Model }

// shownAt is the screen shown in a w×h terminal, with nothing listed yet.
func shownAt(w, h int) shown {
	s := shown{New(uitest.Context(false), Options{Visible: true})}
	return update(s, tea.WindowSizeMsg{Width: w, Height: h})
}

// update gives the screen msgs as the root would; a size is the body between the header
// and the status line.
func update(s shown, msgs ...tea.Msg) shown {
	for _, msg := range msgs {
		if sz, ok := msg.(tea.WindowSizeMsg); ok {
			s.pc.Width, s.pc.Height = sz.Width, sz.Height
			s.SetArea(screen.Area{Top: 1, Width: sz.Width, Height: sz.Height - 2})
			continue
		}
		s.Model, _ = s.Model.Update(msg)
	}
	return s
}

var keyMsg = uitest.Key

// view is the screen without colour.
func (s shown) view() string { return ansi.Strip(s.View()) }
