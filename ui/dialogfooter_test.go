package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	uidialog "github.com/gpublock/gpublock/ui/dialog"
)

// While a dialog is open it takes every key, so the footer names its keys and none of the
// screen's behind it: q there cancels instead of quitting, and / does not filter. Each
// dialog's own footer, state by state, is tested in its package.
func TestDialogFooterNamesTheDialogsKeys(t *testing.T) {
	base := update(withResults(New(openable()), syntheticOfferings(50)), tea.WindowSizeMsg{Width: 160, Height: 48})
	if foot := lastLine(base); !strings.Contains(foot, "q quit") {
		t.Fatalf("the results' footer lacks q quit: %q", foot)
	}
	stub := base
	stub.dialog = footerDialog{"z zaps the stub"}
	states := map[string]Model{
		"purchase": opened(t, base, keyMsg("enter")), // buy on the selected offering
		"stub":     stub,
	}
	for name, m := range states {
		d, ok := m.dialog.(uidialog.Footer)
		if !ok {
			t.Fatalf("%s: dialog %T names no keys", name, m.dialog)
		}
		foot := lastLine(m)
		if w := d.Footer(); !strings.Contains(foot, w) || strings.Contains(foot, "q quit") || strings.Contains(foot, "/ filter") {
			t.Errorf("%s: footer %q, want %q and none of the screen's keys", name, foot, w)
		}
		if status := statusOf(m); strings.Contains(status, "esc cancels") {
			t.Errorf("%s: the status line speaks of the screen behind: %q", name, status)
		}
	}
}

// footerDialog is a dialog that names its keys and does nothing else.
type footerDialog struct{ keys string }

func (d footerDialog) Update(tea.Msg) (dialog, tea.Cmd, bool) { return d, nil, false }
func (d footerDialog) View(int, int) string                   { return "stub" }
func (d footerDialog) Footer() string                         { return d.keys }

func lastLine(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-1]
}

func statusOf(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-2]
}

// At 80×24 the help is taller than the box: the arrows and page keys scroll it to the end
// (the sort and screen keys), and any other key still closes it.
func TestHelpScrollsWhenCut(t *testing.T) {
	m := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 80, Height: 24}, keyMsg("?"))
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
	if m.dialog == nil || err != nil || last != total || !strings.Contains(v, "sort by reservation id") {
		t.Fatalf("page down did not reach the end of the help (lines %d–%d of %d, %v):\n%s", first, last, total, err, v)
	}
	m = update(m, tea.KeyPressMsg{Code: tea.KeyUp})
	if m.dialog == nil {
		t.Fatal("up closed the help")
	}
	if m = update(m, keyMsg("j")); m.dialog != nil {
		t.Error("j did not close the help")
	}
}
