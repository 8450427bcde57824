package flows

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui"
)

// In a terminal of each size: tab walks the form's fields top to bottom as drawn, each
// focused field in view; shift+tab walks back to the source at the top, and from there to
// the pane before the form, where tab's reverse goes. The arrows on the duration step from
// the length as typed.
func TestFormOrderInTheTerminal(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			b, _ := emulatorBackend(t, ec2sim.Faults{})
			s := newScreen(t, ui.New(testOptions(b)), size.w, size.h)
			s.WaitText("123456789012")
			s.WaitText("›Types")
			// rows finds the focused label and, if still in view, the label of the field before.
			rows := func(label, before string) (int, int) {
				text := s.WaitText("›" + label)
				at, prev := -1, -1
				for i, l := range strings.Split(text, "\n") {
					if strings.Contains(l, "›"+label) {
						at = i
					}
					if before != "" && strings.Contains(l, "┃ "+before+" ") {
						prev = i
					}
				}
				return at, prev
			}
			s.Press("shift+tab")
			if text := s.WaitText("›Source"); !strings.Contains(text, "┃ Types ") {
				t.Errorf("the source is focused but the types below it are not drawn:\n%s", text)
			}
			before := "Source"
			for _, label := range []string{"Types", "Count", "Start", "End", "Duration", "Regions"} {
				s.Press("tab")
				if at, prev := rows(label, before); prev >= at {
					t.Errorf("tab from %s to %s: drawn at row %d, the field before at row %d", before, label, at, prev)
				}
				before = label
			}
			s.Press("shift+tab") // the duration
			s.WaitText("›Duration")
			s.Press("ctrl+u")
			s.Type("15d")
			s.WaitText("15d")
			s.TM.Send(tea.KeyPressMsg{Code: tea.KeyRight})
			s.WaitFor("15d → 3w", func(text string) bool { return strings.Contains(text, "‹ 3w") })
			s.Press("shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
			s.WaitText("›Source")
			s.Press("shift+tab")
			s.WaitFor("the source unfocused", func(text string) bool { return !strings.Contains(text, "›Source") })
			if m := final(s); focusedPane(m) != paneDetail {
				t.Errorf("shift+tab from the first field: pane %d, want the detail (where tab enters the form from)", focusedPane(m))
			}
		})
	}
}
