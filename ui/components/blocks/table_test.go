package blocks

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
	"github.com/gpublock/gpublock/ui/theme"
)

var end = time.Date(2026, 12, 3, 11, 30, 0, 0, time.UTC)

func block(id string, st model.BlockState, running int, e time.Time) model.Block {
	return model.Block{ReservationID: id, Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, RunningCount: running, State: st, Start: e.Add(-48 * time.Hour), End: e}
}

// press is m after keys, each by name (uitest.Key).
func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m, _ = m.Update(uitest.Key(k))
	}
	return m
}

// ids is the table's rows in their order.
func ids(m Model) string {
	return uitest.Listed(m.Visible(), func(i int) string { return m.Row(i).ReservationID })
}

// The most urgent first by default; shift+letter sorts, again reverses; the filter keeps
// the rows holding every word; the cursor stays on its block through all of it and through a
// new list.
func TestSortFilterAndCursor(t *testing.T) {
	now := end.Add(-35 * time.Minute)
	bs := []model.Block{
		block("cr-a", model.StateScheduled, 0, end.Add(72*time.Hour)),
		block("cr-b", model.StateActive, 1, end), // expiring
		block("cr-c", model.StatePaymentFailed, 0, end.Add(24*time.Hour)),
		block("cr-d", model.StateActive, 0, end.Add(48*time.Hour)), // idle
	}
	m := New(theme.New(false))
	m.Set(bs, map[string]model.Money{"cr-a": model.MustMoney("10")}, now)
	// Active by termination, then scheduled by start, then the rest.
	if got := ids(m); got != "cr-b,cr-d,cr-a,cr-c" {
		t.Fatalf("by default: %s", got)
	}
	m = uitest.Steps(t, m, press, ids, []uitest.Step{
		{Keys: "W W", Want: "cr-b,cr-c,cr-d,cr-a", What: "by warning, the most urgent first"},
		{Keys: "j j E", Want: "cr-b,cr-c,cr-d,cr-a", What: "on cr-d, by end"},
		{Keys: "E", Want: "cr-a,cr-d,cr-c,cr-b", What: "by end, reversed"},
	})
	if b, _ := m.Selected(); b.ReservationID != "cr-d" {
		t.Errorf("the cursor left cr-d for %s", b.ReservationID)
	}
	m = press(m, "/", "a", "c", "t")
	if got := ids(m); got != "cr-d,cr-b" {
		t.Errorf("filter act: %s", got)
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	// A new list: cr-d is still there, and stays selected.
	m.Set(append(bs, block("cr-e", model.StateActive, 2, end.Add(96*time.Hour))), nil, now)
	if b, _ := m.Selected(); b.ReservationID != "cr-d" || ids(m) != "cr-e,cr-d,cr-b" {
		t.Errorf("after a new list: %s selected of %s", b.ReservationID, ids(m))
	}
	v := ansi.Strip(m.View(200, 10))
	for _, want := range []string{"▲ EXPIRING", "◌ IDLE, PAID", "ends in 35m 00s", "Fee paid", "—"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
}

// Narrow tables keep the warning and the countdown; every line fits.
func TestViewFits(t *testing.T) {
	m := New(theme.New(true))
	var bs []model.Block
	for i := 0; i < 30; i++ {
		bs = append(bs, block(fmt.Sprintf("cr-%02d", i), model.StateActive, i%2, end.Add(time.Duration(i)*time.Hour)))
	}
	m.Set(bs, nil, end.Add(-2*time.Hour))
	for w := 1; w <= 240; w += 7 {
		for h := 1; h <= 20; h += 3 {
			v := m.View(w, h)
			lines := strings.Split(v, "\n")
			if len(lines) > h {
				t.Fatalf("%dx%d: %d lines", w, h, len(lines))
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Fatalf("%dx%d: a line of %d", w, h, ansi.StringWidth(l))
				}
			}
			if w >= 40 && h >= 2 && !strings.Contains(ansi.Strip(v), "Warning") {
				t.Errorf("%dx%d: the warning column was dropped", w, h)
			}
		}
	}
}

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

func onCallBlocks() []model.Block {
	failedExt := block("cr-ext", model.StateActive, 1, end.Add(24*time.Hour))
	failedExt.Extensions = []model.Extension{{Status: model.ExtensionPaymentFailed, Start: failedExt.End, End: failedExt.End.Add(24 * time.Hour)}}
	return []model.Block{
		block("cr-idle", model.StateActive, 0, end.Add(72*time.Hour)),
		block("cr-pay", model.StatePaymentFailed, 0, end.Add(48*time.Hour)),
		failedExt,
		block("cr-old", model.StateExpired, 0, end.Add(-48*time.Hour)),
		block("cr-soon", model.StateScheduled, 0, end.Add(96*time.Hour)),
		block("cr-run", model.StateActive, 2, end.Add(30*time.Hour)),
	}
}

// The filter sees the Warning column: /idle finds the idle block, /failed the failed
// payment and the failed extension.
func TestFilterFindsWarnings(t *testing.T) {
	m := New(theme.New(false))
	m.Set(onCallBlocks(), nil, end.Add(-5*time.Hour))
	m.SetFilter("idle")
	if got := ids(m); got != "cr-idle" {
		t.Errorf("/idle: %s", got)
	}
	m.SetFilter("failed")
	if got := ids(m); got != "cr-ext,cr-pay" {
		t.Errorf("/failed: %s, want the failed extension and the failed payment", got)
	}
	m.SetFilter("extend by")
	if got := ids(m); got != "" {
		t.Errorf("/extend by with no block within a day of its end: %s", got)
	}
	// Nearer the end the warnings change, and the filter follows the clock.
	m.SetNow(end.Add(24*time.Hour - 5*time.Hour))
	if got := ids(m); got != "cr-ext,cr-run" {
		t.Errorf("/extend by 5 hours before the cutoff of cr-ext and cr-run: %s", got)
	}
}

// By time to termination, the blocks that have none (expired, payment failed) go last in
// both directions; the default order is active by termination, scheduled by start, then
// the rest.
func TestTerminationOrder(t *testing.T) {
	m := New(theme.New(false))
	m.Set(onCallBlocks(), nil, end.Add(-5*time.Hour))
	if got := ids(m); got != "cr-ext,cr-run,cr-idle,cr-soon,cr-old,cr-pay" {
		t.Errorf("default: %s", got)
	}
	m = press(m, "K")
	if got := ids(m); got != "cr-idle,cr-run,cr-ext,cr-soon,cr-pay,cr-old" {
		t.Errorf("reversed: %s", got)
	}
}

// The cursor's row keeps its warning visible: the warning is drawn in its colour on the
// cursor's background.
func TestSelectedRowShowsItsWarning(t *testing.T) {
	th := theme.New(true)
	m := New(th)
	m.Set(onCallBlocks(), nil, end.Add(-5*time.Hour))
	v := m.View(200, 10)
	lines := strings.Split(v, "\n")
	sel := lines[1] // the header, then the cursor's row: cr-ext, its extension failed
	if !strings.Contains(ansi.Strip(sel), "✖ EXT FAILED") {
		t.Fatalf("the cursor's row: %q", ansi.Strip(sel))
	}
	red := th.Selected.Foreground(th.Error.GetForeground()).Render("✖ EXT FAILED")
	red = red[:strings.Index(red, "✖")]
	if !strings.Contains(sel, red) {
		t.Errorf("the cursor's row does not draw its warning in red on the cursor's background: %q", sel)
	}
}

// At 80 columns the table keeps Region and "Terminates in" before the interconnect.
func TestNarrowKeepsRegionAndTermination(t *testing.T) {
	m := New(theme.New(false))
	m.Set(onCallBlocks(), nil, end.Add(-5*time.Hour))
	head := ansi.Strip(strings.Split(m.View(78, 10), "\n")[0])
	for _, want := range []string{"Warning", "Region", "Terminates in"} {
		if !strings.Contains(head, want) {
			t.Errorf("78 columns drop %q: %q", want, head)
		}
	}
	if strings.Contains(head, "Interconnect") {
		t.Errorf("78 columns keep the interconnect: %q", head)
	}
}
