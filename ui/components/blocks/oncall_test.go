package blocks

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/theme"
)

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

// The detail keeps a terminated instance, with when it stopped, instead of "none running".
func TestDetailKeepsTerminatedInstances(t *testing.T) {
	b := block("cr-1", model.StateActive, 0, end)
	b.Instances = []model.Instance{
		{ID: "i-0aaa", State: "running", LaunchTime: end.Add(-5 * time.Hour)},
		{ID: "i-0bbb", State: "terminated", LaunchTime: end.Add(-6 * time.Hour), StoppedAt: end.Add(-2 * time.Hour)},
	}
	v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-time.Hour), time.UTC, 160, 60))
	if !strings.Contains(v, "Instances (2)") || !strings.Contains(v, "i-0bbb") || !strings.Contains(v, "stopped "+end.Add(-2*time.Hour).Format("Jan 02 15:04 UTC")) {
		t.Errorf("the detail lacks the terminated instance or its stop time:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "i-0aaa") && strings.Contains(l, "stopped") {
			t.Errorf("a running instance said stopped: %q", l)
		}
	}
	b.Instances = nil
	if v := ansi.Strip(Detail(theme.New(false), b, model.Money{}, false, end.Add(-time.Hour), time.UTC, 160, 60)); strings.Contains(v, "none running") {
		t.Errorf("an empty list says \"none running\", as if the terminated ones were none:\n%s", v)
	}
}
