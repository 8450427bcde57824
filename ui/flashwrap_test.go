package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A long message after a key wraps onto up to three lines above the footer, the body
// giving them room, instead of being cut at the width: the console URL shown to copy where
// no browser opener exists, why a block cannot be launched into.
func TestLongFlashWrapsAndFits(t *testing.T) {
	const url = "https://us-east-1.console.aws.amazon.com/ec2/home?region=us-east-1#CapacityReservationDetails:crId=cr-0123456789abcdef0"
	flash := "No browser opener here (xdg-open, open); the console URL: " + url
	for _, size := range [][2]int{{120, 36}, {160, 48}, {60, 16}} {
		w, h := size[0], size[1]
		for name, base := range map[string]Model{
			"results": withResults(update(New(testOptions(nil)), tea.WindowSizeMsg{Width: w, Height: h}), syntheticOfferings(50)),
			"blocks":  update(New(testOptions(nil)), tea.WindowSizeMsg{Width: w, Height: h}, keyMsg("2")),
		} {
			m := base
			m.flash = flash
			checkFits(t, name, m, w, h)
			lines := strings.Split(ansi.Strip(m.View().Content), "\n")
			if len(lines) != h {
				t.Errorf("%s at %dx%d: %d lines", name, w, h, len(lines))
			}
			if w >= len(url) && !strings.Contains(ansi.Strip(m.View().Content), url) {
				t.Errorf("%s at %dx%d: the URL is not whole:\n%s", name, w, h, ansi.Strip(m.View().Content))
			}
			if !strings.Contains(lines[len(lines)-2], "console URL") && !strings.Contains(lines[len(lines)-2], url[:20]) {
				t.Errorf("%s at %dx%d: the message is not over the footer:\n%s", name, w, h, strings.Join(lines[len(lines)-4:], "\n"))
			}
		}
	}
}
