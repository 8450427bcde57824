package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/dialog/receipt"
)

// While a dialog is open it takes every key, so the footer names its keys and none of the
// screen's behind it: q there cancels instead of quitting, and / does not filter.
func TestDialogFooterNamesTheDialogsKeys(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(50)), tea.WindowSizeMsg{Width: 160, Height: 48})
	if foot := lastLine(base); !strings.Contains(foot, "q quit") {
		t.Fatalf("the results' footer lacks q quit: %q", foot)
	}
	states := dialogStates(base)
	want := map[string]string{
		"purchase allowed":  "type buy then enter",
		"purchase buying":   "waiting for AWS's answer",
		"receipt pending":   "y copy the reservation id",
		"receipt recovered": "l launch into the block",
		"launch form":       "type launch then enter",
		"launch done":       "y copy the instance ids",
	}
	for name, w := range want {
		foot := lastLine(states[name])
		if !strings.Contains(foot, w) || strings.Contains(foot, "q quit") || strings.Contains(foot, "/ filter") {
			t.Errorf("%s: footer %q, want %q and none of the screen's keys", name, foot, w)
		}
		if status := statusOf(states[name]); strings.Contains(status, "esc cancels") && !strings.Contains(name, "launch") {
			t.Errorf("%s: the status line speaks of the screen behind: %q", name, status)
		}
	}
}

func lastLine(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-1]
}

func statusOf(m Model) string {
	lines := strings.Split(ansi.Strip(m.View().Content), "\n")
	return lines[len(lines)-2]
}

// The dry run's answer lines up with the values above it in the purchase dialog.
func TestPurchaseDryRunInLine(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	v := ansi.Strip(dialogStates(base)["purchase allowed"].View().Content)
	col := func(label, value string) int {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, label); i >= 0 {
				if j := strings.Index(l[i:], value); j >= 0 {
					return ansi.StringWidth(l[:i+j])
				}
			}
		}
		return -1
	}
	if a, d := col("Account", "123456789012"), col("Dry run", "✓"); a < 0 || a != d {
		t.Errorf("account value at %d, dry run answer at %d:\n%s", a, d, v)
	}
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

// The extend dialog's values start in one column: the block's fields, the length picker
// and the offering's fields.
func TestExtendDialogInLine(t *testing.T) {
	base := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	v := ansi.Strip(blocksStates(base)["extend confirm"].View().Content)
	cols := map[string]int{}
	for _, l := range strings.Split(v, "\n") {
		for _, label := range []string{"Account", "Ends now", "Add", "New end", "Upfront fee", "Offering"} {
			i := strings.Index(l, label+" ")
			if i < 0 || cols[label] != 0 {
				continue
			}
			rest := l[i+len(label):]
			cols[label] = ansi.StringWidth(l[:i+len(label)]) + len(rest) - len(strings.TrimLeft(rest, " "))
		}
	}
	want := cols["Account"]
	for label, c := range cols {
		if label == "Add" && c == want+1 {
			continue // the picker's lengths leave a cell for the ‹ of the chosen one
		}
		if c != want || want == 0 {
			t.Errorf("%s's value at %d, Account's at %d:\n%s", label, c, want, v)
		}
	}
	if len(cols) != 6 {
		t.Errorf("found %v of the six labels:\n%s", cols, v)
	}
}

// The receipt's answer to l on a block still being paid for goes once the block is
// scheduled: it would contradict the state above it.
func TestReceiptNoteFollowsTheState(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	m := dialogStates(base)["receipt pending"]
	m = update(m, keyMsg("l"))
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "launching opens once") {
		t.Fatalf("l on a payment-pending block says nothing:\n%s", v)
	}
	r := m.dialog.(receipt.Model)
	m = update(m, blockPolledMsg{Dialog: r.ID(), Block: fixedBlock(model.StateScheduled), Found: true})
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "payment-pending; launching opens") || !strings.Contains(v, "scheduled") {
		t.Errorf("the note outlived the state:\n%s", v)
	}
}

// The launch form's values start in one column: the block's fields and the form's.
func TestLaunchDialogInLine(t *testing.T) {
	base := update(withResults(New(testOptions(nil)), syntheticOfferings(5)), tea.WindowSizeMsg{Width: 160, Height: 48})
	v := ansi.Strip(dialogStates(base)["launch form"].View().Content)
	col := func(label string) int {
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, label+" "); i >= 0 {
				rest := l[i+len(label):]
				return ansi.StringWidth(l[:i+len(label)]) + len(rest) - len(strings.TrimLeft(rest, " "))
			}
		}
		return -1
	}
	if b, a, c := col("Capacity"), col("AMI"), col("Count"); b < 0 || b != a || a != c {
		t.Errorf("Capacity's value at %d, AMI's at %d, Count's at %d:\n%s", b, a, c, v)
	}
}
