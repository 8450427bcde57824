package flows

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// footerDialog is a dialog that names its keys and does nothing else.
type footerDialog struct{ keys string }

func (d footerDialog) Update(tea.Msg) (dialog, tea.Cmd, bool) { return d, nil, false }
func (d footerDialog) View(int, int) string                   { return "stub" }
func (d footerDialog) Footer() string                         { return d.keys }

// At 80×24 the help is taller than the box: the arrows and page keys scroll it to the end
// (the sort and screen keys), and any other key still closes it.
func TestHelpScrollsWhenCut(t *testing.T) {
	m := update(withResults(ui.New(testOptions(nil)), uitest.SyntheticOfferings(5)), tea.WindowSizeMsg{Width: 80, Height: 24}, uitest.Key("?"))
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "Blocks screen") || !strings.Contains(v, "scroll") {
		t.Fatalf("the help fits 80x24 or does not say it scrolls:\n%s", v)
	}
	for range 20 {
		m = update(m, tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	v := ansi.Strip(m.View().Content)
	// The end: the last line of the keys is the box's last (the blocks' sort keys close it).
	var first, last, total int
	_, err := fmt.Sscanf(v[max(0, strings.Index(v, "lines ")):], "lines %d–%d of %d", &first, &last, &total)
	if m.Inspect().Dialog == nil || err != nil || last != total || !strings.Contains(v, "sort by reservation id") {
		t.Fatalf("page down did not reach the end of the help (lines %d–%d of %d, %v):\n%s", first, last, total, err, v)
	}
	m = update(m, tea.KeyPressMsg{Code: tea.KeyUp})
	if m.Inspect().Dialog == nil {
		t.Fatal("up closed the help")
	}
	if m = update(m, uitest.Key("j")); m.Inspect().Dialog != nil {
		t.Error("j did not close the help")
	}
}
