package ui

import (
	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/ui/components/blocks"
	"github.com/gpublock/gpublock/ui/palette"
)

// The palette finds an action by a part of its words and runs it by pressing its key:
// "exten" opens the extend dialog (and only the dialog: the typed confirmation is still
// ahead), "sort fee" sorts the blocks by the fee paid, "repo" shows the report screen.
func TestPaletteFindsAndRuns(t *testing.T) {
	b, sim := emulatorBackend(t, ec2sim.Faults{})
	_, o, bought := buyBlock(t, b, testNow.Add(24*time.Hour))
	sim.SetTime(o.Start.Add(time.Hour))
	opts := actionTestOptions(b)
	opts.StartOnBlocks = true
	s := newScreen(t, New(opts), 160, 48)
	s.waitFor("the active block", func(text string) bool { return strings.Contains(rowOf(text, bought.ReservationID), "active") })

	s.press(":")
	s.waitText("Command palette")
	s.typeText("sort fee")
	s.waitFor("sort by fee paid chosen", func(text string) bool { return rowWithAll(text, "> F", "sort by fee paid") })
	s.press("enter")
	s.waitFor("the palette closed", func(text string) bool { return !strings.Contains(text, "Command palette") })

	s.press("ctrl+p")
	s.waitText("Command palette")
	s.typeText("exten")
	s.waitFor("extend chosen", func(text string) bool { return rowWithAll(text, "> e", "extend…") })
	s.press("enter")
	waitLengths(s)

	s.press("esc")
	s.waitFor("the dialog closed", func(text string) bool { return !strings.Contains(text, "choose the length") })
	s.press(":")
	s.waitText("Command palette")
	s.typeText("repo")
	s.waitFor("the report screen chosen", func(text string) bool { return rowWithAll(text, "> 4", "report screen") })
	s.press("enter")
	s.waitFor("the palette closed", func(text string) bool { return !strings.Contains(text, "Command palette") })
	m := s.final()
	if m.screen != screenReport {
		t.Errorf("after \"repo\" the screen is %d, want the report (%d)", m.screen, screenReport)
	}
	if col, _ := m.blocks().Table().Sort(); col != blocks.ColFee {
		t.Errorf("after \"sort fee\" the blocks are sorted by column %d, want the fee paid (%d)", col, blocks.ColFee)
	}
	if m.dialog != nil {
		t.Errorf("a dialog is still open: %T", m.dialog)
	}
	if blk := awaitBlock(t, m.pc.Backend, bought.ReservationID); !blk.End.Equal(o.End) {
		t.Errorf("the block ends %s after the palette, want %s: something was bought", blk.End, o.End)
	}
}

// Where a text field has the focus, ":" is a letter and ctrl+p alone opens the palette.
func TestPaletteColonTypesInAField(t *testing.T) {
	m := typingInAdvisor(t)
	m = update(m, keyMsg(":"))
	if m.palette != nil {
		t.Fatal(": opened the palette from a text field")
	}
	m = update(m, keyMsg("ctrl+p"))
	if m.palette == nil {
		t.Fatal("ctrl+p did not open the palette from a text field")
	}
	m = update(m, keyMsg("esc"))
	if m.palette != nil {
		t.Fatal("esc did not close the palette")
	}
}

// Every action the palette offers on every screen can be pressed: its key reads back as
// the key its binding names.
func TestPaletteKeysPress(t *testing.T) {
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 120, Height: 40})
	for id := range numScreens {
		mm, _ := m.switchScreen(screenID(id))
		acts := mm.(Model).paletteActions()
		if len(acts) < 5 {
			t.Fatalf("screen %d: only %d actions", id, len(acts))
		}
		for _, a := range acts {
			for _, k := range a.Binding.Keys() {
				p, ok := palette.KeyPress(k)
				if !ok || p.String() != k {
					t.Errorf("screen %d, %q: key %q presses as %q", id, a.Desc, k, p.String())
				}
			}
		}
	}
}

// rowWithAll: a line of text holds every one of subs.
func rowWithAll(text string, subs ...string) bool {
	for _, l := range strings.Split(text, "\n") {
		ok := true
		for _, sub := range subs {
			ok = ok && strings.Contains(l, sub)
		}
		if ok {
			return true
		}
	}
	return false
}

// From a text field, an action whose key is a letter is not typed into the field: the
// palette says how to reach it.
func TestPaletteNeverTypesIntoAField(t *testing.T) {
	m := typingInAdvisor(t)
	before := m.View().Content
	m = update(m, keyMsg("ctrl+p"))
	for _, r := range "steps chart" {
		m = update(m, keyMsg(string(r)))
	}
	if a, ok := m.palette.Chosen(); !ok || a.Key != "v" {
		t.Fatalf("\"steps chart\" chose %+v", a)
	}
	m = update(m, keyMsg("enter"))
	if m.palette != nil || !strings.Contains(m.flash, "is a letter in the field") {
		t.Errorf("palette %v, flash %q", m.palette != nil, m.flash)
	}
	m.flash = ""
	if after := m.View().Content; after != before {
		t.Error("the screen changed: the key was typed into the field")
	}
}

// typingInAdvisor is the program on the advisor screen, the focus in its form's first
// field, where letters are typed.
func typingInAdvisor(t *testing.T) Model {
	t.Helper()
	m := update(New(testOptions(nil)), tea.WindowSizeMsg{Width: 120, Height: 40})
	mm, _ := m.switchScreen(screenAdvisor)
	m = mm.(Model)
	if !m.typing() {
		t.Fatal("the advisor's form does not start with the focus in a field")
	}
	return m
}
