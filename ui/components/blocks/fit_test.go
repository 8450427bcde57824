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
