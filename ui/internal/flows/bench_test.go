package flows

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/ui"
	"github.com/gpublock/gpublock/ui/components/offerings"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// benchModel is the search screen at 160×48 holding n offerings, the cursor in the middle.
func benchModel(b *testing.B, n int) ui.Model {
	b.Helper()
	m := withResults(ui.New(testOptions(nil)), uitest.SyntheticOfferings(n))
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	for i := 0; i < n/2; i += 40 {
		m = update(m, uitest.Key("f"))
	}
	if m.Inspect().Search.Table().Len() != n {
		b.Fatalf("the table holds %d rows, want %d", m.Inspect().Search.Table().Len(), n)
	}
	return m
}

// View of the search screen with 10,000 offerings, at 160×48 and at the narrower sizes
// where the table fits its core columns to their content. Goal: ≤ 1 ms at each.
func BenchmarkView10k(b *testing.B) {
	for _, size := range [][2]int{{160, 48}, {120, 40}, {80, 24}, {60, 16}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			m := benchModel(b, 10_000)
			m = update(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			b.ReportAllocs()
			for b.Loop() {
				if m.View().Content == "" {
					b.Fatal("empty frame")
				}
			}
		})
	}
}

// A sort key press on 10,000 offerings: Update re-sorts (each press flips the direction).
// Goal: ≤ 5 ms.
func BenchmarkSortKey10k(b *testing.B) {
	m := benchModel(b, 10_000)
	k := uitest.Key("F")
	b.ReportAllocs()
	for b.Loop() {
		mm, _ := m.Update(k)
		m = mm.(ui.Model)
	}
}

// A sort key press on 10,000 offerings, one sub-benchmark per column: each timed press sorts
// by the column from the order of another (the fee, or the start for the fee column), so
// that no press starts from rows already in order. Goal: ≤ 2 ms for every column.
func BenchmarkSortColumn10k(b *testing.B) {
	m := benchModel(b, 10_000)
	sortKeys := m.Inspect().Search.Table().KeyMap().Sort
	for c := range sortKeys {
		col := offerings.Column(c)
		from := offerings.ColFee
		if col == offerings.ColFee {
			from = offerings.ColStart
		}
		k, other := uitest.Key(sortKeys[col].Keys()[0]), uitest.Key(sortKeys[from].Keys()[0])
		b.Run(strings.ReplaceAll(offerings.ColumnName(col), " ", "-"), func(b *testing.B) {
			m := m
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				m = update(m, other)
				b.StartTimer()
				m = update(m, k)
			}
			if got, desc := m.Inspect().Search.Table().Sort(); got != col || desc {
				b.Fatalf("sorted by %s (descending %v), want %s ascending", offerings.ColumnName(got), desc, offerings.ColumnName(col))
			}
		})
	}
}

// The same key press followed by the frame it causes.
func BenchmarkSortKeyAndFrame10k(b *testing.B) {
	m := benchModel(b, 10_000)
	k := uitest.Key("A")
	for b.Loop() {
		mm, _ := m.Update(k)
		m = mm.(ui.Model)
		_ = m.View()
	}
}

// Streaming 10,000 offerings into the table in pages of 6, as a search delivers them.
func BenchmarkStream10k(b *testing.B) {
	offs := uitest.SyntheticOfferings(10_000)
	base := update(ui.New(testOptions(nil)), tea.WindowSizeMsg{Width: 160, Height: 48})
	for b.Loop() {
		_ = withResults(base, offs)
	}
}

// Heap held by a model with 10,000 offerings, reported as heap-MB (the live heap after a
// GC, the model kept alive) and heap-bytes/row.
func BenchmarkMemory10k(b *testing.B) {
	offs := uitest.SyntheticOfferings(10_000)
	var ms runtime.MemStats
	var held uint64
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		m := withResults(ui.New(testOptions(nil)), offs)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		held = ms.HeapAlloc - before
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(held)/(1<<20), "heap-MB")
	b.ReportMetric(float64(held)/10_000, "heap-bytes/row")
}

// In-process start to first frame: New, Init (the commands are not run) and the first View
// at 160×48. The process figure, with the emulator and the adapter, is
// BenchmarkProcessFirstFrame.
func BenchmarkFirstFrameInProcess(b *testing.B) {
	for b.Loop() {
		m := ui.New(testOptions(nil))
		_ = m.Init()
		m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
		if m.View().Content == "" {
			b.Fatal("empty frame")
		}
	}
}
