package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

// At 80 columns (a 78-cell pane) the table keeps the columns an on-call person reads a block
// by, State among them, narrowed to their values, and cuts none of those values.
func TestNarrowKeepsState(t *testing.T) {
	m := New(theme.New(false))
	now := end.Add(-5 * time.Hour)
	m.Set(onCallBlocks(), nil, now)
	v := ansi.Strip(m.View(78, 10))
	lines := strings.Split(v, "\n")
	for _, want := range []string{"Warning", "State", "Region", "Type × N", "Terminates in"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("78 cells drop %q: %q", want, lines[0])
		}
	}
	for i := range m.Visible() {
		b := m.Row(i)
		for _, cell := range []string{string(b.State), b.Region, ToTermination(b, now), model.DefaultWarnRules().Top(b, now).Cell(b, now)} {
			if !strings.Contains(lines[i+1], cell) {
				t.Errorf("row %s lacks %q: %q", b.ReservationID, cell, lines[i+1])
			}
		}
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 78 {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
}

// Two blocks alike in type, count, region and state read apart at every width, the panes
// of 80-, 120- and 200-column terminals: a column that tells them apart (the end) stays.
func TestAlikeBlocksReadApartAtEveryWidth(t *testing.T) {
	now := end.Add(-60 * time.Hour) // both scheduled: their countdowns count to their starts
	a := block("cr-00000000000000aaa", model.StateScheduled, 0, end)
	b := block("cr-00000000000000bbb", model.StateScheduled, 0, end.Add(24*time.Hour))
	for _, w := range []int{78, 118, 198} {
		m := New(theme.New(false))
		m.Set([]model.Block{a, b}, nil, now)
		lines := strings.Split(ansi.Strip(m.View(w, 5)), "\n")
		for i := range m.Visible() {
			if e := m.Row(i).End.UTC().Format(timeLayout); len(lines) <= i+1 || !strings.Contains(lines[i+1], e) {
				t.Errorf("%d cells: the row of %s lacks its end %s:\n%s", w, m.Row(i).ReservationID, e, strings.Join(lines, "\n"))
			}
		}
		if !strings.Contains(lines[0], "End UTC") {
			t.Errorf("%d cells: no end column: %q", w, lines[0])
		}
	}
}
