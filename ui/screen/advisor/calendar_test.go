package advisor

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// The calendar names a block's length with model.FormatLength: a 64-hour block is 2d16h,
// not the "2d" of its whole days, at every size.
func TestCalendarNamesExactLength(t *testing.T) {
	long := offering("cb-64", 2, "3000")
	long.End, long.DurationHours = long.Start.Add(64*time.Hour), 64
	m := advised(New(uitest.Context(false), Options{Search: onePage(long)}))
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	for range 2 {
		m, _ = m.update(tea.KeyPressMsg{Code: 'l', Text: "l"})
	}
	if off, ok := m.CalendarOffering(); !ok || off.ID != "cb-64" {
		t.Fatalf("calendar cursor on %+v, want cb-64", off)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		view := ansi.Strip(viewAt(m, sz[0], sz[1]))
		flat := strings.Join(strings.Fields(view), " ")
		if !strings.Contains(flat, "2d16h") || strings.Contains(flat, ", 2d, ") {
			t.Errorf("%dx%d: the 64-hour block is not named 2d16h:\n%s", sz[0], sz[1], view)
		}
	}
}

// The table's cost per accelerator-hour is per useful hour of the job; the calendar's is per
// hour of the whole block: each says which, so the two figures for one block are not read
// as one.
func TestPerAcceleratorHourFiguresSayWhich(t *testing.T) {
	m := advised(New(uitest.Context(false), Options{Search: onePage(offering("cb-1", 2, "3000"))}))
	table := ansi.Strip(viewAt(m, 120, 40))
	if !strings.Contains(table, "PER USEFUL ACC-H") {
		t.Errorf("the table does not say its rate is per useful accelerator-hour:\n%s", table)
	}
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	m, _ = m.update(tea.KeyPressMsg{Code: 'v', Text: "v"})
	for range 2 {
		m, _ = m.update(tea.KeyPressMsg{Code: 'l', Text: "l"})
	}
	cal := strings.Join(strings.Fields(ansi.Strip(viewAt(m, 200, 60))), " ")
	if !strings.Contains(cal, "per accelerator-hour of the whole block") {
		t.Errorf("the calendar does not say its rate is per hour of the whole block:\n%s", cal)
	}
}
