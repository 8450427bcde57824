package dialog

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/ui/screen"
	"github.com/gpublock/gpublock/ui/theme"
)

// A LIVE dialog cannot be taken for a SIMULATED one without colour: their borders and
// titles differ, and each is as large as its box.
func TestModeFrameTellsTheModesApart(t *testing.T) {
	th := theme.New(false)
	r := screen.Rect{W: 40, H: 5}
	live := ModeFrame(th, false, "Buy", "one\ntwo", r)
	sim := ModeFrame(th, true, "Buy", "one\ntwo", r)
	for name, c := range map[string]struct {
		box, has, not string
	}{
		"live":      {live, "╔═ LIVE — REAL MONEY · Buy", "SIMULATED"},
		"simulated": {sim, "╭┄ SIMULATED — nothing real · Buy", "LIVE"},
	} {
		lines := strings.Split(ansi.Strip(c.box), "\n")
		if len(lines) != r.H || !strings.HasPrefix(lines[0], c.has) || strings.Contains(c.box, c.not) {
			t.Errorf("%s frame:\n%s", name, c.box)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) != r.W {
				t.Errorf("%s: line %q is %d wide, want %d", name, l, ansi.StringWidth(l), r.W)
			}
		}
	}
	if ModeFrame(th, false, "Buy", "x", screen.Rect{W: 1, H: 1}) != "" {
		t.Error("a frame was drawn in a box too small for its border")
	}
}

// Each dialog gets a number of its own; a poll made for a program that is quitting is not
// made.
func TestNextSeqAndSleep(t *testing.T) {
	a, b := NextSeq(), NextSeq()
	if b <= a {
		t.Errorf("NextSeq gave %d then %d", a, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if Sleep(ctx, time.Hour) {
		t.Error("Sleep waited past its context's end")
	}
	if !Sleep(ctx, 0) {
		t.Error("Sleep(0) did not report it waited")
	}
	if (Env{}).CallCtx() == nil {
		t.Error("an Env without a context calls with none")
	}
}
