package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// One offering is "1 offering", not "1 offerings".
func TestFoundLineCountsInTheSingular(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	v := ansi.Strip(withResults(m, syntheticOfferings(1)).View().Content)
	if !strings.Contains(v, "Found 1 offering in us-east-1 (1 call)") {
		t.Errorf("the line over one offering does not say \"Found 1 offering in\":\n%s", v)
	}
	v = ansi.Strip(withResults(m, syntheticOfferings(2)).View().Content)
	if !strings.Contains(v, "Found 2 offerings in us-east-1") {
		t.Errorf("the line over two offerings does not say \"Found 2 offerings in\":\n%s", v)
	}
}
