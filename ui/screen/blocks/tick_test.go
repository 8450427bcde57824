package blocks

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/program"
	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// Over two fake hours, the visible screen ticks only when a countdown it shows changes
// (each minute for blocks hours away, not each second), and what it shows between its
// ticks is always what a redraw at that moment would show.
func TestCountdownTicksOnlyWhenItChanges(t *testing.T) {
	now := testNow
	pc := &program.Context{Ctx: context.Background(), Theme: theme.New(false),
		Clock: program.NewClock(func() time.Time { return now }), Location: time.UTC, Width: 160, Height: 48}
	m := New(pc, Options{Visible: true})
	m.SetArea(screen.Area{Top: 1, Width: 160, Height: 44})
	running := block("cr-running", model.StateActive)
	running.End = testNow.Add(5*time.Hour + 20*time.Minute)
	soon := block("cr-soon", model.StateScheduled)
	soon.Start, soon.End = testNow.Add(3*24*time.Hour), testNow.Add(4*24*time.Hour)
	m, _ = m.Update(ListedMsg{ID: m.ListingID(), List: source.BlockList{Blocks: []model.Block{running, soon}, Now: testNow}})

	ticks := 0
	d, ok := m.NextTick()
	if !ok {
		t.Fatal("no tick with two blocks counting down")
	}
	next := now.Add(d)
	for s := 1; s <= 2*3600; s++ {
		now = testNow.Add(time.Duration(s) * time.Second)
		for !next.After(now) {
			ticks++
			saved := now
			now = next
			// The countdown asks the root for the time; the time comes back in Tick.
			var ask tea.Cmd
			if m, ask = m.Update(tickMsg{gen: m.tickGen}); ask == nil || ask() != (screen.NowMsg{}) {
				t.Fatalf("at %v the countdown's tick did not ask for the time", now)
			}
			before := m
			m, _ = m.Tick(now)
			if !m.Now().Equal(now) {
				t.Fatalf("ticked at %v, the screen shows %v", now, m.Now())
			}
			if before.View() == m.View() {
				t.Fatalf("at %v the tick changed nothing on screen (the screen's time: %v, before %v)", now, m.Now(), before.Now())
			}
			d, ok = m.NextTick()
			if !ok || d <= 0 {
				t.Fatalf("at %v: next tick in %v", now, d)
			}
			next = now.Add(d)
			now = saved
		}
		if s%17 == 0 {
			if got, want := m.View(), m.SetNow(now).View(); got != want {
				t.Fatalf("at %v the screen drawn at %v is stale:\n%s\nwant:\n%s", now, m.Now(), got, want)
			}
		}
	}
	if ticks < 110 || ticks > 2*60+2 {
		t.Errorf("%d ticks in two hours, want one a minute", ticks)
	}
	// An older tick (before the list changed) is dropped: it schedules nothing.
	if _, cmd := m.Update(tickMsg{gen: m.tickGen - 1}); cmd != nil {
		t.Error("a stale tick scheduled another")
	}
	// Nothing listed: no countdown, no tick.
	empty := New(pc, Options{Visible: true})
	empty, _ = empty.Update(ListedMsg{ID: empty.ListingID(), List: source.BlockList{Now: now}})
	if _, ok := empty.NextTick(); ok {
		t.Error("a screen with no block ticks")
	}
}
